"""Polling until something is true: the window changes after events the test cannot await."""
import time

from .webdriver import StaleElement

# How often fresh() looks an element up again after the page redrew it under the test.
STALE_TRIES = 5


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


def fresh(what, find, act, tries=STALE_TRIES, timeout=30.0):
    """Looks an element up and uses it at once: polls `find()` (as wait_for does, for up to
    `timeout` seconds) until it returns an element, and returns `act(element)`. The cards and
    the conversation are virtualised lists that replace their elements as they scroll, are
    measured and change, so the element can leave the page between the lookup and the use;
    WebDriver then answers "stale element reference" (StaleElement) and both the lookup and the
    use are done again, at most `tries` times in all (no sleep: the next lookup finds the
    element that took its place). Any other error goes up at once.

    `find` names the element by what stays (a test id, an approval id, a text), never by a
    reference kept from before."""
    for attempt in range(1, tries + 1):
        element = wait_for(what, find, timeout)
        try:
            return act(element)
        except StaleElement as e:
            if attempt == tries:
                raise AssertionError(f"{what}: the page redrew it {tries} times between its lookup "
                                     f"and its use ({e})")
            print(f"  ({what}: redrawn between its lookup and its use; looked up again)", flush=True)
    raise AssertionError(f"{what}: fresh() needs tries >= 1")
