"""The harness itself: ending a test's app ends exactly that app and what it started (by pid
and process group), never another process that runs from the same path, such as a
developer's own build beside the tests; and a step whose element the page redraws between its
lookup and its use looks it up again, a bounded number of times."""
import subprocess

from harness import processes
from harness.app import App
from harness.env import APP
from harness.wait import STALE_TRIES
from harness.webdriver import StaleElement

# Replaces the probe paragraph with a new element saying `arguments[0]`, as a list that
# redraws an item does.
REDRAW = """const old = document.getElementById('fresh-probe');
const p = document.createElement('p'); p.id = 'fresh-probe'; p.textContent = arguments[0];
old.replaceWith(p);"""


def test_ending_an_app_leaves_another_process_of_the_same_path_alone():
    # A stand-in for a developer's own build: a process whose command line is the app's path
    # (what `pkill -f <path>` and `pgrep -f <path>` match), here a sleep under that name.
    decoy = subprocess.Popen([APP, "600"], executable="/bin/sleep")
    try:
        with App("harness", "write-hello.json") as app:
            pid = app.pid
            assert pid != decoy.pid and processes.alive(pid), (pid, decoy.pid)
            group = processes.group_members(pid)
            assert pid in group and decoy.pid not in group, (group, decoy.pid)
            # WebKit's web and network processes are in the app's group.
            assert len(group) > 1, group
        assert decoy.poll() is None, "ending the test's app ended another process of the same path"
        assert not processes.alive(pid), "the app is still running"
        assert processes.group_members(pid) == [], "the app left processes in its group"
    finally:
        decoy.kill()
        decoy.wait()


def test_a_step_whose_element_is_redrawn_looks_it_up_again():
    with App("harness-fresh", "write-hello.json") as app:
        app.wd.execute("const p = document.createElement('p'); p.id = 'fresh-probe';"
                       "p.textContent = 'first'; document.body.appendChild(p);")
        used = []

        def redrawn_once(element):
            if not used:
                app.wd.execute(REDRAW, "second")  # between the lookup and the use
            used.append(element)
            return app.wd.text(element)
        assert app.on("#fresh-probe", redrawn_once) == "second"
        assert len(used) == 2 and used[0] != used[1], used
        # WebKitWebDriver refuses the reference kept from before the redraw as stale: what
        # fresh() recovers from, and what a step holding an element would fail on.
        stale = None
        try:
            app.wd.text(used[0])
        except StaleElement as e:
            stale = e
        assert stale is not None, "a replaced element's reference still answered"

        # An element redrawn at every use: fresh() gives up after STALE_TRIES, saying so.
        tries = []

        def redrawn_always(element):
            tries.append(element)
            app.wd.execute(REDRAW, f"again {len(tries)}")
            return app.wd.text(element)
        failure = None
        try:
            app.on("#fresh-probe", redrawn_always)
        except AssertionError as e:
            failure = str(e)
        assert failure and f"redrew it {STALE_TRIES} times" in failure, failure
        assert len(tries) == STALE_TRIES, tries


TESTS = [test_ending_an_app_leaves_another_process_of_the_same_path_alone,
         test_a_step_whose_element_is_redrawn_looks_it_up_again]
