"""App: one Ask First instance with its own data and workspace folders, started through
WebDriver (WebKitWebDriver runs launch.sh, which becomes the app) and ended by its pid.

    with App("approve", "write-hello.json") as app:
        app.start_task("Please greet me in a file")
        app.press(app.card(), "approve")
        assert app.wait_finished() == "completed"
"""
import json
import os
import shutil
import tempfile
import time

from . import processes
from .sessions import log_names
from .env import APP, ARTIFACTS, DRIVER, LAUNCH, SCENARIOS, WEBDRIVER_LOG
from .wait import wait_for
from .webdriver import WebDriver


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

    def card(self):
        """The first approval card, once there is one."""
        return wait_for("an approval card", lambda: self.wd.find_all('[data-testid="approval-card"]'))[0]

    def cards(self):
        """Every approval card now shown, top to bottom."""
        return self.wd.find_all('[data-testid="approval-card"]')

    def press(self, card, testid):
        """Clicks a card's button once it is armed (enabled), as a person would."""
        button = wait_for(testid, lambda: self.wd.find_in(card, f'[data-testid="{testid}"]'))[0]
        wait_for(f"{testid} to be armed", lambda: armed(self.wd, button))
        self.wd.click(button)

    def card_field(self, card, testid):
        """The text of one part of a card (approval-summary, approval-args, …); the exact
        details are opened first when they are folded away."""
        if testid == "approval-args":
            # The exact details fold away when a diff shows the change; open them as a person would.
            details = self.wd.find_in(card, "details")[0]
            if self.wd.attr(details, "open") is None:
                self.wd.click(self.wd.find_in(card, "details > summary")[0])
        return self.wd.text(self.wd.find_in(card, f'[data-testid="{testid}"]')[0])

    def tool_calls(self):
        """(data-state, element) of every tool call in the transcript, in order."""
        return [(self.wd.attr(c, "data-state"), c) for c in self.wd.find_all('[data-testid="tool-call"]')]

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
