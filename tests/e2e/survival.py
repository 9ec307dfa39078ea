#!/usr/bin/python3
"""Survival tests of the real Ask First window (issue 7), driven over WebDriver like e2e.py.

survival.sh runs this file three times, once per environment (ASKFIRST_SURVIVAL_PART):
  main      kill -9 with approvals waiting and start again (test_survival_kill.py); a full and
            a read-only data folder (test_survival_storage.py: tmpfs mounts, needs root or
            CAP_SYS_ADMIN); 30+ hostile inputs through the window (test_survival_hostile.py)
  bare-bus  a session bus without a notification service or a tray host: approve still works
            (test_survival_bus.py)
  no-bus    no session bus at all: approve still works (test_survival_bus.py)

Tests assert what a person would notice (files, cards, messages, the session logs); figures
(times, sizes) are only measured and written to .e2e-artifacts/survival-<part>.json for
BENCHMARKS.md, never asserted. Screenshots of key states go to .e2e-artifacts/survival-*.png.
ASKFIRST_SURVIVAL_ONLY picks tests by name (comma-separated parts), ASKFIRST_E2E_RETRIES sets
the retries.
"""
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from harness.env import ARTIFACTS  # noqa: E402
from harness.runner import run_test, selected, summarize  # noqa: E402
from harness.survival import FIGURES, PART  # noqa: E402

import test_survival_bus  # noqa: E402
import test_survival_hostile  # noqa: E402
import test_survival_kill  # noqa: E402
import test_survival_storage  # noqa: E402

PARTS = {
    "main": (test_survival_kill.TESTS + test_survival_storage.TESTS + test_survival_hostile.TESTS),
    "bare-bus": test_survival_bus.TESTS,
    "no-bus": test_survival_bus.TESTS,
}


def main():
    os.makedirs(ARTIFACTS, exist_ok=True)

    def record(test, took):
        FIGURES[f"{test.__name__}_wall_s"] = round(took, 1)

    tests = selected(PARTS[PART], os.environ.get("ASKFIRST_SURVIVAL_ONLY", ""))
    results = [run_test(f"survival[{PART}]", test, on_pass=record) for test in tests]
    for name in os.listdir(tempfile.gettempdir()):
        if name.startswith("askfirst-survival-") and name.endswith(".json"):
            os.unlink(os.path.join(tempfile.gettempdir(), name))
    FIGURES["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    with open(os.path.join(ARTIFACTS, f"survival-{PART}.json"), "w", encoding="utf-8") as f:
        json.dump(FIGURES, f, indent=1, ensure_ascii=False)
    return summarize(results)


if __name__ == "__main__":
    sys.exit(main())
