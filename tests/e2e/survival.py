#!/usr/bin/python3
"""Survival tests of the real Ask First window (issue 7), driven over WebDriver like e2e.py.

survival.sh runs this file three times, once per environment (ASKFIRST_SURVIVAL_PART):
  main      kill -9 with approvals waiting and start again; a full and a read-only data folder
            (tmpfs mounts: needs root or CAP_SYS_ADMIN); 30+ hostile inputs through the window
  bare-bus  a session bus without a notification service or a tray host: approve still works
  no-bus    no session bus at all: approve still works

Tests assert what a person would notice (files, cards, messages, the session logs); figures
(times, sizes) are only measured and written to .e2e-artifacts/survival-<part>.json for
BENCHMARKS.md, never asserted. Screenshots of key states go to .e2e-artifacts/survival-*.png.
"""
import http.server
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import e2e  # noqa: E402  (the WebDriver client and the App harness; importing runs nothing)
from e2e import ELEMENT, wait_for  # noqa: E402

# A tool call's transcript states before it ends (data-state).
UNDECIDED = ("queued", "waiting", "approved", "running")

PART = os.environ.get("ASKFIRST_SURVIVAL_PART", "main")
ARTIFACTS = e2e.ARTIFACTS
APP = e2e.APP
FIGURES = {}


def figure(key, value):
    FIGURES[key] = value
    print(f"  figure {key} = {value}", flush=True)


def shot(app, name):
    try:
        app.wd.screenshot(os.path.join(ARTIFACTS, f"survival-{name}.png"))
    except Exception as e:  # a screenshot is an artefact, not a result
        print(f"  (no screenshot {name}: {e})", flush=True)


class SApp(e2e.App):
    """An e2e.App that may reuse a data folder and workspace (to start the app again on the
    same data) and keeps them when `keep` is set."""

    def __init__(self, name, scenario, env=None, data=None, workspace=None):
        self.name = name
        self.tmp = tempfile.mkdtemp(prefix=f"askfirst-survival-{name}-")
        self.data = data or os.path.join(self.tmp, "data")
        self.workspace = workspace or os.path.join(self.tmp, "workspace")
        os.makedirs(self.workspace, exist_ok=True)
        with open(os.environ["ASKFIRST_E2E_ENV"], "w") as f:
            f.write(f"ASKFIRST_DATA_DIR='{self.data}'\n")
            f.write(f"ASKFIRST_WORKSPACE='{self.workspace}'\n")
            if scenario:
                f.write(f"ASKFIRST_PROVIDER='scripted:{os.path.join(HERE, 'scenarios', scenario)}'\n")
            for key, value in (env or {}).items():
                f.write(f"{key}='{value}'\n")
            f.write(f"ASKFIRST_E2E_APP='{APP}'\n")
            f.write("ASKFIRST_NOTIFY='always'\n")
        self.wd = e2e.WebDriver(e2e.DRIVER)

    def stderr(self):
        """What the app (and WebKitWebDriver) wrote to stderr since this app started."""
        return e2e.log_since(self.log_mark)


def app_pid():
    out = subprocess.run(["pgrep", "-o", "-f", "^" + APP], capture_output=True, text=True).stdout.split()
    return int(out[0]) if out else None


def app_gone():
    return app_pid() is None


def scenario_path(name, turns):
    path = os.path.join(tempfile.gettempdir(), f"askfirst-survival-{name}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"turns": turns}, f)
    return path


def write_call(path, content):
    return {"name": "write_file", "arguments": {"path": path, "content": content}}


def text_content(app, element):
    return app.wd.execute("return arguments[0].textContent", {ELEMENT: element})


def tool_calls(app):
    return [(app.wd.attr(c, "data-state"), c) for c in app.wd.find_all('[data-testid="tool-call"]')]


def cards(app):
    return app.wd.find_all('[data-testid="approval-card"]')


def replayed(app, calls):
    """Waits until a reopened session has been replayed to its end and returns the states of
    its tool calls. Its events are replayed one by one (a call shows `queued` before it shows
    how it ended), and every run in it ends with a `run_finished`: so the replay is over once
    at least `calls` calls are shown (the last run's among them) and the run status is final."""
    def done():
        states = [s for s, _ in tool_calls(app)]
        if len(states) >= calls and app.run_status() not in ("idle", "running"):
            return states
        return None
    return wait_for(f"the old transcript, replayed to its end ({calls} calls)", done)


# ---------------------------------------------------------------- session logs

KNOWN_RECORDS = {"approval_asked", "approval_decided", "policy_decided", "grant_created",
                 "grant_revoked", "session_policy_changed", "message", "event", "unrecorded"}


def session_logs(data):
    folder = os.path.join(data, "sessions")
    if not os.path.isdir(folder):
        return {}
    out = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            out[name] = f.read()
    return out


def parse_log(raw):
    """(records, damaged lines as (line number, bytes)). Blank lines are skipped, as the app does."""
    records, damaged = [], []
    for number, line in enumerate(raw.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            damaged.append((number, line))
            continue
        # A line that parses must be one whole record, not two glued together or a fragment.
        assert isinstance(value, dict) and value.get("type") in KNOWN_RECORDS, (number, line[:200])
        records.append(value)
    return records, damaged


def decided(records, approval_id):
    return [r["outcome"] for r in records if r["type"] == "approval_decided" and r["approval_id"] == approval_id]


# ---------------------------------------------------------------- 1. kill -9


def test_kill_9_with_two_cards_waiting_then_start_again():
    first = scenario_path("kill-first", [
        {"say": "First a note.", "tool_calls": [write_call("first.txt", "kept\n")]},
        {"say": "Now two more files.", "tool_calls": [write_call("one.txt", "1\n"), write_call("two.txt", "2\n")]},
        {"say": "Both handled."},
    ])
    second = scenario_path("kill-second", [
        {"say": "Writing after the restart.", "tool_calls": [write_call("after.txt", "after the kill\n")]},
        {"say": "Done after the restart."},
    ])
    keep = tempfile.mkdtemp(prefix="askfirst-survival-kill-")
    data, workspace = os.path.join(keep, "data"), os.path.join(keep, "workspace")
    try:
        app = SApp("kill", first, data=data, workspace=workspace)
        with app:
            app.start_task("Write three files")
            first_card = app.card()
            first_id = app.wd.attr(first_card, "data-approval-id")
            app.press(first_card, "approve")
            # The approved card leaves when its resolution arrives, maybe after the next ones.
            waiting = wait_for("the two next cards", lambda: (lambda c: c if len(c) == 2 else None)(
                [c for c in cards(app) if app.wd.attr(c, "data-approval-id") != first_id]))
            ids = [app.wd.attr(c, "data-approval-id") for c in waiting]
            assert os.path.exists(os.path.join(workspace, "first.txt"))
            shot(app, "kill-before")
            before = session_logs(data)
            assert len(before) == 1, before.keys()
            pid = app_pid()
            killed_at = time.monotonic()
            os.kill(pid, signal.SIGKILL)
            wait_for("the app to die", app_gone, timeout=10)
            after_kill = session_logs(data)
        # Nothing was lost by the kill itself, and nothing half-written: every line parses.
        assert after_kill == before, "the log changed between the snapshot and the kill"
        (name, raw_before), = before.items()
        records, damaged = parse_log(raw_before)
        assert not damaged, damaged
        asked = [r["approval_id"] for r in records if r["type"] == "approval_asked"]
        assert set(ids) <= set(asked), (ids, asked)
        assert all(decided(records, i) == [] for i in ids), ("the waiting ones had no decision yet", [decided(records, i) for i in ids])
        figure("kill_log_lines_before", raw_before.count(b"\n"))
        figure("kill_log_bytes_before", len(raw_before))
        app = SApp("kill-again", second, data=data, workspace=workspace)
        with app:
            figure("kill_restart_to_usable_window_s", round(time.monotonic() - killed_at, 2))
            # No phantom cards: nothing waits after a restart.
            time.sleep(1.0)
            assert not cards(app), "a card from before the kill came back"
            assert app.wd.execute("return document.querySelectorAll('[data-testid=\"approval-card\"]').length") == 0
            now = session_logs(data)
            raw_now = now[name]
            # Every byte written before the kill is still there, in place; the torn line is
            # ended before anything new is written, so nothing is glued to it.
            assert raw_now.startswith(raw_before), "the old log was rewritten"
            records, damaged = parse_log(raw_now)
            assert not damaged, damaged
            for i in ids:
                assert decided(records, i) == [{"kind": "cancelled", "cause": "app_shutdown"}], (i, decided(records, i))
            added = raw_now[len(raw_before):].count(b"\n")
            figure("kill_lines_added_on_restart", added)
            assert added == len(ids), raw_now[len(raw_before):]
            # Reopen the old session: its calls show as stopped by the closing, not waiting.
            app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
            opener = wait_for("the old session", lambda: app.wd.find_all('[data-testid="open-session"]'))[0]
            app.wd.click(opener)
            states = replayed(app, 3)
            assert states == ["succeeded", "cancelled", "cancelled"], states
            texts = [app.wd.text(c) for _, c in tool_calls(app)]
            assert all("The app was closed; this action was not performed." in t for t in texts[1:]), texts
            transcript = app.wd.text(app.wd.find_all('section.transcript')[0])
            assert "Ask First was closed while the agent was working." in transcript, transcript
            assert app.run_status() == "cancelled", app.run_status()
            assert not cards(app)
            shot(app, "kill-reopened")
            # The session goes on: a new task, a card, approve, the file is written.
            app.start_task("Write one more file")
            card = app.card()
            app.press(card, "approve")
            assert app.wait_finished() == "completed"
            with open(os.path.join(workspace, "after.txt"), encoding="utf-8") as f:
                assert f.read() == "after the kill\n"
            assert not os.path.exists(os.path.join(workspace, "one.txt"))
            assert not os.path.exists(os.path.join(workspace, "two.txt"))
            # …in the same session log, which still starts with what was there before the kill.
            raw_end = session_logs(data)[name]
            assert raw_end.startswith(raw_now)
            records, damaged = parse_log(raw_end)
            assert not damaged, damaged
            # The conversation continued: the task after the kill is in the same log.
            tasks = [r["message"].get("text") for r in records if r["type"] == "message" and r["message"].get("role") == "user"]
            assert tasks == ["Write three files", "Write one more file"], tasks
            shot(app, "kill-continued")
            assert "panicked" not in app.stderr()
        # kill -9 cannot tear a record (each is one write(2)); a power cut can. Add the torn
        # start of an *approving* decision for the first card, with no newline, as one would
        # look: it must count for nothing, nothing may be glued to it, and the reopened session
        # no longer claims to be the whole story.
        run_id = next(r["run_id"] for r in records if r["type"] == "approval_asked" and r["approval_id"] == ids[0])
        torn = ('{"type":"approval_decided","approval_id":"%s","run_id":"%s","outcome":{"kind":"appro'
                % (ids[0], run_id)).encode()
        with open(os.path.join(data, "sessions", name), "ab") as f:
            f.write(torn)
        app = SApp("kill-torn", second, data=data, workspace=workspace)
        with app:
            app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
            opener = wait_for("the old session", lambda: app.wd.find_all('[data-testid="open-session"]'))[0]
            app.wd.click(opener)
            states = replayed(app, 4)
            assert len(states) == 4, states
            raw_torn = session_logs(data)[name]
            assert raw_torn == raw_end + torn + b"\n", raw_torn[len(raw_end):]
            records, damaged = parse_log(raw_torn)
            assert [line for _, line in damaged] == [torn], damaged
            for i in ids:
                assert decided(records, i) == [{"kind": "cancelled", "cause": "app_shutdown"}], decided(records, i)
            texts = [app.wd.text(c) for _, c in tool_calls(app)]
            assert all("This action was not performed." in t for t in texts[1:3]), texts
            transcript = app.wd.text(app.wd.find_all('section.transcript')[0])
            assert "Part of this task could not be saved" in transcript, transcript
            # The killed run ends where the next one starts; the last one completed.
            assert transcript.index("could not be saved") < transcript.index("Write one more file"), transcript
            assert app.run_status() == "completed", app.run_status()
            assert not cards(app)
            shot(app, "kill-torn-reopened")
            assert "panicked" not in app.stderr()
    finally:
        shutil.rmtree(keep, ignore_errors=True)


# ---------------------------------------------------------------- 2. full / read-only data folder


def can_mount():
    d = tempfile.mkdtemp(prefix="askfirst-mount-probe-")
    try:
        ok = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", d], capture_output=True).returncode == 0
        if ok:
            subprocess.run(["umount", d], check=False)
        return ok
    finally:
        os.rmdir(d)


class Tmpfs:
    """A small tmpfs mounted for a test; always unmounted (lazily if busy) on exit."""

    def __init__(self, size):
        self.size = size
        self.path = tempfile.mkdtemp(prefix="askfirst-survival-tmpfs-")

    def __enter__(self):
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={self.size},mode=0755", "tmpfs", self.path], check=True)
        return self

    def remount(self, options):
        subprocess.run(["mount", "-o", f"remount,{options}", self.path], check=True)

    def __exit__(self, *exc):
        if subprocess.run(["umount", self.path], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", self.path], check=False)
        os.rmdir(self.path)


def fill(folder):
    """Fills the file system of `folder` to the last byte; returns the filler's path."""
    filler = os.path.join(folder, "filler.bin")
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        for chunk in (65536, 1):
            try:
                while os.write(fd, b"\0" * chunk):
                    pass
            except OSError:
                pass
    finally:
        os.close(fd)
    return filler


def pad_log_page(log, room):
    """tmpfs keeps room in a file's last page after the disk is full: pad the session log with
    blank lines (which every reader skips) until only `room` bytes of that page are left, so the
    next record the app writes fails after `room` bytes, as on a real full disk."""
    page = 4096
    size = os.path.getsize(log)
    want = (size // page) * page + page - room
    if want < size:
        want += page
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, b"\n" * (want - size))
    except OSError:
        pass
    finally:
        os.close(fd)


def one_log(data):
    folder = os.path.join(data, "sessions")
    names = sorted(os.listdir(folder), key=lambda n: os.path.getmtime(os.path.join(folder, n)))
    return os.path.join(folder, names[-1])


def error_text_shown(app):
    """Every error or failed/denied tool output shown in the window, as text."""
    return app.wd.execute("""
        return [...document.querySelectorAll('[role="alert"], .tool-output, .finished, .notice, [data-testid="storage-error"]')]
            .map(e => e.textContent).join('\\n');""")


def test_full_data_folder():
    if not can_mount():
        print("  SKIPPED: cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN)", flush=True)
        FIGURES["full_skipped"] = True
        return
    path = scenario_path("full", [
        {"say": "Writing.", "tool_calls": [write_call("full.txt", "must not be written\n")]},
        {"say": "Finished."},
    ])
    with Tmpfs("2m") as fs:
        data = os.path.join(fs.path, "data")
        app = SApp("full", path, data=data)
        with app:
            # (a) Full between the question and the answer: the answer cannot be recorded.
            app.start_task("Write a file on a full disk")
            card = app.card()
            approval_id = app.wd.attr(card, "data-approval-id")
            log = one_log(data)
            filler = fill(fs.path)
            pad_log_page(log, room=100)
            started = time.monotonic()
            app.press(card, "approve")
            wait_for("the card to go", lambda: not app.wd.find_all(f'[data-approval-id="{approval_id}"]'))
            figure("full_click_to_card_gone_s", round(time.monotonic() - started, 2))
            assert app.wait_finished() in ("completed", "failed")
            assert not os.path.exists(os.path.join(app.workspace, "full.txt")), "ran although its approval was not recorded"
            states = [s for s, _ in tool_calls(app)]
            assert states == ["denied"], states
            shown = error_text_shown(app)
            assert "No space left on device" in shown and "nothing was run" in shown, shown
            # The window says plainly that it cannot save, not only under the call.
            banner = wait_for("the message that Ask First cannot save",
                              lambda: app.wd.find_all('[data-testid="storage-error"]'), timeout=10)[0]
            said = app.wd.text(banner)
            figure("full_banner", " ".join(said.split()))
            assert "cannot save" in said and "No space left on device" in said, said
            shot(app, "full-approve-unrecorded")
            # (b) Still full: a new task. The question cannot be recorded, so nobody is asked.
            app.start_task("Try again on the full disk")
            wait_for("the run to end", lambda: app.run_status() in ("completed", "failed", "cancelled")
                     and len(tool_calls(app)) == 2 and tool_calls(app)[1][0] not in UNDECIDED, timeout=30)
            assert not cards(app), "a card was shown for a question that was not recorded"
            assert [s for s, _ in tool_calls(app)] == ["denied", "denied"], tool_calls(app)
            assert not os.path.exists(os.path.join(app.workspace, "full.txt"))
            shown = error_text_shown(app)
            assert "No space left on device" in shown, shown
            shot(app, "full-second-task")
            # The app still answers.
            started = time.monotonic()
            assert app.wd.execute("return 1 + 1") == 2
            figure("full_script_round_trip_ms", round((time.monotonic() - started) * 1000, 1))
            assert "panicked" not in app.stderr(), app.stderr()[-2000:]
            # (c) Space again: the log goes on; nothing torn is presented as a record.
            os.unlink(filler)
            app.wd.click(app.wd.find_all('[data-testid="refuse-all"]')[0])  # writes one record
            app.wd.click(app.wd.find_all('[data-testid="refuse-all"]')[0])
            wait_for("the message to go once saving works",
                     lambda: not app.wd.find_all('[data-testid="storage-error"]'), timeout=10)
            shot(app, "full-space-again")
        with open(log, "rb") as f:
            raw = f.read()
        records, damaged = parse_log(raw)
        figure("full_torn_lines", len(damaged))
        figure("full_torn_line_lengths", [len(line) for _, line in damaged])
        assert decided(records, approval_id) in ([], [{"kind": "cancelled", "cause": "app_shutdown"}]) or all(
            o["kind"] != "approved" for o in decided(records, approval_id)), decided(records, approval_id)
        # After the space came back, records are whole lines again, and the gap is marked.
        assert records[-1]["type"] == "session_policy_changed", records[-1]
        gaps = [r for r in records if r["type"] == "unrecorded"]
        assert len(gaps) == 1 and "No space left on device" in gaps[0]["problem"], gaps
        # Start again on the same data: the torn line is skipped, the session reopens and the
        # call does not show as done.
        app = SApp("full-again", path, data=data)
        with app:
            app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
            opener = wait_for("the old session", lambda: app.wd.find_all('[data-testid="open-session"]'))[0]
            app.wd.click(opener)
            states = replayed(app, 1)
            assert states == ["cancelled"], states
            said = app.wd.text(app.wd.find_all('section.transcript')[0])
            figure("full_reopened_transcript", " | ".join(said.splitlines()))
            assert "This action was not performed." in said, said
            assert "Part of this task could not be saved" in said, said
            shot(app, "full-reopened")
            assert "panicked" not in app.stderr()


def test_read_only_data_folder():
    if not can_mount():
        print("  SKIPPED: cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN)", flush=True)
        FIGURES["read_only_skipped"] = True
        return
    path = scenario_path("ro", [
        {"say": "Writing.", "tool_calls": [write_call("ro.txt", "must not be written\n")]},
        {"say": "Finished."},
    ])
    with Tmpfs("4m") as fs:
        data = os.path.join(fs.path, "data")
        # A data folder with history: a session whose card was waiting when the app was killed.
        app = SApp("ro-before", path, data=data)
        with app:
            app.start_task("Write a file")
            app.card()
            os.kill(app_pid(), signal.SIGKILL)
            wait_for("the app to die", app_gone, timeout=10)
        before = session_logs(data)
        # The folder turns read-only (a remount needs no open writer: the app is gone).
        fs.remount("ro")
        try:
            app = SApp("ro-start", path, data=data)
            with app:
                banner = wait_for("a message about the data folder",
                                  lambda: app.wd.find_all('[data-testid="storage-error"]'), timeout=10)
                shown_at_start = app.wd.text(banner[0])
                figure("ro_message_at_start", " ".join(shown_at_start.split()))
                assert "Read-only file system" in shown_at_start, shown_at_start
                shot(app, "ro-start")
                app.start_task("Write a file")
                wait_for("the run to end", lambda: app.run_status() in ("completed", "failed", "cancelled"), timeout=30)
                assert not cards(app), "a card was shown for a question that could not be recorded"
                assert not os.path.exists(os.path.join(app.workspace, "ro.txt"))
                assert [s for s, _ in tool_calls(app)] == ["denied"], tool_calls(app)
                shown = error_text_shown(app)
                assert "Read-only file system" in shown, shown
                shot(app, "ro-start-task")
                # The old session cannot be continued here; the window says why.
                app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
                openers = wait_for("the old session", lambda: app.wd.find_all('[data-testid="open-session"]'))
                app.wd.click(openers[0])
                alert = wait_for("why the session cannot be opened",
                                 lambda: app.wd.find_all('[data-testid="sessions-panel"] [role="alert"]'))[0]
                figure("ro_open_session_message", app.wd.text(alert))
                assert "Read-only file system" in app.wd.text(alert)
                # Saving the settings fails with a message, and nothing crashes.
                app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
                save = wait_for("the settings", lambda: app.wd.find_all('[data-testid="settings-save"]'))[0]
                app.wd.click(save)
                alert = wait_for("why the settings were not saved", lambda: [
                    a for a in app.wd.find_all('[role="alert"]') if "settings" in app.wd.text(a)])[0]
                figure("ro_settings_message", app.wd.text(alert))
                assert "Read-only file system" in app.wd.text(alert), app.wd.text(alert)
                shot(app, "ro-settings")
                shot(app, "ro-open-session")
                err = app.stderr()
                assert "panicked" not in err, err[-3000:]
            # Nothing was changed in the read-only folder, of course, and the old log is whole.
            assert session_logs(data) == before
            for raw in before.values():
                assert not parse_log(raw)[1]
        finally:
            fs.remount("rw")


# ---------------------------------------------------------------- 3. no notification service / tray / bus


def test_approve_works_on_this_bus():
    with SApp(f"bus-{PART}", "write-hello.json") as app:
        pid = app_pid()
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = dict(kv.split(b"=", 1) for kv in f.read().split(b"\0") if b"=" in kv)
        address = env.get(b"DBUS_SESSION_BUS_ADDRESS", b"").decode()
        figure(f"{PART}_app_bus_address", address)
        if PART == "no-bus":
            assert "nonexistent" in address, address
        else:
            import dbus
            names = [str(n) for n in dbus.SessionBus().list_names()]
            assert "org.freedesktop.Notifications" not in names, names
            assert "org.kde.StatusNotifierWatcher" not in names, names
        started = time.monotonic()
        app.start_task("Please greet me in a file")
        card = app.card()
        figure(f"{PART}_start_to_card_s", round(time.monotonic() - started, 2))
        shot(app, f"{PART}-card")
        # A second launch (the single-instance guard needs the bus when there is one) must not
        # touch the first one's waiting approval.
        env = dict(os.environ)
        with open(os.environ["ASKFIRST_E2E_ENV"]) as f:
            for line in f:
                key, _, value = line.strip().partition("=")
                env[key] = value.strip("'")
        second = subprocess.Popen([APP], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            # It exits as soon as it has found the first one (about a second, longer on a loaded
            # machine); one that ran instead would never exit by itself, so a long wait costs
            # nothing when all is well and still catches it.
            second.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        second_alive = second.poll() is None
        figure(f"{PART}_second_launch_kept_running", second_alive)
        if second_alive:
            second.terminate()
            second.wait(timeout=10)
        # It hands over (exit 0) or, with no bus to reach the first, refuses (exit 1); never runs.
        assert not second_alive, "a second Ask First ran on the same data folder"
        assert second.returncode in (0, 1), second.returncode
        records = [r for raw in session_logs(app.data).values() for r in parse_log(raw)[0]]
        approval_id = app.wd.attr(card, "data-approval-id")
        assert decided(records, approval_id) == [], ("a second launch closed the waiting approval", decided(records, approval_id))
        app.press(card, "approve")
        assert app.wait_finished() == "completed"
        with open(os.path.join(app.workspace, "hello.txt"), encoding="utf-8") as f:
            assert f.read() == "Hello from Ask First!\nSecond line.\n"
        # Closing the window hides it (the tray would bring it back); the app must not die.
        if PART != "main":
            # No tray to come back from: closing must not hide the window into nowhere (it is
            # minimised instead; with no window manager here that leaves it on screen).
            time.sleep(1.0)  # the app's background look for a tray host has long ended
            e2e.close_window()
            time.sleep(1.5)
            assert e2e.window_viewable(), ("closing hid the window with no tray", e2e.x_windows())
        err = app.stderr()
        figure(f"{PART}_stderr_lines", len([l for l in err.splitlines() if l.strip()]))
        assert "panicked" not in err, err[-3000:]
        assert app_pid() == pid, "the app restarted or died"


# ---------------------------------------------------------------- 4. hostile input

# The window's JSON view, re-implemented from ui/src/lib/json.ts: what the card must show for
# given argument bytes (lossless numbers, duplicate keys kept, hidden characters as escapes).

NAMED = {0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x08: "\\b", 0x0C: "\\f"}
MAX_STRING, FOLD_HEAD, FOLD_TAIL = 2000, 600, 200


def invisible(c):
    return (c < 0x20 or 0x7F <= c <= 0x9F or c == 0xAD or c == 0x061C or 0x200B <= c <= 0x200F
            or 0x2028 <= c <= 0x202E or 0x2060 <= c <= 0x2064 or 0x2066 <= c <= 0x206F or c == 0xFEFF
            or 0xFFF9 <= c <= 0xFFFB or 0xD800 <= c <= 0xDFFF)


def visible(text, quote, multiline=False):
    out = []
    for ch in text:
        c = ord(ch)
        if multiline and c in (0x0A, 0x09):
            out.append(ch)
        elif invisible(c):
            out.append(NAMED.get(c, "\\u%04X" % c))
        elif quote and ch in '"\\':
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def utf16_len(text):
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in text)


def folded(text):
    if utf16_len(text) <= MAX_STRING:
        return visible(text, True)
    assert all(ord(ch) <= 0xFFFF for ch in text), "fold expectation needs BMP text"
    hidden = len(text) - FOLD_HEAD - FOLD_TAIL
    return visible(text[:FOLD_HEAD], True) + f" … {hidden:,} more characters hidden … " + visible(text[-FOLD_TAIL:], True)


class Raw(str):
    pass


def expected_json_view(raw):
    node = json.loads(raw, object_pairs_hook=lambda pairs: ("object", pairs),
                      parse_int=Raw, parse_float=Raw, parse_constant=Raw)
    lines = []

    def emit(n, depth, prefix, suffix):
        ind = "  " * depth
        if isinstance(n, tuple) or isinstance(n, list):
            entries = n[1] if isinstance(n, tuple) else n
            o, c = ("{", "}") if isinstance(n, tuple) else ("[", "]")
            if not entries:
                lines.append(ind + prefix + o + c + suffix)
                return
            lines.append(ind + prefix + o)
            for i, entry in enumerate(entries):
                comma = "," if i < len(entries) - 1 else ""
                if isinstance(n, tuple):
                    key, value = entry
                    emit(value, depth + 1, '"' + folded(key) + '": ', comma)
                else:
                    emit(entry, depth + 1, "", comma)
            lines.append(ind + c + suffix)
        elif isinstance(n, Raw):
            lines.append(ind + prefix + n + suffix)
        elif isinstance(n, str):
            lines.append(ind + prefix + '"' + folded(n) + '"' + suffix)
        else:
            lines.append(ind + prefix + {True: "true", False: "false", None: "null"}[n] + suffix)

    emit(node, 0, "", "")
    return "".join(line + "\n" for line in lines)


WHITESPACE = set([*range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029,
                  0x202F, 0x205F, 0x3000])


INVISIBLE = set([0xAD, 0x61C, 0x180E, *range(0x200B, 0x2010), *range(0x202A, 0x202F), *range(0x2060, 0x2065),
                 *range(0x2066, 0x206A), 0xFEFF, *range(0xFFF9, 0xFFFC), *range(0xE0000, 0xE0080)])


def one_line(text, limit):
    """Rust's `display_label` in core/src/text.rs: whitespace to spaces, control and invisible
    format characters dropped, runs of spaces joined, at most `limit` characters (the names
    checked here are short, so the cut at whole graphemes does not come into play)."""
    cleaned = "".join(" " if ord(ch) in WHITESPACE else ch for ch in text)
    cleaned = "".join(ch for ch in cleaned if not (ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F or ord(ch) in INVISIBLE))
    joined = " ".join(cleaned.split(" "))
    joined = " ".join(p for p in joined.split(" ") if p)
    return joined if len(joined) <= limit else joined[:limit].rstrip(" ") + "…"


def sanitize(name):
    return "".join(ch if (ch.isascii() and ch.isalnum()) or ch in "_-" else "_" for ch in name)


class Canary(http.server.BaseHTTPRequestHandler):
    hits = []

    def do_GET(self):
        Canary.hits.append(self.path)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


CHECK_PAGE = """
const bad = document.querySelectorAll('img, svg, script:not([src]), iframe, object, embed, link[href*="127.0.0.1"], a[href^="javascript"], [onerror], [onload]');
return {pwned: window.__pwned === undefined ? null : String(window.__pwned),
        title: document.title, polluted: ({}).polluted === undefined ? null : 'yes',
        bad: [...bad].map(e => e.outerHTML.slice(0, 120))};"""


def hostile_cases(canary):
    """(label, tool name, raw arguments text, expectation). Expectation: 'card' (shown, then
    denied or approved as given) or 'failed' (the tool refuses the arguments; no card)."""
    img = f'<img src="{canary}/img" onerror="window.__pwned=1">'
    cases = [
        ("img onerror", "write_file", {"path": "a.txt", "content": img}, "card"),
        ("svg onload + script", "write_file", {"path": "b.txt", "content": '<svg onload="window.__pwned=2"><script>window.__pwned=2</script></svg>'}, "card"),
        ("javascript: URL", "write_file", {"path": "c.txt", "content": '<a href="javascript:window.__pwned=3">click</a> javascript:window.__pwned=3'}, "card"),
        ("</script> breakout", "write_file", {"path": "d.txt", "content": "</script><script>window.__pwned=4</script><!--"}, "card"),
        ("template syntax", "write_file", {"path": "e.txt", "content": "{@html '<img src=x onerror=window.__pwned=5>'} {{constructor.constructor('window.__pwned=5')()}} ${window.__pwned=5} {#if true}x{/if}"}, "card"),
        ("iframe srcdoc + css import", "write_file", {"path": "f.txt", "content": f'<iframe srcdoc="<script>parent.__pwned=6</script>"></iframe><style>@import "{canary}/css";</style><link rel=stylesheet href="{canary}/link">'}, "card"),
        ("bidi override in path", "write_file", {"path": "invoice\u202Etxt.exe", "content": "x"}, "card"),
        ("bidi isolates U+2066-2069", "write_file", {"path": "g.txt", "content": "a\u2066b\u2067c\u2068d\u2069e\u202Af\u202Bg\u202Ch\u202Di\u200Ej\u200Fk\u061Cl"}, "card"),
        ("zero-width U+200B/200C/200D/FEFF/2060", "write_file", {"path": "h\u200B.txt", "content": "pay\u200Bpal\u200C\u200D\uFEFF\u2060"}, "card"),
        ("C0 controls", "write_file", {"path": "i.txt", "content": "".join(chr(c) for c in range(0x20))}, "card"),
        ("C1 controls and DEL", "write_file", {"path": "j.txt", "content": "".join(chr(c) for c in range(0x7F, 0xA0)) + "\u00AD"}, "card"),
        ("line/paragraph separators raw", "write_file", None, "card"),  # raw U+2028/2029, filled below
        ("terminal escapes", "write_file", {"path": "k.txt", "content": "\x1b[2J\x1b]0;owned\x07\x1b[31mred\r\rover"}, "card"),
        ("emoji, combining, CJK, RTL text", "write_file", {"path": "l.txt", "content": "👍🏽 e\u0301 文字 مرحبا 𝕏"}, "card"),
        ("HTML in the path", "write_file", {"path": f"<img src=x onerror=window.__pwned=15>{chr(0x202E)}gnp.txt", "content": "x"}, "card"),
        ("lone high surrogate", "write_file", '{"path": "m.txt", "content": "\\ud800"}', "failed"),
        ("lone low surrogate", "write_file", '{"path": "n.txt", "content": "x\\udc00y"}', "failed"),
        ("NUL in the path", "write_file", {"path": "o\u0000.txt", "content": "x"}, "failed"),
        ("unknown tool named like HTML", f'<img src="{canary}/tool" onerror=window.__pwned=19>', {"a": 1}, "failed"),
        # Through the MCP server's echo tool, which takes any object.
        ("huge integer within u64", "evil__echo", '{"n": 12345678901234567890}', "card"),
        ("beyond 2^53, -0, long fraction, big exponent, i64 min", "evil__echo",
         '{"a": 9007199254740993, "b": -0, "c": 1.0000000000000000000001, "d": 1e308, "e": -9223372036854775808, "f": 0.1e-400}', "card"),
        ("1e400", "evil__echo", '{"n": 1e400}', "failed"),
        ("integer beyond u64", "evil__echo", '{"n": 123456789012345678901234567890}', "failed"),
        ("100 levels of objects", "evil__echo", '{"a":' * 100 + '"deep"' + '}' * 100, "card"),
        ("100 levels of arrays", "evil__echo", '{"a":' + '[' * 99 + '1' + ']' * 99 + '}', "card"),
        ("200 levels (beyond the parser's limit)", "evil__echo", '{"a":' * 200 + '1' + '}' * 200, "failed"),
        ("duplicate keys", "evil__echo", '{"path": "safe.txt", "path": "../../etc/passwd"}', "failed"),
        ("very long key", "evil__echo", '{"' + "k" * 5000 + '": 1}', "card"),
        ("hidden characters in keys", "evil__echo", '{"\\u202Ekey\\u0000": "v", "\\u200B": "zw", "a\\u2028b": "\\u2029"}', "card"),
        ("prototype pollution keys", "evil__echo", '{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 2}}, "html": "<img src=x onerror=window.__pwned=30>"}', "card"),
        ("odd whitespace and escapes", "evil__echo", '{ "a" :\t[ 1 ,\n2 ] , "b":"\\/\\"\\\\" }', "card"),
        ("not an object", "evil__echo", '[1, 2, 3]', "failed"),
        ("hostile-named MCP tool", "evil__" + sanitize('<img src=x onerror="window.__pwned=\'name\'">\u202E'), '{"x": "<script>window.__pwned=33</script>"}', "card"),
        ("MCP tool error text", "evil__fail", '{"why": "\\u202E"}', "card-approve-fails"),
        ("10 MB string", "write_file", {"path": "big.txt", "content": "0123456789" * 1_000_000}, "card-approve"),
    ]
    out = []
    for label, tool, args, expect in cases:
        if args is None:
            raw = '{"path": "sep.txt", "content": "line\u2028sep\u2029para"}'
        elif isinstance(args, str):
            raw = args
        else:
            raw = json.dumps(args)  # \u escapes for everything outside ASCII
        out.append((label, tool, raw, expect))
    return out


def test_hostile_input_through_the_window():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Canary)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    canary = f"http://127.0.0.1:{server.server_address[1]}/hit"
    mcp_script = os.path.join(HERE, "hostile_mcp.mjs")
    listed = json.loads(subprocess.run(["node", mcp_script, canary, "--list"], capture_output=True, text=True,
                                       check=True).stdout)
    cases = hostile_cases(canary)
    figure("hostile_cases", len(cases))
    scen = os.path.join(tempfile.gettempdir(), "askfirst-survival-hostile.json")
    with open(scen, "w") as f:
        json.dump({"turns": [{"say": "x"}]}, f)
    app = SApp("hostile", scen)
    os.makedirs(app.data)
    with open(os.path.join(app.data, "settings.json"), "w") as f:
        json.dump({"mcp_servers": [{"name": "evil", "command": "node", "args": [mcp_script, canary]},
                                   {"name": "broken", "command": "node", "args": [mcp_script, canary, "--crash"]}]}, f)
    say = f'<b>bold?</b> <img src="{canary}/say" onerror="window.__pwned=\'say\'"> \u202Eevil\u200B {{@html "x"}}\nsecond line\u2028'
    card_ms, gone_ms, rtt_ms, results = [], [], [], []
    try:
        with app:
            title = app.wd.execute("return document.title")
            batches = [cases[i:i + 12] for i in range(0, len(cases), 12)]
            for b, batch in enumerate(batches):
                turns = [{"say": say if i == 0 else f"step {i}",
                          "tool_calls": [{"name": tool, "arguments_json": raw}]} for i, (_, tool, raw, _) in enumerate(batch)]
                turns.append({"say": "All steps shown."})
                with open(scen, "w", encoding="utf-8") as f:
                    json.dump({"turns": turns}, f)
                base = len(tool_calls(app))
                app.start_task(f"Hostile batch {b + 1}")
                for j, (label, tool, raw, expect) in enumerate(batch):
                    i = base + j
                    started = time.monotonic()
                    big = len(raw) > 1_000_000
                    state, element = wait_for(f"case {label!r} to show", lambda: (lambda t: t[i] if len(t) > i and t[i][0] not in ("queued", "running") else None)(tool_calls(app)), timeout=120 if big else 30)
                    try:
                        if expect.startswith("card"):
                            assert state == "waiting", (label, state, text_content(app, element))
                            card = app.card()
                            card_ms.append((time.monotonic() - started) * 1000)
                            if big:
                                figure("hostile_10mb_start_to_card_s", round(time.monotonic() - started, 2))
                            pre = app.wd.find_in(card, '[data-testid="approval-args"] pre')[0]
                            shown = text_content(app, pre)
                            want = expected_json_view(raw)
                            assert shown == want, (label, shown[:3000], want[:3000])
                            summary = text_content(app, app.wd.find_in(card, '[data-testid="approval-summary"]')[0])
                            if tool == "write_file":
                                path = json.loads(raw)["path"]
                                assert visible(path, False) in summary, (label, summary)
                            elif tool.startswith("evil__"):
                                server_tool = next(t for t in listed if "evil__" + sanitize(t["name"]) == tool)
                                title_hint = (server_tool.get("annotations") or {}).get("title") or server_tool.get("title")
                                want_summary = f'Use "{one_line(server_tool["name"], 80)}" from the MCP server "evil"'
                                if title_hint and one_line(title_hint, 80):
                                    want_summary += f' (the server calls it "{one_line(title_hint, 80)}")'
                                assert summary == visible(want_summary, False), (label, summary, visible(want_summary, False))
                            t0 = time.monotonic()
                            assert app.wd.execute("return document.querySelectorAll('*').length") > 0
                            rtt_ms.append((time.monotonic() - t0) * 1000)
                            approval_id = app.wd.attr(card, "data-approval-id")
                            if j == 0 and b == 0:
                                shot(app, "hostile-first-card")
                            app.press(card, "deny" if expect == "card" else "approve")
                            t0 = time.monotonic()  # after the click (press waits for the arming delay)
                            wait_for("the card to go", lambda: not app.wd.find_all(f'[data-approval-id="{approval_id}"]'), timeout=60)
                            gone_ms.append((time.monotonic() - t0) * 1000)
                            if big:
                                figure("hostile_10mb_click_to_card_gone_s", round(time.monotonic() - t0, 2))
                            if expect == "card-approve-fails":
                                state = wait_for("the call to fail", lambda: (lambda s: s if s not in UNDECIDED else None)(tool_calls(app)[i][0]))
                                assert state == "failed", state
                                element = tool_calls(app)[i][1]
                                text = text_content(app, app.wd.find_in(element, ".tool-output")[0])
                                assert "\\u202E" in text and "\\u0000" in text and "\\u001B" in text, text
                                assert "<img src=" in text and "reported an error" in text, text
                        else:
                            assert state == "failed", (label, state)
                            output = app.wd.find_in(element, ".tool-output")
                            text = text_content(app, output[0]) if output else ""
                            assert text, label
                    except AssertionError:
                        shot(app, f"hostile-failed-{b}-{j}")
                        raise
                    page = app.wd.execute(CHECK_PAGE)
                    assert page["pwned"] is None and page["title"] == title and page["polluted"] is None, (label, page)
                    assert not page["bad"], (label, page["bad"])
                    results.append((label, expect, "held"))
                assert app.wait_finished() == "completed"
                messages = app.wd.find_all('[data-testid="assistant-message"]')
                first_said = [m for m in messages if "bold?" in text_content(app, m)]
                assert first_said and visible(say, False, multiline=True) in text_content(app, first_said[-1]), text_content(app, first_said[-1])
                if b == 0:
                    shot(app, "hostile-transcript")
            # The settings screen lists the servers; what the broken one said on stderr is
            # shown as text, its hidden characters as escapes.
            app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
            servers = wait_for("the MCP servers", lambda: app.wd.find_all('[data-testid="mcp-server"]'))
            texts = [text_content(app, li) for li in servers]
            figure("hostile_settings_mcp_lines", texts)
            states = [app.wd.attr(app.wd.find_in(li, '[data-testid="mcp-status"]')[0], "class") for li in servers]
            assert texts[0].startswith("evil Running, 3 tools."), texts
            assert "running" in states[0].split() and "failed" in states[1].split(), states
            assert texts[1].startswith('broken The MCP server "broken" could not be started'), texts
            assert "<img src=" in texts[1] and "\\u202E" in texts[1] and "\u202e" not in texts[1], texts
            page = app.wd.execute(CHECK_PAGE)
            assert page["pwned"] is None and not page["bad"], page
            shot(app, "hostile-settings")
            # Positive controls: the canaries do detect what they look for (run by the test,
            # not by the app), so their silence above means something.
            control = app.wd.execute("""
                const d = document.createElement('div');
                d.innerHTML = '<img src=x onerror="window.__control=1">';
                document.body.appendChild(d);
                const found = document.querySelectorAll('img').length;
                d.remove();
                return found;""")
            assert control == 1, control
            app.wd.execute(f"const i = new Image(); i.src = '{canary}/control';")
            time.sleep(1.0)
            figure("hostile_canary_control_hit", "/hit/control" in Canary.hits)
            figure("hostile_inline_handler_control_ran", app.wd.execute("return window.__control === 1"))
            Canary.hits[:] = [h for h in Canary.hits if h != "/hit/control"]
            assert os.path.getsize(os.path.join(app.workspace, "big.txt")) == 10_000_000
            written = sorted(os.listdir(app.workspace))
            assert written == ["big.txt"], written
            time.sleep(0.5)
            assert Canary.hits == [], Canary.hits
            assert "panicked" not in app.stderr()
    finally:
        server.shutdown()
    figure("hostile_results", results)
    figure("hostile_start_to_card_ms_p50_max", [round(statistics.median(card_ms)), round(max(card_ms))])
    figure("hostile_click_to_card_gone_ms_p50_max", [round(statistics.median(gone_ms)), round(max(gone_ms))])
    figure("hostile_script_round_trip_ms_p50_max", [round(statistics.median(rtt_ms), 1), round(max(rtt_ms), 1)])


PARTS = {
    "main": [test_kill_9_with_two_cards_waiting_then_start_again, test_full_data_folder,
             test_read_only_data_folder, test_hostile_input_through_the_window],
    "bare-bus": [test_approve_works_on_this_bus],
    "no-bus": [test_approve_works_on_this_bus],
}


def main():
    os.makedirs(ARTIFACTS, exist_ok=True)
    only = os.environ.get("ASKFIRST_SURVIVAL_ONLY")

    def record(test, took):
        FIGURES[f"{test.__name__}_wall_s"] = round(took, 1)

    results = [e2e.run_test(f"survival[{PART}]", test, on_pass=record) for test in PARTS[PART]
               if not only or only in test.__name__]
    for name in os.listdir(tempfile.gettempdir()):
        if name.startswith("askfirst-survival-") and name.endswith(".json"):
            os.unlink(os.path.join(tempfile.gettempdir(), name))
    FIGURES["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    with open(os.path.join(ARTIFACTS, f"survival-{PART}.json"), "w", encoding="utf-8") as f:
        json.dump(FIGURES, f, indent=1, ensure_ascii=False)
    return e2e.summarize(results)


if __name__ == "__main__":
    sys.exit(main())
