"""What the survival tests (test_survival_*.py, run by survival.py) share: the part being run,
the figures they measure, screenshots, scenarios written on the fly, and reading the
transcript a reopened session replays.

survival.sh runs survival.py once per environment (ASKFIRST_SURVIVAL_PART): main, bare-bus,
no-bus. Figures (times, sizes) are only measured, never asserted, and written to
$ASKFIRST_E2E_ARTIFACTS/survival-<part>.json for BENCHMARKS.md."""
import json
import os
import tempfile

from .env import ARTIFACTS
from .wait import wait_for
from .webdriver import ELEMENT

PART = os.environ.get("ASKFIRST_SURVIVAL_PART", "main")
# A tool call's transcript states before it ends (data-state).
UNDECIDED = ("queued", "waiting", "approved", "running")
# The figures measured in this part: {name: value}, written out by survival.py.
FIGURES = {}


def figure(key, value):
    """Records (and prints) one measured figure."""
    FIGURES[key] = value
    print(f"  figure {key} = {value}", flush=True)


def shot(app, name):
    """A screenshot of the window as survival-<name>.png (an artefact: failing to take one
    fails nothing)."""
    try:
        app.wd.screenshot(os.path.join(ARTIFACTS, f"survival-{name}.png"))
    except Exception as e:  # a screenshot is an artefact, not a result
        print(f"  (no screenshot {name}: {e})", flush=True)


def scenario_path(name, turns):
    """Writes a scenario ({"turns": turns}) to askfirst-survival-<name>.json in the temporary
    folder (survival.py removes those at the end); returns its path."""
    path = os.path.join(tempfile.gettempdir(), f"askfirst-survival-{name}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"turns": turns}, f)
    return path


def write_call(path, content):
    """A scenario's write_file tool call."""
    return {"name": "write_file", "arguments": {"path": path, "content": content}}


def text_content(app, element):
    """An element's textContent (all of its text, shown or not, unlike WebDriver's text)."""
    return app.wd.execute("return arguments[0].textContent", {ELEMENT: element})


def replayed(app, calls):
    """Waits until a reopened session has been replayed to its end and returns the states of
    its tool calls. Its events are replayed one by one (a call shows `queued` before it shows
    how it ended), and every run in it ends with a `run_finished`: so the replay is over once
    at least `calls` calls are shown (the last run's among them), none of them still shows
    `queued` or `running`, and the run status is final (the window's status can be final a
    moment before the last calls' ends are drawn)."""
    def done():
        states = [s for s, _ in app.tool_calls()]
        if (len(states) >= calls and not {"queued", "running"} & set(states)
                and app.run_status() not in ("idle", "running")):
            return states
        return None
    return wait_for(f"the old transcript, replayed to its end ({calls} calls)", done)


def error_text_shown(app):
    """Every error or failed/denied tool output shown in the window, as text."""
    return app.wd.execute("""
        return [...document.querySelectorAll('[role="alert"], .tool-output, .finished, .notice, [data-testid="storage-error"]')]
            .map(e => e.textContent).join('\\n');""")
