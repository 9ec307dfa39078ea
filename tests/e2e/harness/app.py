"""App: one Ask First instance with its own data and workspace folders, started through
WebDriver (WebKitWebDriver runs launch.sh, which becomes the app) and ended by its pid.

    with App("approve", "write-hello.json") as app:
        app.start_task("Please greet me in a file")
        app.press(app.card(), "approve")
        assert app.wait_finished() == "completed"

Steps find their element afresh right before using it (by test id, approval id or text, with
harness.wait.fresh), never through a reference kept from an earlier step: the cards and the
conversation are virtualised lists that replace their elements as they redraw.
"""
import json
import os
import shutil
import tempfile
import time

from . import processes
from .desktop import window_png
from .sessions import log_names
from .env import APP, ARTIFACTS, DRIVER, LAUNCH, SCENARIOS, WEBDRIVER_LOG
from .wait import STALE_TRIES, fresh, wait_for
from .webdriver import ELEMENT, StaleElement, WebDriver

# An approval card in the page.
CARD = '[data-testid="approval-card"]'
# The card buttons that answer it: pressing one disables every button of the card at once.
ANSWERS = ("approve", "approve-session", "deny", "deny-with-note")
# How often App.press clicks a button whose click did not take, and how long it waits to see.
PRESS_TRIES = 3
PRESS_TAKES_S = 3.0


def log_size():
    """How much the app (and WebKitWebDriver) has written to stderr so far, in bytes."""
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


def scenario_file(turns):
    """Writes a scripted provider's scenario ({"turns": turns}) to a temporary file; returns
    its path (the caller removes it)."""
    fd, path = tempfile.mkstemp(prefix="askfirst-scenario-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump({"turns": turns}, f)
    return path


class Card(str):
    """An approval card as App.card() and App.cards() found it: the WebDriver reference of its
    element at that moment (a str, so code that talks to WebDriver directly still takes it) and
    `id`, its approval id. The list of cards is virtualised and redraws cards, so the reference
    can go stale; the harness's own steps (press, card_field, in_card, on_card) find the card
    afresh by its id each time."""

    def __new__(cls, element, approval_id):
        card = super().__new__(cls, element)
        card.id = approval_id
        return card


def card_id(card):
    """The approval id of `card`: a Card, or an approval id itself."""
    return card.id if isinstance(card, Card) else card


def card_css(card, inner=None):
    """A CSS selector for `card` (a Card or an approval id), or for `inner` inside it."""
    css = f'{CARD}[data-approval-id="{card_id(card)}"]'
    return f"{css} {inner}" if inner else css


def armed(wd, button):
    """Whether a card's button answers: not disabled (the answer is sent or the request ended)
    and not aria-disabled (the card is still arming; the button stays in the Tab order)."""
    return wd.attr(button, "disabled") is None and wd.attr(button, "aria-disabled") != "true"


class App:
    """One app instance. `scenario` is a file in tests/e2e/scenarios or an absolute path (the
    scripted provider plays it), or None to leave the provider to `env` or the settings; `env`
    adds variables to the app's environment. `data` and `workspace` reuse folders (to start
    the app again on the same data); otherwise both are made fresh under a temporary folder
    that is removed at the end. `prefix` names that folder (askfirst-<prefix>-<name>-…).

    `fixed_workspace=False` leaves ASKFIRST_WORKSPACE unset (the folder is then chosen in the
    window; a first launch shows the welcome).

    The environment goes to the file $ASKFIRST_E2E_ENV names (launch.sh reads it); `pid` is the
    app's process id once it runs (launch.sh writes it to `pid_file`)."""

    def __init__(self, name, scenario, env=None, data=None, workspace=None, prefix="e2e",
                 fixed_workspace=True):
        self.name = name
        self.tmp = tempfile.mkdtemp(prefix=f"askfirst-{prefix}-{name}-")
        self.data = data or os.path.join(self.tmp, "data")
        self.workspace = workspace or os.path.join(self.tmp, "workspace")
        self.pid_file = os.path.join(self.tmp, "app.pid")
        self.pid = None
        self.log_mark = 0
        os.makedirs(self.workspace, exist_ok=True)
        # WebKitWebDriver (and so launch.sh) has this path in its environment.
        with open(os.environ["ASKFIRST_E2E_ENV"], "w") as f:
            f.write(f"ASKFIRST_DATA_DIR='{self.data}'\n")
            # Without it the app starts in the folder chosen in the window (or the demo folder)
            # and shows the welcome on a first launch.
            if fixed_workspace:
                f.write(f"ASKFIRST_WORKSPACE='{self.workspace}'\n")
            if scenario:
                # (an absolute path is used as it is by os.path.join)
                f.write(f"ASKFIRST_PROVIDER='scripted:{os.path.join(SCENARIOS, scenario)}'\n")
            for key, value in (env or {}).items():
                f.write(f"{key}='{value}'\n")
            f.write(f"ASKFIRST_E2E_APP='{APP}'\n")
            f.write(f"ASKFIRST_E2E_PID_FILE='{self.pid_file}'\n")
            # The window speaks the desktop's language: English unless a test gives LANG (or
            # LC_ALL, LC_MESSAGES, LANGUAGE), whatever the machine running the tests speaks.
            for key in ("LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"):
                if key not in (env or {}):
                    f.write(f"{key}='{'C.UTF-8' if key == 'LANG' else ''}'\n")
            # The driven window has the focus; these tests check the notification regardless
            # (unless a test chooses the setting itself).
            if "ASKFIRST_NOTIFY" not in (env or {}):
                f.write("ASKFIRST_NOTIFY='always'\n")
        self.wd = WebDriver(DRIVER)
        # Screenshots are of what the X server shows of this app's window (WebDriver's of a
        # page drawn without compositing may never return).
        self.wd.window_image = lambda path: window_png(path, pid=self.pid)

    def __enter__(self):
        self.log_mark = log_size()
        try:
            self._start()
        except Exception as first:  # a slow or stuck start: end what it started, try once more
            print(f"  (session start failed: {first}; retrying)", flush=True)
            self.wd.session = None
            self.end()
            time.sleep(1)
            self._start()
        wait_for("the page to load", lambda: self.wd.execute("return document.readyState") == "complete"
                 and self.wd.find_all('[data-testid="task-input"]'))
        return self

    def _start(self):
        try:
            os.unlink(self.pid_file)
        except FileNotFoundError:
            pass
        self.pid = None
        self.wd.start(LAUNCH)
        self.pid = processes.read_pid_file(self.pid_file, APP)
        assert self.pid, f"launch.sh did not start {APP} (no pid in {self.pid_file})"

    def __exit__(self, *exc):
        if exc[0] is not None:
            try:
                self.wd.screenshot(os.path.join(ARTIFACTS, f"{self.name}-failure.png"))
            except Exception:
                pass
            self.report_failure()
        # End the app first: closing its window only hides it (it lives on in the tray), and
        # WebKitWebDriver would wait for a browser that never exits. The app is single-instance:
        # the next test's app must not find this one still there…
        self.end()
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

    def end(self):
        """Ends this app (and its process group) by its pid, if it was started; returns
        whether it exited on SIGTERM."""
        pid = self.pid or processes.read_pid_file(self.pid_file, APP)
        return processes.end(pid) if pid else True

    def running(self):
        """Whether this app's process is still there."""
        return bool(self.pid) and processes.alive(self.pid)

    def stderr(self):
        """What the app (and WebKitWebDriver) wrote to stderr since this app started."""
        return log_since(self.log_mark)

    def report_failure(self):
        """Prints what a CI log needs to tell why a test failed: whether the app was still
        running and the end of what it wrote to stderr (D-Bus daemon chatter left out)."""
        state = (f"running, pid {self.pid}, group {processes.group_members(self.pid)}"
                 if self.running() else "not running (it had exited)")
        print(f"  [{self.name}] the app at failure: {state}", flush=True)
        lines = [line for line in self.stderr().splitlines()
                 if line.strip() and not line.startswith("dbus-daemon[")]
        if lines:
            print(f"  [{self.name}] the last of its stderr ({len(lines)} lines since it started):", flush=True)
            for line in lines[-25:]:
                print(f"    | {line[:300]}", flush=True)

    def start_task(self, task):
        """Types `task` into the task box and clicks Start once it is enabled."""
        box = self.wd.find_all('[data-testid="task-input"]')[0]
        self.wd.type(box, task)
        start = self.wd.find_all('[data-testid="start-run"]')[0]
        wait_for("Start to be enabled", lambda: self.wd.attr(start, "disabled") is None)
        self.wd.click(start)

    def first(self, css):
        """The first element that matches `css` now, or None."""
        found = self.wd.find_all(css)
        return found[0] if found else None

    def on(self, css, act, what=None):
        """Finds the first element that matches `css` afresh (waiting for one) and returns
        act(element), again from the lookup when the page redrew it in between
        (harness.wait.fresh)."""
        return fresh(what or css, lambda: self.first(css), act)

    def click(self, css, what=None):
        """Clicks the first element that matches `css`, found afresh (waiting for one)."""
        self.on(css, self.wd.click, what)

    def text(self, css, what=None):
        """The text of the first element that matches `css`, found afresh (waiting for one)."""
        return self.on(css, self.wd.text, what)

    def card(self):
        """The first approval card (a Card), once there is one."""
        return wait_for("an approval card", self.cards)[0]

    def cards(self):
        """Every approval card now shown, top to bottom (Cards), read in one step (again when
        the list redrew a card while WebDriver was handing it over)."""
        script = (f"return [...document.querySelectorAll('{CARD}')]"
                  ".map(c => [c, c.getAttribute('data-approval-id')]);")
        for attempt in range(1, STALE_TRIES + 1):
            try:
                found = self.wd.execute(script)
                return [Card(element[ELEMENT], approval) for element, approval in found]
            except StaleElement:
                if attempt == STALE_TRIES:
                    raise
                print("  (the cards were redrawn while they were read; read again)", flush=True)

    def in_card(self, card, css):
        """The elements that match `css` inside `card` now, looked up by its approval id."""
        return self.wd.find_all(card_css(card, css))

    def on_card(self, card, css, act, what=None):
        """act(element) on the first element that matches `css` inside `card`, found afresh by
        the card's approval id (waiting for one; again when the page redrew it in between)."""
        return self.on(card_css(card, css), act, what or f"{css} in card {card_id(card)}")

    def card_texts(self, card, css):
        """The text of every element that matches `css` inside `card` ([] when none does), the
        card found afresh by its approval id and read again when the list redrew it meanwhile."""
        return fresh(f"card {card_id(card)}", lambda: self.first(card_css(card)),
                     lambda element: [self.wd.text(e) for e in self.wd.find_in(element, css)])

    def press(self, card, testid):
        """Clicks a card's button once it is armed (enabled), as a person would; the button is
        found afresh by the card's approval id and its test id, and found again when the list
        redrew the card before the click.

        A button that answers the card (ANSWERS) is pressed again when the click did not take:
        the card moved between the lookup and the click (the card above it left), so it had
        disarmed, as it must, and ignored the click (ui/src/lib/approvals/arming.svelte.ts). A
        person then sees the card still waiting and clicks once more; so does this, at most
        PRESS_TRIES times. The click took when the button is disabled or gone (the card is
        sending its answer or has left)."""
        what = f"{testid} of card {card_id(card)} to be armed"
        for attempt in range(1, PRESS_TRIES + 1):
            fresh(what, lambda: self.armed_button(card, testid), self.wd.click)
            if testid not in ANSWERS:
                return

            def taken():
                button = self.first(card_css(card, f'[data-testid="{testid}"]'))
                return button is None or self.wd.attr(button, "disabled") is not None
            try:
                wait_for(f"the {testid} click on card {card_id(card)} to take", taken, timeout=PRESS_TAKES_S)
                return
            except (AssertionError, StaleElement):
                if attempt == PRESS_TRIES:
                    raise
                print(f"  ({testid} of card {card_id(card)}: the click did not take (the card had "
                      "moved and disarmed); pressed again)", flush=True)

    def armed_button(self, card, testid):
        """The button `testid` of `card` (found now by the card's approval id) if it is armed,
        or None: a poll for wait_for or fresh."""
        button = self.first(card_css(card, f'[data-testid="{testid}"]'))
        return button if button and armed(self.wd, button) else None

    def card_field(self, card, testid):
        """The text of one part of a card (approval-summary, approval-args, approve, …), once
        the card shows it; the exact details are opened first when they are folded away. The
        card is found afresh by its approval id, and the opening and the reading are done again
        when the list redrew it."""
        part = f'[data-testid="{testid}"]'

        def shown():
            element = self.first(card_css(card))
            return element if element and self.wd.find_in(element, part) else None

        def read(element):
            if testid == "approval-args":
                # The exact details fold away when a diff shows the change; open them as a person would.
                details = self.wd.find_in(element, "details")[0]
                if self.wd.attr(details, "open") is None:
                    self.wd.click(self.wd.find_in(element, "details > summary")[0])
            return self.wd.text(self.wd.find_in(element, part)[0])
        return fresh(f"{testid} of card {card_id(card)}", shown, read)

    def tool_calls(self):
        """(data-state, element) of every tool call in the transcript, in order, read in one step
        (an element may still be redrawn after: read its text with tool_call_texts)."""
        found = self.wd.execute(
            "return [...document.querySelectorAll('[data-testid=\"tool-call\"]')]"
            ".map(c => [c.getAttribute('data-state'), c]);")
        return [(state, element[ELEMENT]) for state, element in found]

    def tool_call_texts(self):
        """The shown text of every tool call in the transcript, in order, read in one step."""
        return self.wd.execute(
            "return [...document.querySelectorAll('[data-testid=\"tool-call\"]')].map(c => c.innerText);")

    def run_status(self):
        el = self.wd.find_all('[data-testid="run-status"]')[0]
        return self.wd.attr(el, "data-status")

    def wait_finished(self):
        """Waits for the run to end; returns its status: completed, failed or cancelled."""
        return wait_for("the run to finish",
                        lambda: self.run_status() if self.run_status() in ("completed", "failed", "cancelled") else None)

    def session_records(self):
        """Every record in every session log of this app's data folder (blank lines skipped)."""
        folder = os.path.join(self.data, "sessions")
        return [json.loads(line) for name in log_names(self.data)
                for line in open(os.path.join(folder, name), encoding="utf-8") if line.strip()]
