"""Runs a suite's tests one after the other, each in a fresh app, and prints one line per
test and a closing "N passed, N failed" line.

  ASKFIRST_E2E_ONLY     comma-separated parts of test names: run only the tests that match one
  ASKFIRST_E2E_RETRIES  how often a failed test is run again before it counts as failed (1)
  ASKFIRST_E2E_SHARD    "k/n": run_suite runs only every n-th of the selected tests, from the
                        k-th (1-based), so that n lanes, each with its own X server and bus,
                        share a suite (tests/e2e/lanes.sh)
"""
import os
import time
import traceback

from .env import ARTIFACTS

# How often a failed test is run again, in a fresh app, before it counts as failed (as
# Playwright's `retries` on CI): a window driven under Xvfb without a window manager now and
# then loses an event. A pass on a retry is reported as flaky, with the first failure in full.
RETRIES = int(os.environ.get("ASKFIRST_E2E_RETRIES", "1"))


def selected(tests, only=None):
    """The tests whose names contain one of the comma-separated parts of `only` (default:
    $ASKFIRST_E2E_ONLY); all of them when it is empty."""
    only = os.environ.get("ASKFIRST_E2E_ONLY", "") if only is None else only
    parts = [p for p in only.split(",") if p]
    return [t for t in tests if not parts or any(p in t.__name__ for p in parts)]


def shard():
    """($ASKFIRST_E2E_SHARD's k - 1, n); (0, 1), every test, when it is not set."""
    text = os.environ.get("ASKFIRST_E2E_SHARD", "")
    if not text:
        return 0, 1
    k, _, n = text.partition("/")
    lane, lanes = int(k), int(n)
    if not 1 <= lane <= lanes:
        raise ValueError(f"ASKFIRST_E2E_SHARD must be k/n with 1 <= k <= n, not {text!r}")
    return lane - 1, lanes


def run_test(suite, test, on_pass=None):
    """Runs `test` (and again up to RETRIES times after a failure); prints its outcome and
    returns "ok", "flaky" (passed on a retry) or "failed". `on_pass(test, seconds)` is called
    when it passes."""
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
    """Prints "N passed, N failed" (and how many were flaky); returns the exit code."""
    passed = sum(r != "failed" for r in results)
    flaky = sum(r == "flaky" for r in results)
    print(f"{passed} passed, {len(results) - passed} failed"
          + (f" ({flaky} flaky: passed only on a second try)" if flaky else ""))
    return 0 if passed == len(results) else 1


def run_suite(suite, tests, on_pass=None):
    """Runs the selected `tests` (see `selected`) and returns the exit code."""
    os.makedirs(ARTIFACTS, exist_ok=True)
    started = time.monotonic()
    lane, lanes = shard()
    results = [run_test(suite, test, on_pass) for test in selected(tests)[lane::lanes]]
    print(f"{suite}: {len(results)} tests in {time.monotonic() - started:.0f}s", flush=True)
    return summarize(results)
