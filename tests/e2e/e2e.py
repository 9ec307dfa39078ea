#!/usr/bin/python3
"""End-to-end tests of the real Ask First window, driven over W3C WebDriver (WebKitWebDriver).

Run by run.sh inside `xvfb-run … dbus-run-session`, with a fake notification server and a
StatusNotifierWatcher on the private session bus. Each test starts the app with its own data
and workspace folders, drives the window as a person would (type a task, click Start, read the
card, click Approve or Deny), and checks the files, the notification and the tray menu.

Prints one line per test and a closing "N passed, N failed" line; exits non-zero on failure.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
DRIVER = os.environ.get("WEBDRIVER_URL", "http://127.0.0.1:4445")
APP = os.environ.get("ASKFIRST_E2E_APP", os.path.join(ROOT, "target", "debug", "askfirst"))
ARTIFACTS = os.environ.get("ASKFIRST_E2E_ARTIFACTS", os.path.join(ROOT, ".e2e-artifacts"))
# Where run.sh sends WebKitWebDriver's output, and so the app's stderr.
WEBDRIVER_LOG = os.environ.get("ASKFIRST_E2E_WEBDRIVER_LOG", os.path.join(ARTIFACTS, "webdriver.log"))


def log_size():
    try:
        return os.path.getsize(WEBDRIVER_LOG)
    except OSError:
        return 0


def log_since(mark):
    """What the app (and WebKitWebDriver) wrote to stderr since `mark` (a log_size())."""
    try:
        with open(WEBDRIVER_LOG, "rb") as f:
            f.seek(mark)
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def report_failure(name, log_mark):
    """Prints what a CI log needs to tell why a test failed: whether the app was still running
    and the end of what it wrote to stderr (D-Bus daemon chatter left out)."""
    pids = subprocess.run(["pgrep", "-f", APP], capture_output=True, text=True).stdout.split()
    print(f"  [{name}] app processes at failure: {pids or 'none (it had exited)'}", flush=True)
    lines = [line for line in log_since(log_mark).splitlines()
             if line.strip() and not line.startswith("dbus-daemon[")]
    if lines:
        print(f"  [{name}] the last of its stderr ({len(lines)} lines since it started):", flush=True)
        for line in lines[-25:]:
            print(f"    | {line[:300]}", flush=True)
NOTIFY_LOG = os.environ["ASKFIRST_E2E_NOTIFY_LOG"]
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
PYTHON = "/usr/bin/python3"


class WebDriver:
    """The few W3C WebDriver calls the tests need, over urllib."""

    def __init__(self, base):
        self.base = base
        self.session = None

    def _call(self, method, path, body=None, timeout=60):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return json.loads(resp.read() or b"{}").get("value")
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"{method} {path}: {e.code} {e.read().decode(errors='replace')}")

    def start(self, binary):
        caps = {"capabilities": {"alwaysMatch": {
            "webkitgtk:browserOptions": {"binary": binary, "args": []}}}}
        value = self._call("POST", "/session", caps, timeout=40)
        self.session = value["sessionId"]

    def stop(self):
        if self.session:
            try:
                self._call("DELETE", f"/session/{self.session}", timeout=30)
            except Exception:  # the app may already be gone
                pass
            self.session = None

    def s(self, method, path, body=None):
        return self._call(method, f"/session/{self.session}{path}", body)

    def execute(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find_all(self, css):
        return [e[ELEMENT] for e in self.s("POST", "/elements", {"using": "css selector", "value": css})]

    def find_in(self, element, css):
        found = self.s("POST", f"/element/{element}/elements", {"using": "css selector", "value": css})
        return [e[ELEMENT] for e in found]

    def text(self, element):
        return self.s("GET", f"/element/{element}/text")

    def attr(self, element, name):
        return self.s("GET", f"/element/{element}/attribute/{name}")

    def click(self, element):
        self.s("POST", f"/element/{element}/click", {})

    def type(self, element, text):
        self.s("POST", f"/element/{element}/value", {"text": text})

    def click_twice(self, element, gap_ms):
        """Two clicks at the same spot, gap_ms apart, the pointer not moving (a double click)."""
        origin = {ELEMENT: element}
        steps = [{"type": "pointerMove", "duration": 0, "origin": origin, "x": 0, "y": 0},
                 {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0},
                 {"type": "pause", "duration": gap_ms},
                 {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]
        self.s("POST", "/actions", {"actions": [{"type": "pointer", "id": "mouse",
                                                 "parameters": {"pointerType": "mouse"}, "actions": steps}]})

    def key(self, *keys):
        """Presses and releases each key in turn (W3C WebDriver key actions)."""
        actions = []
        for k in keys:
            actions += [{"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]
        self.s("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})

    def chord(self, *keys):
        """Presses the keys together (e.g. Control and Enter), then lets them go."""
        actions = [{"type": "keyDown", "value": k} for k in keys]
        actions += [{"type": "keyUp", "value": k} for k in reversed(keys)]
        self.s("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})

    def screenshot(self, path):
        import base64
        png = base64.b64decode(self.s("GET", "/screenshot"))
        with open(path, "wb") as f:
            f.write(png)


def wait_for(what, poll, timeout=30.0, interval=0.1):
    deadline = time.monotonic() + timeout
    last_error = None
    while time.monotonic() < deadline:
        try:
            value = poll()
            if value:
                return value
        except Exception as e:  # keep polling; report the last error on timeout
            last_error = e
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}"
                         + (f" (last error: {last_error})" if last_error else ""))


def notifications():
    try:
        with open(NOTIFY_LOG, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def close_window(title="Ask First"):
    """Asks the window to close as a window manager's close button does: a WM_DELETE_WINDOW
    message (ICCCM §4.2.8.1) to the top-level window with that title."""
    from Xlib import X, display, protocol
    d = display.Display()
    try:
        delete = d.intern_atom("WM_DELETE_WINDOW")
        protocols = d.intern_atom("WM_PROTOCOLS")

        def find(window):
            try:
                # Mapped only: GTK's unmapped client-leader window carries the app's name too.
                if (window.get_wm_name() == title and delete in (window.get_wm_protocols() or [])
                        and window.get_attributes().map_state == X.IsViewable):
                    return window
            except Exception:
                pass
            for child in window.query_tree().children:
                found = find(child)
                if found:
                    return found
            return None

        window = find(d.screen().root)
        assert window, f"no window titled {title!r}"
        event = protocol.event.ClientMessage(window=window, client_type=protocols,
                                             data=(32, [delete, X.CurrentTime, 0, 0, 0]))
        window.send_event(event, event_mask=X.NoEventMask)
        d.flush()
    finally:
        d.close()


def hide_by_closing(title="Ask First"):
    """Closes the window (it should hide) and waits until it is hidden; returns how many
    closes it took. A close sent in the first second or so after the window appeared is
    sometimes lost before it reaches the app (its close handler never runs; with or without
    WebDriver, and most often on a loaded machine), so the close is sent again, as a person
    would click again. When the app handles a close, the window is gone within a fraction
    of a second."""
    for attempt in range(1, 11):
        close_window(title)
        try:
            wait_for("the window to hide", lambda: not window_viewable(title), timeout=2)
            return attempt
        except AssertionError:
            print(f"  (the window did not hide after close {attempt}; closing again)", flush=True)
            continue
    raise AssertionError(f"the window did not hide: {x_windows(title)}")


def x_windows(title="Ask First"):
    """(id, map state, has WM_DELETE_WINDOW) of every window with that title, for messages."""
    from Xlib import display
    d = display.Display()
    try:
        delete = d.intern_atom("WM_DELETE_WINDOW")
        found = []

        def walk(window):
            try:
                if window.get_wm_name() == title:
                    found.append((hex(window.id), window.get_attributes().map_state,
                                  delete in (window.get_wm_protocols() or [])))
            except Exception:
                pass
            for child in window.query_tree().children:
                walk(child)
        walk(d.screen().root)
        return found
    finally:
        d.close()


def window_viewable(title="Ask First"):
    """Whether a top-level window with that title is mapped and viewable."""
    from Xlib import X, display
    d = display.Display()
    try:
        def walk(window):
            try:
                if window.get_wm_name() == title and window.get_attributes().map_state == X.IsViewable:
                    return True
            except Exception:
                pass
            return any(walk(c) for c in window.query_tree().children)
        return walk(d.screen().root)
    finally:
        d.close()


def closed_notifications():
    try:
        with open(NOTIFY_LOG + ".closed", encoding="utf-8") as f:
            return [json.loads(line)["id"] for line in f if line.strip()]
    except FileNotFoundError:
        return []


def click_notification(nid, action="default"):
    """Clicks a notification as a person would (the fake server's test hook)."""
    import dbus
    bus = dbus.SessionBus()
    server = bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
    server.Click(dbus.UInt32(nid), action, dbus_interface="dev.askfirst.TestNotifications")


def tray(*args):
    out = subprocess.run([PYTHON, os.path.join(HERE, "tray_probe.py"), *args], capture_output=True,
                         text=True, timeout=20)
    return json.loads(out.stdout) if out.stdout.strip() else {"error": out.stderr}


def armed(wd, button):
    """Whether a card's button answers: not disabled (the answer is sent or the request ended)
    and not aria-disabled (the card is still arming; the button stays in the Tab order)."""
    return wd.attr(button, "disabled") is None and wd.attr(button, "aria-disabled") != "true"


class App:
    """One app instance with fresh folders, started through WebDriver."""

    def __init__(self, name, scenario, env=None):
        self.name = name
        self.tmp = tempfile.mkdtemp(prefix=f"askfirst-e2e-{name}-")
        self.data = os.path.join(self.tmp, "data")
        self.workspace = os.path.join(self.tmp, "workspace")
        os.makedirs(self.workspace)
        # WebKitWebDriver (and so launch.sh) has this path in its environment.
        env_file = os.environ["ASKFIRST_E2E_ENV"]
        with open(env_file, "w") as f:
            f.write(f"ASKFIRST_DATA_DIR='{self.data}'\n")
            f.write(f"ASKFIRST_WORKSPACE='{self.workspace}'\n")
            if scenario:
                f.write(f"ASKFIRST_PROVIDER='scripted:{os.path.join(HERE, 'scenarios', scenario)}'\n")
                # (an absolute path is used as it is by os.path.join)
            for key, value in (env or {}).items():
                f.write(f"{key}='{value}'\n")
            f.write(f"ASKFIRST_E2E_APP='{APP}'\n")
            # The driven window has the focus; these tests check the notification regardless
            # (unless a test chooses the setting itself).
            if "ASKFIRST_NOTIFY" not in (env or {}):
                f.write("ASKFIRST_NOTIFY='always'\n")
        self.wd = WebDriver(DRIVER)

    def __enter__(self):
        self.log_mark = log_size()
        try:
            self.wd.start(os.path.join(HERE, "launch.sh"))
        except Exception as first:  # a slow or stuck start: clear leftovers and try once more
            print(f"  (session start failed: {first}; retrying)", flush=True)
            self.wd.session = None
            subprocess.run(["pkill", "-9", "-f", APP], check=False)
            time.sleep(1)
            self.wd.start(os.path.join(HERE, "launch.sh"))
        wait_for("the page to load", lambda: self.wd.execute("return document.readyState") == "complete"
                 and self.wd.find_all('[data-testid="task-input"]'))
        return self

    def __exit__(self, *exc):
        if exc[0] is not None:
            try:
                self.wd.screenshot(os.path.join(ARTIFACTS, f"{self.name}-failure.png"))
            except Exception:
                pass
            report_failure(self.name, self.log_mark)
        # End the app first: closing its window only hides it (it lives on in the tray), and
        # WebKitWebDriver would wait for a browser that never exits.
        subprocess.run(["pkill", "-f", APP], check=False)
        # The app is single-instance: the next test's app must not find this one still there.
        try:
            wait_for("the app to exit", lambda: subprocess.run(
                ["pgrep", "-f", APP], capture_output=True).returncode != 0, timeout=15)
        except AssertionError:
            subprocess.run(["pkill", "-9", "-f", APP], check=False)
            time.sleep(0.5)
        # …nor its single-instance name on the bus, which the bus drops a moment later.
        try:
            import dbus
            bus = dbus.SessionBus()
            wait_for("the single-instance name to go", lambda: not any(
                "SingleInstance" in str(n) for n in bus.list_names()), timeout=10)
        except Exception as e:
            print(f"  (could not check the bus: {e})", flush=True)
        self.wd.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def start_task(self, task):
        box = self.wd.find_all('[data-testid="task-input"]')[0]
        self.wd.type(box, task)
        start = self.wd.find_all('[data-testid="start-run"]')[0]
        wait_for("Start to be enabled", lambda: self.wd.attr(start, "disabled") is None)
        self.wd.click(start)

    def card(self):
        return wait_for("an approval card", lambda: self.wd.find_all('[data-testid="approval-card"]'))[0]

    def press(self, card, testid):
        """Clicks a card's button once it is armed (enabled), as a person would."""
        button = wait_for(testid, lambda: self.wd.find_in(card, f'[data-testid="{testid}"]'))[0]
        wait_for(f"{testid} to be armed", lambda: armed(self.wd, button))
        self.wd.click(button)

    def card_field(self, card, testid):
        if testid == "approval-args":
            # The exact details fold away when a diff shows the change; open them as a person would.
            details = self.wd.find_in(card, "details")[0]
            if self.wd.attr(details, "open") is None:
                self.wd.click(self.wd.find_in(card, "details > summary")[0])
        return self.wd.text(self.wd.find_in(card, f'[data-testid="{testid}"]')[0])

    def run_status(self):
        el = self.wd.find_all('[data-testid="run-status"]')[0]
        return self.wd.attr(el, "data-status")

    def wait_finished(self):
        return wait_for("the run to finish",
                        lambda: self.run_status() if self.run_status() in ("completed", "failed", "cancelled") else None)


def test_approve_writes_the_file():
    before = len(notifications())
    with App("approve", "write-hello.json") as app:
        app.start_task("Please greet me in a file")
        card = app.card()
        approval_id = app.wd.attr(card, "data-approval-id")
        summary = app.card_field(card, "approval-summary")
        assert summary == "Create the file hello.txt (2 lines)", summary
        assert app.card_field(card, "approval-tool") == "write_file"
        assert "needs your OK" in app.card_field(card, "approval-reason")
        args = app.card_field(card, "approval-args")
        assert '"path": "hello.txt"' in args, args
        diff = app.card_field(card, "approval-diff")
        assert "+Hello from Ask First!" in diff and "+Second line." in diff, diff
        assert not os.path.exists(os.path.join(app.workspace, "hello.txt")), "written before the click"

        # The notification names what is waiting, without the raw arguments.
        note = wait_for("the notification", lambda: notifications()[before:])[0]
        assert note["summary"] == "Ask First needs your OK", note
        assert note["body"] == summary, note
        assert "Hello from Ask First" not in note["body"]

        # The tray shows one approval waiting.
        menu = wait_for("the tray to count 1", lambda: (lambda t: t if "1 approval waiting" in t.get("labels", []) else None)(tray()))
        assert "Show Ask First" in menu["labels"] and "Quit" in menu["labels"], menu
        assert menu["title"] == "Ask First", menu

        app.wd.screenshot(os.path.join(ARTIFACTS, "approve-card.png"))
        app.press(card, "approve")
        wait_for("the card to go", lambda: not app.wd.find_all(f'[data-approval-id="{approval_id}"]'))
        assert app.wait_finished() == "completed"
        with open(os.path.join(app.workspace, "hello.txt"), encoding="utf-8") as f:
            assert f.read() == "Hello from Ask First!\nSecond line.\n"
        wait_for("the tray to count 0", lambda: "No approvals waiting" in tray().get("labels", []))
        calls = app.wd.find_all('[data-testid="tool-call"]')
        assert [app.wd.attr(c, "data-state") for c in calls] == ["succeeded"]
        app.wd.screenshot(os.path.join(ARTIFACTS, "approve-done.png"))


def test_deny_leaves_no_file_and_the_run_finishes():
    with App("deny", "write-hello.json") as app:
        app.start_task("Please greet me in a file")
        card = app.card()
        approval_id = app.wd.attr(card, "data-approval-id")
        app.press(card, "deny")
        wait_for("the card to go", lambda: not app.wd.find_all(f'[data-approval-id="{approval_id}"]'))
        assert app.wait_finished() == "completed"
        assert not os.path.exists(os.path.join(app.workspace, "hello.txt"))
        messages = [app.wd.text(m) for m in app.wd.find_all('[data-testid="assistant-message"]')]
        assert messages and messages[-1].endswith("That was all I had to do."), messages
        calls = app.wd.find_all('[data-testid="tool-call"]')
        assert [app.wd.attr(c, "data-state") for c in calls] == ["denied"]


def test_reload_keeps_the_card_and_the_transcript():
    with App("reload", "write-hello.json") as app:
        app.start_task("Please greet me in a file")
        card = app.card()
        approval_id = app.wd.attr(card, "data-approval-id")
        for _ in range(3):
            app.wd.execute("location.reload()")
            wait_for("the page to reload", lambda: app.wd.execute("return document.readyState") == "complete"
                     and app.wd.find_all('[data-testid="approval-card"]'))
        cards = app.wd.find_all('[data-testid="approval-card"]')
        assert [app.wd.attr(c, "data-approval-id") for c in cards] == [approval_id]
        # The reloaded page asks for the cards and for the transcript separately: the card can
        # be back before the transcript, which comes all at once (one list_run_events answer).
        status = wait_for("the transcript to be fetched again",
                          lambda: (lambda s: s if s != "idle" else None)(app.run_status()))
        assert status == "running", status
        assert len(app.wd.find_all('[data-testid="assistant-message"]')) == 1
        app.press(cards[0], "approve")
        assert app.wait_finished() == "completed"
        assert os.path.exists(os.path.join(app.workspace, "hello.txt"))


def test_allow_for_this_session_covers_exactly_the_same_call():
    with App("session", "write-twice.json") as app:
        app.start_task("Note the date")
        card = app.card()
        first = app.wd.attr(card, "data-approval-id")
        app.wd.screenshot(os.path.join(ARTIFACTS, "session-card.png"))
        app.press(card, "approve-session")
        # The identical second write runs without a card; the different third one asks.
        card = wait_for("the card for other.txt", lambda: [
            c for c in app.wd.find_all('[data-testid="approval-card"]')
            if app.wd.attr(c, "data-approval-id") != first])[0]
        assert "other.txt" in app.card_field(card, "approval-summary")
        states = [app.wd.attr(c, "data-state") for c in app.wd.find_all('[data-testid="tool-call"]')]
        assert states == ["succeeded", "succeeded", "waiting"], states
        texts = [app.wd.text(c) for c in app.wd.find_all('[data-testid="tool-call"]')]
        assert "allowed for this session" in texts[1], texts
        # The grants are listed by a list_grants call of their own, made when the approval
        # for the session arrives: the next card can be shown before its answer.
        grants = wait_for("the grant to be listed", lambda: app.wd.find_all('[data-testid="grant"]'))
        assert len(grants) == 1 and "date.txt" in app.wd.text(grants[0]), grants
        app.wd.screenshot(os.path.join(ARTIFACTS, "session-granted.png"))
        # Deny with a note: the note reaches the agent.
        app.press(card, "add-note")
        note = wait_for("the note box", lambda: app.wd.find_in(card, '[data-testid="deny-note"]'))[0]
        app.wd.type(note, "Not that file, please")
        app.press(card, "deny-with-note")
        assert app.wait_finished() == "completed"
        assert not os.path.exists(os.path.join(app.workspace, "other.txt"))
        texts = [app.wd.text(c) for c in app.wd.find_all('[data-testid="tool-call"]')]
        assert "Not that file, please" in texts[2], texts
        # The grant is also listed in Settings, and stopping it there ends it everywhere.
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        listed = wait_for("the grant in settings", lambda: app.wd.find_all('[data-testid="settings-grant"]'))
        assert len(listed) == 1 and "date.txt" in app.wd.text(listed[0]), listed
        app.wd.click(app.wd.find_all('[data-testid="settings-revoke-grant"]')[0])
        wait_for("the grant to go", lambda: not app.wd.find_all('[data-testid="grant"]')
                 and not app.wd.find_all('[data-testid="settings-grant"]'))
        assert app.wd.execute("return window.__TAURI_INTERNALS__.invoke('list_grants')") == []


def test_refuse_every_change_denies_without_a_card():
    with App("never", "write-hello.json") as app:
        app.wd.click(app.wd.find_all('[data-testid="refuse-all"]')[0])
        app.start_task("Please greet me in a file")
        assert app.wait_finished() == "completed"
        assert not app.wd.find_all('[data-testid="approval-card"]')
        assert not os.path.exists(os.path.join(app.workspace, "hello.txt"))
        calls = app.wd.find_all('[data-testid="tool-call"]')
        assert [app.wd.attr(c, "data-state") for c in calls] == ["denied"]
        assert "not to be asked" in app.wd.text(calls[0]), app.wd.text(calls[0])


def test_openai_provider_streams_asks_and_answers():
    server = subprocess.Popen([PYTHON, os.path.join(HERE, "fake_openai.py")], stdout=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().strip()
        env = {"ASKFIRST_PROVIDER": "openai", "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1",
               "OPENAI_API_KEY": "sk-e2e", "ASKFIRST_MODEL": "e2e-model"}
        with App("openai", None, env) as app:
            app.start_task("Write down that I need milk")
            card = app.card()
            assert app.card_field(card, "approval-summary") == "Create the file notes.txt (1 line)"
            messages = [app.wd.text(m) for m in app.wd.find_all('[data-testid="assistant-message"]')]
            assert messages and messages[0].endswith("I will write your note into notes.txt."), messages
            app.press(card, "approve")
            assert app.wait_finished() == "completed"
            with open(os.path.join(app.workspace, "notes.txt"), encoding="utf-8") as f:
                assert f.read() == "Buy milk\n"
            messages = [app.wd.text(m) for m in app.wd.find_all('[data-testid="assistant-message"]')]
            assert messages[-1].endswith("Done. The tool said: Wrote 9 bytes to notes.txt."), messages
            app.wd.screenshot(os.path.join(ARTIFACTS, "openai-done.png"))
    finally:
        server.kill()


def scenario_file(turns):
    fd, path = tempfile.mkstemp(prefix="askfirst-scenario-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump({"turns": turns}, f)
    return path


def test_hostile_arguments_are_shown_as_text_and_nothing_runs_in_the_page():
    payloads = [
        '<img src=x onerror="window.__pwned=1">',
        '<script>window.__pwned=2</script>',
        '"><svg onload="window.__pwned=3">',
        'invoice\u202Etxt.exe',
        'zero\u200bwidth',
    ]
    content = "\n".join(payloads)
    path = scenario_file([
        {"say": "<b>bold?</b> <img src=x onerror=\"window.__pwned=4\">",
         "tool_calls": [{"name": "write_file", "arguments": {"path": "<i>x</i>.txt", "content": content}}]},
        {"say": "ok"},
    ])
    try:
        with App("hostile", path) as app:
            app.start_task("x")
            card = app.card()
            args = app.card_field(card, "approval-args")
            assert '<img src=x onerror=\\"window.__pwned=1\\">' in args, args
            assert "\\u202E" in args and "\\u200B" in args, args
            summary = app.card_field(card, "approval-summary")
            assert summary == "Create the file <i>x</i>.txt (5 lines)", summary
            said = app.wd.text(app.wd.find_all('[data-testid="assistant-message"]')[0])
            assert "<b>bold?</b>" in said, said
            assert app.wd.execute("return window.__pwned === undefined") is True
            assert not app.wd.find_all("img, svg, script:not([src])"), "no element made from model text"
            app.wd.screenshot(os.path.join(ARTIFACTS, "hostile-card.png"))
            # Folding the object hides its lines only with a count, and unfolding brings them back.
            app.wd.click(app.wd.find_in(card, '[data-testid="json-toggle"]')[0])
            folded = app.card_field(card, "approval-args")
            assert folded == "{ … 2 lines folded … }", folded
            app.wd.click(app.wd.find_in(card, '[data-testid="json-toggle"]')[0])
            assert app.card_field(card, "approval-args") == args
            app.press(card, "deny")
            assert app.wait_finished() == "completed"
    finally:
        os.unlink(path)


def diff_lines(app, card):
    """Each line of a card's diff box as a person sees it: (kind, text), kind one of add, del,
    same, hunk, note, cut, other."""
    return app.wd.execute(
        "const kinds = ['add', 'del', 'same', 'hunk', 'note', 'cut', 'other'];"
        "return [...arguments[0].querySelectorAll('[data-testid=\"approval-diff\"] .line')]"
        ".map(el => [kinds.find(k => el.classList.contains(k)) || '?', el.innerText]);",
        {ELEMENT: card})


def test_every_diff_line_shows_whatever_it_starts_with():
    # A hostile model hides a line in a diff by making it look like diff syntax: each of these
    # is a line of the file and must show as an added (or removed) line on the card.
    tricky = ["print('hi')", "+", "-", "++__import__('os').system('echo pwned')", "--",
              "+++ b/elsewhere.txt", "--- a/elsewhere.txt", "@@ -1,2 +1,2 @@",
              "\\ No newline at end of file", "[… 3 lines not shown: 3 added, 0 removed …]",
              "last line"]
    content = "\n".join(tricky) + "\n"
    old_sql = "create table t (id int);\n-- drop the old table first\n--- a/not-a-header\nselect 1;\n"
    path = scenario_file([
        {"say": "Writing the script.",
         "tool_calls": [{"name": "write_file", "arguments": {"path": "run.py", "content": content}}]},
        {"say": "Tidying the SQL.",
         "tool_calls": [{"name": "edit_file", "arguments": {
             "path": "schema.sql",
             "old_text": "-- drop the old table first\n--- a/not-a-header\n", "new_text": ""}}]},
        {"say": "Done."},
    ])
    try:
        with App("tricky-diff", path) as app:
            with open(os.path.join(app.workspace, "schema.sql"), "w", encoding="utf-8") as f:
                f.write(old_sql)
            app.start_task("x")
            card = app.card()
            assert app.card_field(card, "approval-tool") == "write_file"
            shown = diff_lines(app, card)
            assert shown == [["add", "+" + line] for line in tricky], shown
            # The whole change is shown: no sentence says part of it is not.
            assert not app.wd.find_in(card, '[data-testid="approval-diff-cut"]')
            time.sleep(1)  # WebKit's screenshot can lag the DOM by a frame or two
            app.wd.screenshot(os.path.join(ARTIFACTS, "tricky-diff-card.png"))
            app.press(card, "approve")
            card = wait_for("the edit's card", lambda: [
                c for c in app.wd.find_all('[data-testid="approval-card"]')
                if app.card_field(c, "approval-tool") == "edit_file"])[0]
            shown = diff_lines(app, card)
            assert shown == [["same", " create table t (id int);"],
                             ["del", "--- drop the old table first"],
                             ["del", "---- a/not-a-header"],
                             ["same", " select 1;"]], shown
            time.sleep(1)
            app.wd.screenshot(os.path.join(ARTIFACTS, "tricky-edit-card.png"))
            app.press(card, "approve")
            assert app.wait_finished() == "completed"
            with open(os.path.join(app.workspace, "run.py"), encoding="utf-8", newline="") as f:
                assert f.read() == content
            with open(os.path.join(app.workspace, "schema.sql"), encoding="utf-8", newline="") as f:
                assert f.read() == "create table t (id int);\nselect 1;\n"
    finally:
        os.unlink(path)


def test_a_5_mb_argument_keeps_the_card_usable():
    path = scenario_file([
        {"tool_calls": [{"name": "write_file", "arguments": {"path": "big.txt", "content": "x" * 5_000_000}}]},
        {"say": "ok"},
    ])
    try:
        with App("big", path) as app:
            app.start_task("x")
            card = app.card()
            args = app.card_field(card, "approval-args")
            assert "4,999,200 more characters hidden" in args, args[:300]
            assert len(args) < 20_000
            assert app.wd.find_in(card, '[data-testid="show-all"]')
            app.wd.screenshot(os.path.join(ARTIFACTS, "big-card.png"))
            app.press(card, "approve")
            assert app.wait_finished() == "completed"
            assert os.path.getsize(os.path.join(app.workspace, "big.txt")) == 5_000_000
    finally:
        os.unlink(path)


def test_tray_lists_the_approval_opens_its_card_and_quit_records_shutdown():
    with App("tray", "write-hello.json") as app:
        app.start_task("Please greet me in a file")
        card = app.card()
        approval_id = app.wd.attr(card, "data-approval-id")
        label = "Review: Create the file hello.txt (2 lines)"
        wait_for("the tray item", lambda: label in tray().get("labels", []))
        tray("click", label)
        wait_for("the card to get the focus", lambda: app.wd.execute(
            "return document.activeElement && document.activeElement.getAttribute('data-approval-id')") == approval_id)
        tray("click", "Quit")
        wait_for("the app to quit", lambda: subprocess.run(["pgrep", "-f", APP], capture_output=True).returncode != 0, timeout=20)
        logs = [os.path.join(app.data, "sessions", f) for f in os.listdir(os.path.join(app.data, "sessions"))]
        records = [json.loads(line) for path in logs for line in open(path, encoding="utf-8") if line.strip()]
        decided = [r for r in records if r["type"] == "approval_decided" and r["approval_id"] == approval_id]
        assert [d["outcome"] for d in decided] == [{"kind": "cancelled", "cause": "app_shutdown"}], decided
        assert not os.path.exists(os.path.join(app.workspace, "hello.txt"))
        with open(os.path.join(app.data, "window.json"), encoding="utf-8") as f:
            size = json.load(f)
        assert size["width"] >= 560 and size["height"] >= 480, size


def test_settings_choose_a_provider_and_sessions_reopen():
    server = subprocess.Popen([PYTHON, os.path.join(HERE, "fake_openai.py")], stdout=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().strip()
        with App("settings", None, {}) as app:
            app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
            select = wait_for("the settings", lambda: app.wd.find_all('[data-testid="settings-provider"]'))[0]
            app.wd.execute("const s = arguments[0]; s.value = 'openai'; s.dispatchEvent(new Event('change'));", {ELEMENT: select})
            url = wait_for("the address box", lambda: app.wd.find_all('[data-testid="settings-base-url"]'))[0]
            app.wd.type(url, f"http://127.0.0.1:{port}/v1")
            app.wd.type(app.wd.find_all('[data-testid="settings-model"]')[0], "e2e-model")
            app.wd.type(app.wd.find_all('[data-testid="settings-api-key"]')[0], "sk-e2e")
            app.wd.click(app.wd.find_all('[data-testid="settings-save"]')[0])
            wait_for("saved", lambda: app.wd.find_all('[data-testid="settings-saved"]'))
            settings_file = os.path.join(app.data, "settings.json")
            assert oct(os.stat(settings_file).st_mode & 0o777) == "0o600"
            app.wd.screenshot(os.path.join(ARTIFACTS, "settings.png"))
            app.start_task("Write down that I need milk")
            card = app.card()
            app.press(card, "approve")
            assert app.wait_finished() == "completed"
            for name in os.listdir(os.path.join(app.data, "sessions")):
                with open(os.path.join(app.data, "sessions", name), encoding="utf-8") as f:
                    assert "sk-e2e" not in f.read(), "the key must never reach a session log"
            # A new session starts empty; the old one reopens with its transcript.
            app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
            app.wd.click(wait_for("new session", lambda: app.wd.find_all('[data-testid="new-session"]'))[0])
            # The panel closes when new_session answers and the transcript empties when its
            # session_opened event comes, in either order; a click on Sessions while the panel
            # is still open would close it instead of opening it.
            wait_for("an empty transcript and the sessions panel closed",
                     lambda: not app.wd.find_all('[data-testid="assistant-message"]')
                     and not app.wd.find_all('[data-testid="sessions-panel"]'))
            app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
            opener = wait_for("the old session", lambda: app.wd.find_all('[data-testid="open-session"]'))[0]
            app.wd.click(opener)
            # The old session's events are replayed one by one: wait for the last of them.
            def replayed():
                messages = [app.wd.text(m) for m in app.wd.find_all('[data-testid="assistant-message"]')]
                if messages and messages[-1].endswith("Done. The tool said: Wrote 9 bytes to notes.txt."):
                    return messages
                return None
            messages = wait_for("the whole old transcript", replayed)
            assert len(messages) == 2, messages
            assert app.run_status() == "completed", app.run_status()
    finally:
        server.kill()


def test_parallel_cards_answered_out_of_order():
    before = len(notifications())
    with App("parallel", "two-writes.json") as app:
        app.start_task("Write two files")
        cards = wait_for("two cards", lambda: (lambda c: c if len(c) == 2 else None)(
            app.wd.find_all('[data-testid="approval-card"]')))
        summaries = [app.card_field(c, "approval-summary") for c in cards]
        assert summaries == ["Create the file one.txt (1 line)", "Create the file two.txt (1 line)"], summaries
        # One notification each, in the order the cards came.
        notes = wait_for("two notifications", lambda: (lambda n: n if len(n) >= 2 else None)(
            [n for n in notifications()[before:] if n.get("method", "Notify") == "Notify"]))
        assert [n["body"] for n in notes] == summaries, notes
        app.wd.screenshot(os.path.join(ARTIFACTS, "parallel-cards.png"))
        second_id = app.wd.attr(cards[1], "data-approval-id")
        app.press(cards[1], "deny")
        wait_for("the second card to go", lambda: not app.wd.find_all(f'[data-approval-id="{second_id}"]'))
        assert len(app.wd.find_all('[data-testid="approval-card"]')) == 1
        app.press(app.wd.find_all('[data-testid="approval-card"]')[0], "approve")
        assert app.wait_finished() == "completed"
        assert os.path.exists(os.path.join(app.workspace, "one.txt"))
        assert not os.path.exists(os.path.join(app.workspace, "two.txt"))
        states = [app.wd.attr(c, "data-state") for c in app.wd.find_all('[data-testid="tool-call"]')]
        assert states == ["succeeded", "denied"], states


def test_answering_one_card_gives_a_card_running_late_more_time():
    with App("extend", "two-writes.json", {"ASKFIRST_APPROVAL_TIMEOUT_SECS": "10"}) as app:
        app.start_task("Write two files")
        cards = wait_for("two cards", lambda: (lambda c: c if len(c) == 2 else None)(
            app.wd.find_all('[data-testid="approval-card"]')))
        shown_at = time.monotonic()
        first_id, second_id = (app.wd.attr(c, "data-approval-id") for c in cards)
        expiry = lambda: app.wd.execute(
            "return [...document.querySelectorAll('[data-testid=\"approval-card\"]')]"
            ".find(c => c.dataset.approvalId === arguments[0])?.querySelector('.countdown')?.textContent.trim()",
            second_id)
        # Less than half of the 10 s left: answering the first card gives the second 10 s again.
        time.sleep(max(0.0, 5.6 - (time.monotonic() - shown_at)))
        app.press(cards[0], "approve")
        answered_at = time.monotonic()
        wait_for("the first card to go", lambda: not app.wd.find_all(f'[data-approval-id="{first_id}"]'))
        said = wait_for("the longer countdown", lambda: (lambda t: t if t and ("0:09" in t or "0:10" in t) else None)(expiry()))
        print(f"  second card after the answer: {said!r}", flush=True)
        # Past its first deadline (10 s after it appeared) it still waits…
        time.sleep(max(0.0, 11.0 - (time.monotonic() - shown_at)))
        assert app.wd.find_all(f'[data-approval-id="{second_id}"]'), "timed out at its first deadline"
        # …and times out a whole timeout after the answer.
        wait_for("the second card to time out", lambda: not app.wd.find_all(f'[data-approval-id="{second_id}"]'), timeout=15)
        figure_s = round(time.monotonic() - answered_at, 1)
        print(f"  timed out {figure_s} s after the answer", flush=True)
        assert figure_s >= 9, figure_s
        assert app.wait_finished() == "completed"
        states = [app.wd.attr(c, "data-state") for c in app.wd.find_all('[data-testid="tool-call"]')]
        assert states == ["succeeded", "denied"], states


def test_no_answer_times_out_and_stop_cancels_a_waiting_card():
    with App("timeout", "write-hello.json", {"ASKFIRST_APPROVAL_TIMEOUT_SECS": "2"}) as app:
        app.start_task("Please greet me in a file")
        app.card()
        wait_for("the card to time out", lambda: not app.wd.find_all('[data-testid="approval-card"]'), timeout=15)
        assert app.wait_finished() == "completed"
        calls = app.wd.find_all('[data-testid="tool-call"]')
        assert [app.wd.attr(c, "data-state") for c in calls] == ["denied"]
        assert "did not answer" in app.wd.text(calls[0]), app.wd.text(calls[0])
        assert not os.path.exists(os.path.join(app.workspace, "hello.txt"))
    with App("stop", "write-hello.json") as app:
        app.start_task("Please greet me in a file")
        app.card()
        app.wd.click(app.wd.find_all('[data-testid="cancel-run"]')[0])
        wait_for("the card to go", lambda: not app.wd.find_all('[data-testid="approval-card"]'))
        assert app.wait_finished() == "cancelled"
        assert not os.path.exists(os.path.join(app.workspace, "hello.txt"))


def test_a_rule_allows_without_asking_and_can_be_removed_in_settings():
    app = App("rules", "write-hello.json")
    os.makedirs(app.data)
    with open(os.path.join(app.data, "rules.toml"), "w", encoding="utf-8") as f:
        f.write('[[allow]]\ntool = "write_file"\nmatch = "hello.txt"\n')
    with app:
        app.start_task("Please greet me in a file")
        assert app.wait_finished() == "completed"
        assert not app.wd.find_all('[data-testid="approval-card"]')
        assert os.path.exists(os.path.join(app.workspace, "hello.txt"))
        text = app.wd.text(app.wd.find_all('[data-testid="tool-call"]')[0])
        assert "allowed by your rules" in text, text
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        rule = wait_for("the rule", lambda: app.wd.find_all('[data-testid="rule"]'))[0]
        assert 'allow write_file "hello.txt"' in app.wd.text(rule)
        app.wd.click(app.wd.find_all('[data-testid="remove-rule"]')[0])
        wait_for("the rule to go", lambda: not app.wd.find_all('[data-testid="rule"]'))
        with open(os.path.join(app.data, "rules.toml"), encoding="utf-8") as f:
            assert "hello.txt" not in f.read()


def test_a_late_click_after_the_timeout_says_it_was_too_late():
    with App("late-click", "write-hello.json", {"ASKFIRST_APPROVAL_TIMEOUT_SECS": "3"}) as app:
        app.start_task("Please greet me in a file")
        card = app.card()
        button = app.wd.find_in(card, '[data-testid="approve"]')[0]
        wait_for("Approve to be armed", lambda: armed(app.wd, button))
        # The person clicks just after the deadline, while the timeout's approval-resolved is
        # still on its way: the page is kept busy past the deadline so the event waits behind
        # the click (the page runs one task at a time), as on a slow machine.
        app.wd.execute("""
            const card = arguments[0];
            const id = card.getAttribute('data-approval-id');
            return window.__TAURI_INTERNALS__.invoke('list_pending_approvals').then((pending) => {
              const expires = pending.find((p) => p.approval_id === id).expires_at;
              while (Date.now() < expires + 700) {}
              card.querySelector('[data-testid="approve"]').click();
            });""", {ELEMENT: card})
        # The click's not_pending answer and the timeout's approval-resolved may come in
        # either order: the first gives a general notice, the second says exactly what ended it.
        notice = wait_for("the card to say it had timed out", lambda: [
            n for n in app.wd.find_in(card, ".notice")
            if "Too late: this request had already timed out" in app.wd.text(n)])[0]
        text = app.wd.text(notice)
        assert "did not run" in text, text
        app.wd.screenshot(os.path.join(ARTIFACTS, "late-click.png"))
        wait_for("the card to go", lambda: not app.wd.find_all('[data-testid="approval-card"]'), timeout=10)
        assert app.wait_finished() == "completed"
        calls = app.wd.find_all('[data-testid="tool-call"]')
        assert [app.wd.attr(c, "data-state") for c in calls] == ["denied"]
        assert not os.path.exists(os.path.join(app.workspace, "hello.txt"))
        logs = [os.path.join(app.data, "sessions", f) for f in os.listdir(os.path.join(app.data, "sessions"))]
        records = [json.loads(line) for path in logs for line in open(path, encoding="utf-8") if line.strip()]
        decided = [r["outcome"] for r in records if r["type"] == "approval_decided"]
        assert decided == [{"kind": "denied", "source": "timeout"}], decided


def test_closed_to_the_tray_it_notifies_and_the_tray_item_brings_the_card_back():
    # The model "thinks" long enough for the window to be hidden before the card comes, even
    # when the first closes are lost (see hide_by_closing) on a loaded machine.
    think_ms = 8000
    scenario = scenario_file([
        {"say": "Let me think about it.", "delay_ms": think_ms, "tool_calls": [
            {"name": "write_file", "arguments": {"path": "hello.txt", "content": "Hello\n"}}]},
        {"say": "Done."},
    ])
    # Notifications only when the window is in the background: the default.
    with App("hidden", scenario, {"ASKFIRST_NOTIFY": "unfocused"}) as app:
        before = len(notifications())
        started = time.monotonic()
        app.start_task("Please greet me in a file")
        hide_by_closing()
        took = time.monotonic() - started
        assert took < think_ms / 1000, f"hiding took {took:.1f}s: the card may have come while the window showed"
        seen = wait_for("two notifications", lambda: (lambda n: n if len(n) >= 2 else None)(notifications()[before:]))
        assert seen[0]["summary"] == "Ask First is still running", seen
        assert [n["app_name"] for n in seen[:2]] == ["Ask First", "Ask First"], seen
        assert "tray" in seen[0]["body"], seen
        assert seen[1]["summary"] == "Ask First needs your OK", seen
        assert seen[1]["body"] == "Create the file hello.txt (1 line)", seen
        assert "default" in seen[1]["actions"], seen[1]
        # The run went on while the window was hidden; the tray lists what waits.
        label = "Review: Create the file hello.txt (1 line)"
        menu = wait_for("the tray item", lambda: (lambda t: t if label in t.get("labels", []) else None)(tray()))
        assert "1 approval waiting" in menu["labels"], menu
        tray("click", label)
        wait_for("the window to come back", window_viewable)
        card = app.card()
        approval_id = app.wd.attr(card, "data-approval-id")
        wait_for("the card to get the focus", lambda: app.wd.execute(
            "return document.activeElement && document.activeElement.getAttribute('data-approval-id')") == approval_id)
        app.wd.screenshot(os.path.join(ARTIFACTS, "back-from-tray.png"))
        # Hidden again, a click on the notification brings the window back at the card.
        hide_by_closing()
        app.wd.execute("document.activeElement && document.activeElement.blur()")
        click_notification(seen[1]["id"])
        wait_for("the window to come back", window_viewable)
        wait_for("the card to get the focus", lambda: app.wd.execute(
            "return document.activeElement && document.activeElement.getAttribute('data-approval-id')") == approval_id)
        app.press(card, "approve")
        assert app.wait_finished() == "completed"
        # Answered: its notification is closed, so nothing says it still needs an OK.
        wait_for("the notification to close", lambda: seen[1]["id"] in closed_notifications())
        with open(os.path.join(app.workspace, "hello.txt"), encoding="utf-8") as f:
            assert f.read() == "Hello\n"
        # Closing again (a third time) does not repeat the "still running" notice.
        count = len(notifications())
        hide_by_closing()
        time.sleep(1)
        assert len(notifications()) == count, notifications()[count:]


def test_an_mcp_server_added_in_settings_is_used_by_the_next_task():
    program = os.path.join(ROOT, "tests", "mcp", "node_modules", ".bin", "mcp-server-everything")
    assert os.path.exists(program), f"{program} is missing: run npm ci in tests/mcp"
    scenario = scenario_file([
        {"say": "Asking the new server.", "tool_calls": [
            {"name": "everything__echo", "arguments": {"message": "hello from MCP"}}]},
        {"say": "Done."},
    ])
    with App("mcp", scenario) as app:
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        app.wd.click(wait_for("Add an MCP server", lambda: app.wd.find_all('[data-testid="mcp-add"]'))[0])
        app.wd.type(wait_for("the form", lambda: app.wd.find_all('[data-testid="mcp-name"]'))[0], "everything")
        app.wd.type(app.wd.find_all('[data-testid="mcp-command"]')[0], f"'{program}' stdio")
        app.wd.click(app.wd.find_all('[data-testid="mcp-env-add"]')[0])
        app.wd.type(wait_for("a variable row", lambda: app.wd.find_all('[data-testid="mcp-env-name"]'))[0], "E2E_TOKEN")
        app.wd.type(app.wd.find_all('[data-testid="mcp-env-value"]')[0], "tok-123")
        app.wd.click(app.wd.find_all('[data-testid="mcp-save"]')[0])
        server = wait_for("the server listed", lambda: app.wd.find_all('[data-testid="mcp-server"]'))[0]
        text = app.wd.text(server)
        assert "everything" in text and "stdio" in text and "E2E_TOKEN" in text, text
        assert "tok-123" not in app.wd.execute("return document.body.innerText")
        app.wd.screenshot(os.path.join(ARTIFACTS, "mcp-settings.png"))
        with open(os.path.join(app.data, "settings.json"), encoding="utf-8") as f:
            saved = json.load(f)["mcp_servers"]
        assert saved == [{"name": "everything", "command": program, "args": ["stdio"],
                          "env": {"E2E_TOKEN": "tok-123"}, "trusted": False}], saved
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])  # close the panel

        app.start_task("Say hello through the server")
        card = app.card()
        assert "everything" in app.wd.text(card), app.wd.text(card)
        app.press(card, "approve")
        assert app.wait_finished() == "completed"
        call = app.wd.find_all('[data-testid="tool-call"]')[0]
        assert app.wd.attr(call, "data-state") == "succeeded"
        logs = [os.path.join(app.data, "sessions", f) for f in os.listdir(os.path.join(app.data, "sessions"))]
        assert any("Echo: hello from MCP" in open(path, encoding="utf-8").read() for path in logs), \
            "the server's answer reached the agent"

        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        status = wait_for("the status", lambda: app.wd.find_all('[data-testid="mcp-status"]'))[0]
        assert app.wd.text(status).startswith("Running,"), app.wd.text(status)
        app.wd.click(app.wd.find_all('[data-testid="mcp-remove"]')[0])
        app.wd.click(wait_for("confirm", lambda: app.wd.find_all('[data-testid="mcp-remove-confirm"]'))[0])
        wait_for("the server to go", lambda: not app.wd.find_all('[data-testid="mcp-server"]'))
        with open(os.path.join(app.data, "settings.json"), encoding="utf-8") as f:
            assert "mcp_servers" not in json.load(f)


TAB, ENTER, SPACE = "\uE004", "\uE007", " "


def audit(app, where):
    """Runs the accessibility audit (a11y_audit.js) and fails with what it found."""
    with open(os.path.join(HERE, "a11y_audit.js"), encoding="utf-8") as f:
        script = "const found = " + f.read().strip().rstrip(";") + ";\nreturn found;"
    found = app.wd.execute(script)
    assert found["checked"] > 0, f"{where}: no text checked"
    assert not found["contrast"], f"{where}: text below WCAG AA contrast: {json.dumps(found['contrast'], indent=1)}"
    assert not found["unnamed"], f"{where}: controls without a name: {found['unnamed']}"
    return found["checked"]


FOCUS_PROBE = """
const el = document.activeElement;
if (!el || el === document.body) return null;
const s = getComputedStyle(el);
const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
  .reduce((acc, v, i) => acc + v * [0.2126, 0.7152, 0.0722][i], 0);
let bg = [255, 255, 255];
for (let n = el.parentElement; n; n = n.parentElement) {
  const c = parse(getComputedStyle(n).backgroundColor);
  if (c.length >= 3 && (c.length < 4 || c[3] === 1)) { bg = c; break; }
}
const ring = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
const oc = parse(s.outlineColor);
const [a, b] = [lum(oc), lum(bg)].sort((x, y) => y - x);
return {
  testid: el.getAttribute('data-testid') || '',
  tag: el.tagName.toLowerCase(),
  text: (el.getAttribute('aria-label') || el.textContent || el.value || '').trim().slice(0, 40),
  card: el.closest('[data-approval-id]')?.getAttribute('data-approval-id') || '',
  ring, ringContrast: Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100,
  outline: s.outlineStyle + ' ' + s.outlineWidth + ' ' + s.outlineColor,
};
"""


def test_accessibility_contrast_names_and_keyboard():
    scenario = scenario_file([
        {"say": "Looking first.", "tool_calls": [{"name": "list_directory", "arguments": {"path": "."}}]},
        {"say": "Three changes, each needs your OK.", "tool_calls": [
            {"name": "write_file", "arguments": {"path": "notes.txt", "content": "milk\n"}},
            {"name": "run_command", "arguments": {"command": "echo hi > hi.txt"}},
            {"name": "delete_path", "arguments": {"path": "old.txt"}}]},
        {"say": "Done."},
    ])
    app = App("a11y", scenario)
    with open(os.path.join(app.workspace, "old.txt"), "w") as f:
        f.write("old\n")
    with app:
        audit(app, "the empty window")
        # The audit can fail: pale text, then a nameless button, put in the page are caught.
        # (Colour set through the CSSOM: the page's CSP refuses inline style attributes.)
        for html, expected in (("<p>pale</p>", "below WCAG AA"),
                               ("<button></button>", "without a name")):
            app.wd.execute("const d = document.createElement('div'); d.id = 'a11y-probe';"
                           "d.innerHTML = arguments[0]; d.style.color = '#aaaaaa';"
                           "document.body.appendChild(d);", html)
            try:
                audit(app, "a page with a probe")
                raise AssertionError(f"the audit missed {html}")
            except AssertionError as e:
                assert expected in str(e), e
            app.wd.execute("document.getElementById('a11y-probe').remove()")
        # Keyboard only: type the task and start it with Ctrl+Enter; the focus stays in the box.
        box = app.wd.find_all('[data-testid="task-input"]')[0]
        app.wd.type(box, "Tidy up")
        app.wd.chord("\uE009", ENTER)
        wait_for("the run to start", lambda: app.run_status() == "running")
        assert app.wd.execute("return document.activeElement.getAttribute('data-testid')") == "task-input"
        cards = wait_for("three cards", lambda: (lambda c: c if len(c) == 3 else None)(
            app.wd.find_all('[data-testid="approval-card"]')))
        risks = sorted(app.wd.text(app.wd.find_in(c, '[data-testid="approval-risk"]')[0]) for c in cards)
        assert risks == ["High risk", "High risk", "Medium risk"], risks
        commands = [app.wd.text(el) for c in cards for el in app.wd.find_in(c, '[data-testid="approval-command"]')]
        assert commands == ["echo hi > hi.txt"], commands
        # Screen readers: each card is named by its summary; the newest request is announced.
        names = app.wd.execute("""return [...document.querySelectorAll('[data-testid="approval-card"]')].map(
            (c) => document.getElementById(c.getAttribute('aria-labelledby')).textContent.trim());""")
        assert sorted(names) == sorted(app.card_field(c, "approval-summary") for c in cards), names
        announced = app.wd.execute(
            "return document.querySelector('[data-testid=approval-announcer]').textContent.replace(/\\s+/g, ' ').trim()")
        assert announced.startswith("Ask First needs your OK (3 waiting):"), announced
        wait_for("the cards to arm", lambda: all(
            armed(app.wd, app.wd.find_in(c, '[data-testid="approve"]')[0]) for c in cards))
        audit(app, "three waiting cards")
        app.wd.screenshot(os.path.join(ARTIFACTS, "a11y-cards.png"))

        # Keyboard only from the task box: every focus stop shows a ring that stands out (3:1,
        # WCAG 2.1 SC 1.4.11), and each card's buttons are reached.
        app.wd.click(app.wd.find_all('[data-testid="task-input"]')[0])
        stops = []
        for _ in range(80):
            app.wd.key(TAB)
            stop = app.wd.execute(FOCUS_PROBE)
            if stop:
                stops.append(stop)
        reached_ids = {f["testid"] for f in stops}
        assert {"settings", "sessions", "task-input", "cancel-run"} <= reached_ids, reached_ids
        weak = [f for f in stops if not f["ring"] or f["ringContrast"] < 3]
        assert not weak, f"focus not visible enough: {json.dumps(weak, indent=1)}"
        ids = {app.wd.attr(c, "data-approval-id") for c in cards}
        for testid in ("approve", "deny"):
            reached = {f["card"] for f in stops if f["testid"] == testid}
            assert ids <= reached, f"{testid} not reached by Tab on every card: {stops}"

        # Answer by keyboard: Enter approves the write, Space denies the other two.
        def focus_button(card, testid):
            button = app.wd.find_in(card, f'[data-testid="{testid}"]')[0]
            # A card that moved up re-arms first (double-click safety).
            wait_for(f"{testid} to be armed", lambda: armed(app.wd, button))
            app.wd.execute("arguments[0].focus()", {ELEMENT: button})
        def gone(card_id):
            # The cards below an answered one move up when it leaves and re-arm: wait for it to
            # leave before aiming at the next, or the key may land on a button just disarmed.
            wait_for("the answered card to go", lambda: not app.wd.find_all(f'[data-approval-id="{card_id}"]'))
        by_tool = {app.wd.text(app.wd.find_in(c, '[data-testid="approval-tool"]')[0]): c for c in cards}
        id_of = {tool: app.wd.attr(c, "data-approval-id") for tool, c in by_tool.items()}
        focus_button(by_tool["write_file"], "approve")
        app.wd.key(ENTER)
        gone(id_of["write_file"])
        # The focus is not dropped to the page with the answered card: it is on the card that
        # took its place.
        focused = wait_for("the focus on the next card", lambda: app.wd.execute(
            "const a = document.activeElement; return a && a.getAttribute('data-testid') === 'approval-card'"
            " && a.getAttribute('data-approval-id')"))
        assert focused in (id_of["run_command"], id_of["delete_path"]), focused
        # Tab goes on into that card's buttons while they re-arm (unavailable but still in the
        # Tab order), not past them to the next card.
        inside = []
        for _ in range(8):
            app.wd.key(TAB)
            stop = app.wd.execute(
                "const a = document.activeElement, c = a && a.closest('[data-testid=\"approval-card\"]');"
                " return c ? [c.getAttribute('data-approval-id'), a.getAttribute('data-testid'),"
                " a.getAttribute('aria-disabled')] : null")
            if not stop or stop[0] != focused:
                break
            inside.append(stop[1:])
        print(f"  Tab stops in the next card right after answering: {inside}", flush=True)
        reached = [testid for testid, _ in inside]
        assert "deny" in reached and "approve" in reached, inside
        for tool in ("run_command", "delete_path"):
            focus_button(by_tool[tool], "deny")
            app.wd.key(SPACE)
            gone(id_of[tool])
        assert app.wait_finished() == "completed"
        assert os.path.exists(os.path.join(app.workspace, "notes.txt"))
        assert not os.path.exists(os.path.join(app.workspace, "hi.txt"))
        assert os.path.exists(os.path.join(app.workspace, "old.txt"))
        states = [app.wd.attr(c, "data-state") for c in app.wd.find_all('[data-testid="tool-call"]')]
        assert states == ["succeeded", "succeeded", "denied", "denied"], states
        audit(app, "the finished transcript")

        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        wait_for("the settings", lambda: app.wd.find_all('[data-testid="settings-panel"]'))
        app.wd.click(wait_for("Add an MCP server", lambda: app.wd.find_all('[data-testid="mcp-add"]'))[0])
        app.wd.click(wait_for("Add a variable", lambda: app.wd.find_all('[data-testid="mcp-env-add"]'))[0])
        audit(app, "the settings with the MCP form")
        app.wd.screenshot(os.path.join(ARTIFACTS, "a11y-settings.png"))
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
        wait_for("the sessions", lambda: app.wd.find_all('[data-testid="sessions-panel"]'))
        audit(app, "the sessions list")


def test_a_second_launch_brings_the_window_back_and_leaves_the_waiting_card_alone():
    with App("second", "write-hello.json") as app:
        app.start_task("Please greet me in a file")
        card = app.card()
        approval_id = app.wd.attr(card, "data-approval-id")
        hide_by_closing()
        sessions_before = sorted(os.listdir(os.path.join(app.data, "sessions")))
        env = dict(os.environ, ASKFIRST_DATA_DIR=app.data, ASKFIRST_WORKSPACE=app.workspace)
        second = subprocess.run([APP], env=env, capture_output=True, text=True, timeout=60)
        assert second.returncode == 0, second.stderr
        wait_for("the window to come back", window_viewable)
        # The second launch touched nothing: no new session, no record about the waiting card.
        assert sorted(os.listdir(os.path.join(app.data, "sessions"))) == sessions_before
        records = [json.loads(line) for name in sessions_before
                   for line in open(os.path.join(app.data, "sessions", name), encoding="utf-8")]
        assert not [r for r in records if r["type"] == "approval_decided"], records
        app.press(card, "approve")
        assert app.wait_finished() == "completed"
        records = [json.loads(line) for name in sessions_before
                   for line in open(os.path.join(app.data, "sessions", name), encoding="utf-8")]
        decided = [r["outcome"] for r in records
                   if r["type"] == "approval_decided" and r["approval_id"] == approval_id]
        assert decided == [{"kind": "approved", "scope": "once", "source": "user"}], decided
        assert os.path.exists(os.path.join(app.workspace, "hello.txt"))


def double_click_the_first_of_two_cards(name, second_below_the_fold, gap_ms=300):
    """Double-clicks Approve on the first of two cards (gap_ms between the clicks, the pointer
    still): only the first may be answered."""
    with App(name, "two-writes.json") as app:
        app.start_task("Write two files")
        cards = wait_for("two cards", lambda: (lambda c: c if len(c) == 2 else None)(
            app.wd.find_all('[data-testid="approval-card"]')))
        buttons = [app.wd.find_in(c, '[data-testid="approve"]')[0] for c in cards]
        wait_for("both cards to arm", lambda: all(armed(app.wd, b) for b in buttons))
        if second_below_the_fold:
            # Push the second card below the bottom of the window (as a tall first card would).
            below = app.wd.execute("""
                const [first, second] = arguments;
                first.style.marginBottom = (window.innerHeight + 200) + 'px';
                return second.getBoundingClientRect().top > window.innerHeight;""",
                {ELEMENT: cards[0]}, {ELEMENT: cards[1]})
            assert below, "the second card should start off screen"
            time.sleep(0.3)  # let the page note that it is off screen
        first_id = app.wd.attr(cards[0], "data-approval-id")
        second_id = app.wd.attr(cards[1], "data-approval-id")
        # The second click comes after the first card has gone and the second slid up under
        # the pointer: it must find that card not armed yet.
        app.wd.click_twice(buttons[0], gap_ms)
        wait_for("one.txt", lambda: os.path.exists(os.path.join(app.workspace, "one.txt")))
        # The file is written after the approval's approval-resolved left, but the page may
        # take it in later (a loaded machine): wait for the first card to go.
        wait_for("the first card to go", lambda: not app.wd.find_all(f'[data-approval-id="{first_id}"]'))
        time.sleep(1)
        left = app.wd.find_all('[data-testid="approval-card"]')
        assert [app.wd.attr(c, "data-approval-id") for c in left] == [second_id], "the second card was answered"
        assert not os.path.exists(os.path.join(app.workspace, "two.txt"))
        app.press(left[0], "deny")
        assert app.wait_finished() == "completed"
        # However late a stray second click would have landed, the deny is what answered it.
        assert not os.path.exists(os.path.join(app.workspace, "two.txt"))
        records = [json.loads(line) for name in os.listdir(os.path.join(app.data, "sessions"))
                   for line in open(os.path.join(app.data, "sessions", name), encoding="utf-8") if line.strip()]
        decided = [r["outcome"] for r in records if r["type"] == "approval_decided" and r["approval_id"] == second_id]
        assert decided == [{"kind": "denied", "source": "user"}], decided


def test_a_double_click_answers_only_the_card_it_was_aimed_at():
    double_click_the_first_of_two_cards("double-click", second_below_the_fold=False)


def test_a_slow_double_click_answers_only_the_card_it_was_aimed_at():
    # 900 ms between the clicks: longer than the usual arming delay (600 ms), as some people
    # double-click; the pointer has not moved, so the card that slid under it waits longer.
    double_click_the_first_of_two_cards("slow-double-click", second_below_the_fold=False, gap_ms=900)


def test_a_card_sliding_up_from_below_the_fold_is_not_armed_either():
    # Cards off screen do not re-arm when they move (so answering the top one of 1,000 stays
    # cheap); one that comes onto the screen because it moved must still re-arm.
    double_click_the_first_of_two_cards("double-click-fold", second_below_the_fold=True)


def test_a_broken_settings_file_opens_the_window_and_says_so():
    app = App("broken-settings", "write-hello.json")
    os.makedirs(app.data)
    with open(os.path.join(app.data, "settings.json"), "w", encoding="utf-8") as f:
        f.write('{"provider": "openai", "model": ')  # cut off mid-way
    with app:
        banner = wait_for("the banner", lambda: app.wd.find_all('[data-testid="settings-error"]'))[0]
        text = app.wd.text(banner)
        assert "Your settings file has a mistake" in text and "settings.json" in text, text
        app.wd.screenshot(os.path.join(ARTIFACTS, "broken-settings.png"))
        app.start_task("Please greet me in a file")
        app.press(app.card(), "approve")
        assert app.wait_finished() == "completed"
        with open(os.path.join(app.data, "settings.json"), encoding="utf-8") as f:
            assert f.read() == '{"provider": "openai", "model": ', "the file was left for the person to fix"


TESTS = [test_approve_writes_the_file, test_deny_leaves_no_file_and_the_run_finishes,
         test_reload_keeps_the_card_and_the_transcript,
         test_allow_for_this_session_covers_exactly_the_same_call,
         test_refuse_every_change_denies_without_a_card,
         test_openai_provider_streams_asks_and_answers,
         test_hostile_arguments_are_shown_as_text_and_nothing_runs_in_the_page,
         test_every_diff_line_shows_whatever_it_starts_with,
         test_a_5_mb_argument_keeps_the_card_usable,
         test_tray_lists_the_approval_opens_its_card_and_quit_records_shutdown,
         test_settings_choose_a_provider_and_sessions_reopen,
         test_parallel_cards_answered_out_of_order,
         test_no_answer_times_out_and_stop_cancels_a_waiting_card,
         test_answering_one_card_gives_a_card_running_late_more_time,
         test_a_rule_allows_without_asking_and_can_be_removed_in_settings,
         test_a_late_click_after_the_timeout_says_it_was_too_late,
         test_closed_to_the_tray_it_notifies_and_the_tray_item_brings_the_card_back,
         test_an_mcp_server_added_in_settings_is_used_by_the_next_task,
         test_accessibility_contrast_names_and_keyboard,
         test_a_second_launch_brings_the_window_back_and_leaves_the_waiting_card_alone,
         test_a_double_click_answers_only_the_card_it_was_aimed_at,
         test_a_slow_double_click_answers_only_the_card_it_was_aimed_at,
         test_a_card_sliding_up_from_below_the_fold_is_not_armed_either,
         test_a_broken_settings_file_opens_the_window_and_says_so]

# The promise's attacks in the real window (tests/e2e/promise.py).
import promise  # noqa: E402
TESTS += promise.tests(sys.modules[__name__])


def main():
    os.makedirs(ARTIFACTS, exist_ok=True)
    only = os.environ.get("ASKFIRST_E2E_ONLY", "")
    results = [run_test("e2e", test) for test in TESTS
               if not only or any(part in test.__name__ for part in only.split(","))]
    return summarize(results)


# How often a failed test is run again, in a fresh app, before it counts as failed (as
# Playwright's `retries` on CI): a window driven under Xvfb without a window manager now and
# then loses an event. A pass on a retry is reported as flaky, with the first failure in full.
RETRIES = int(os.environ.get("ASKFIRST_E2E_RETRIES", "1"))


def run_test(suite, test, on_pass=None):
    """Runs `test` (and again up to RETRIES times after a failure); prints its outcome and
    returns "ok", "flaky" (passed on a retry) or "failed"."""
    for attempt in range(RETRIES + 1):
        start = time.monotonic()
        try:
            test()
        except Exception:
            last = attempt == RETRIES
            print(f"{suite} {test.__name__} ... FAILED{'' if last else ' (trying once more)'}", flush=True)
            traceback.print_exc()
            if last:
                return "failed"
            continue
        took = time.monotonic() - start
        if on_pass:
            on_pass(test, took)
        flaky = f" -- FLAKY: passed on try {attempt + 1}, see the failure above" if attempt else ""
        print(f"{suite} {test.__name__} ... ok ({took:.1f}s){flaky}", flush=True)
        return "flaky" if attempt else "ok"
    return "failed"


def summarize(results):
    passed = sum(r != "failed" for r in results)
    flaky = sum(r == "flaky" for r in results)
    print(f"{passed} passed, {len(results) - passed} failed"
          + (f" ({flaky} flaky: passed only on a second try)" if flaky else ""))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
