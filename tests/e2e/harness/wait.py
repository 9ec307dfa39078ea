"""Polling until something is true: the window changes after events the test cannot await."""
import time


def wait_for(what, poll, timeout=30.0, interval=0.1):
    """Calls `poll()` every `interval` seconds until it returns something truthy, and returns
    that. An exception from `poll` counts as "not yet". After `timeout` seconds, fails with an
    AssertionError naming `what` (and the last exception, if any)."""
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
