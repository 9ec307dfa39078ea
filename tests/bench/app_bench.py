#!/usr/bin/python3
"""Measures the real app (release build) under Xvfb: cold start to a usable window, idle memory
of the app and its WebKit processes, the approval round trip through the window, and a soak of
1,000 approvals answered one after another (resident set before and after).

Run by `make bench` inside `xvfb-run … dbus-run-session -- tests/e2e/run.sh`-like setup:
  xvfb-run -a dbus-run-session -- tests/bench/run.sh
Prints a JSON object with the figures; BENCHMARKS.md records them with the method.
"""
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
import e2e  # noqa: E402  (the WebDriver client and App harness)

SOAK = int(os.environ.get("ASKFIRST_BENCH_SOAK", "1000"))
PER_RUN = 20


def rss_kib(pid):
    """Resident set of `pid` and all its descendants, in KiB."""
    total = 0
    stack = [str(pid)]
    seen = set()
    while stack:
        p = stack.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            children = open(f"/proc/{p}/task/{p}/children").read().split()
            stack.extend(children)
        except OSError:
            pass
    return total


def app_pid():
    out = subprocess.run(["pgrep", "-f", "-o", e2e.APP], capture_output=True, text=True).stdout.split()
    return int(out[0]) if out else None


def scenario(path, turns):
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"turns": turns}, f)


def main():
    results = {"binary": e2e.APP, "binary_bytes": os.path.getsize(e2e.APP)}
    tmp = os.path.join(e2e.ARTIFACTS, "bench-scenario.json")
    # A run may take 25 model steps, so the soak is several tasks of PER_RUN approvals each.
    writes = [{"tool_calls": [{"name": "write_file", "arguments": {"path": f"f{i}.txt", "content": f"{i}\n"}}]}
              for i in range(PER_RUN)]
    scenario(tmp, writes + [{"say": "done"}])

    start = time.monotonic()
    with e2e.App("bench", tmp) as app:
        results["cold_start_to_usable_window_s"] = round(time.monotonic() - start, 2)
        time.sleep(3)
        pid = app_pid()
        results["idle_rss_mib"] = round(rss_kib(pid) / 1024, 1)
        round_trips = []
        first_rss = None
        for i in range(SOAK):
            if i % PER_RUN == 0:
                if i:
                    assert app.wait_finished() == "completed"
                app.start_task(f"Write many files ({i // PER_RUN + 1})")
            shown = time.monotonic()
            card = app.card()
            approval_id = app.wd.attr(card, "data-approval-id")
            app.press(card, "approve")
            e2e.wait_for("the card to go", lambda: not app.wd.find_all(f'[data-approval-id="{approval_id}"]'))
            round_trips.append(time.monotonic() - shown)
            if i == 9:
                first_rss = rss_kib(pid)
        assert app.wait_finished() == "completed"
        last_rss = rss_kib(pid)
        written = len([n for n in os.listdir(app.workspace) if n.endswith(".txt")])
    results["soak_approvals"] = SOAK
    results["soak_files_written"] = written
    results["rss_after_10_mib"] = round(first_rss / 1024, 1)
    results["rss_after_soak_mib"] = round(last_rss / 1024, 1)
    ms = sorted(1000 * t for t in round_trips)
    results["card_to_gone_ms"] = {
        "note": "from the previous card leaving to this card approved and gone, through WebDriver (includes the 600 ms arming delay)",
        "p50": round(statistics.median(ms), 1),
        "p95": round(ms[int(0.95 * (len(ms) - 1))], 1),
        "max": round(ms[-1], 1),
    }
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    sys.exit(main())
