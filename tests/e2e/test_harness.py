"""The harness itself: ending a test's app ends exactly that app and what it started (by pid
and process group), never another process that runs from the same path, such as a
developer's own build beside the tests."""
import subprocess

from harness import processes
from harness.app import App
from harness.env import APP


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


TESTS = [test_ending_an_app_leaves_another_process_of_the_same_path_alone]
