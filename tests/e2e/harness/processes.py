"""The app's process, known by its id: the harness never ends a process by its name or path
(a developer's own build of the same path may be running beside the tests).

WebKitWebDriver starts launch.sh, which writes its pid to the file named by
ASKFIRST_E2E_PID_FILE, puts itself at the head of a process group of its own (setsid) and
becomes the app (exec): so the app's pid is that pid, and its process group (the same number)
holds the app and the processes it started that did not leave the group (WebKit's web and
network processes). Ending an app is SIGTERM to that pid, SIGKILL to it if it does not exit in
time, then SIGKILL to whatever is left in its group."""
import os
import signal
import time

from .wait import wait_for


def alive(pid):
    """Whether process `pid` exists and has not exited (a zombie, not yet reaped, has)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return False


def group_members(pgid):
    """The pids of the live processes in process group `pgid` (from /proc)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(") ", 1)[1].split()
        except (OSError, IndexError):
            continue
        # After ") ": state, ppid, pgrp (proc(5), fields 3-5).
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found.append(int(name))
    return found


def read_pid_file(path, binary):
    """The pid launch.sh wrote to `path`, once that process runs `binary`; None if the file
    is not there (the session never started the app) or names another program."""
    try:
        with open(path) as f:
            pid = int(f.read().strip())
    except (OSError, ValueError):
        return None
    try:
        # launch.sh writes the file just before its exec: wait for the exec to be done.
        wait_for("the app to replace launch.sh", lambda: os.path.realpath(f"/proc/{pid}/exe")
                 == os.path.realpath(binary), timeout=5, interval=0.05)
    except AssertionError:
        return None
    return pid


def end(pid, timeout=15.0):
    """Ends the app `pid` and its process group: SIGTERM, and SIGKILL after `timeout` seconds
    if it is still there; then SIGKILL to every process left in its group (what it started
    and left behind). Returns True if it exited on SIGTERM."""
    clean = True
    if alive(pid):
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            wait_for("the app to exit", lambda: not alive(pid), timeout=timeout)
        except AssertionError:
            clean = False
            kill_group(pid)
            wait_for("the app to die", lambda: not alive(pid), timeout=5)
    # What it started in its group (WebKit's processes) goes with it.
    if group_members(pid):
        kill_group(pid)
        time.sleep(0.2)
    return clean


def kill_group(pgid):
    """SIGKILL to process group `pgid`, if it still has a member."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
