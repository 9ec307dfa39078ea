#!/usr/bin/python3
"""The GUI thread's longest stall, measured in the real app under Xvfb (BENCHMARKS.md, "The GUI
thread").

The app runs with ASKFIRST_STALL_PROBE (src-tauri/src/stall_probe.rs): a background thread posts a
no-op to the main thread, waits for it to run, sleeps 2 ms and posts again, and writes each
sample `<posted at, Unix µs> <late by, µs>` to a file. This script reads the samples of each
phase's time window and reports the longest stall, p99 and p50 (ms).

Phases:
  approvals  APPROVALS (200) write_file calls asked in model turns of PER_TURN (50; a turn may
             ask at most 64, agent.rs MAX_TOOL_CALLS_PER_TURN); each turn's cards are shown at
             once, and once all are armed one script clicks every card's Approve, as fast as the
             page dispatches clicks; the samples are those of each batch, from its first click
             until its last card is gone (and the run finished, after the last)
  sessions   SESSIONS (500) realistic session logs on disk (copies of a real session log this
             script records first: one task, 10 approvals answered), then the Sessions list is
             opened (and closed) 3 times; each window is from the click until the list shows
  idle       the same probe for 3 s with nothing happening (the floor)

Run inside `xvfb-run -a -s "-screen 0 1280x860x24" dbus-run-session -- tests/bench/gui_stall.sh`
(make bench does). ASKFIRST_E2E_APP chooses the binary (default target/debug/askfirst; make bench
builds the release one). Prints one JSON object and writes it to
$ASKFIRST_E2E_ARTIFACTS/gui-stall-results.json.
"""
import json
import os
import shutil
import statistics
import sys
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
import e2e  # noqa: E402  (the WebDriver client and App harness)
from app_bench import BenchApp, write_scenario  # noqa: E402  (ends the app by its pid)

APPROVALS = int(os.environ.get("ASKFIRST_BENCH_STALL_APPROVALS", "200"))
SESSIONS = int(os.environ.get("ASKFIRST_BENCH_STALL_SESSIONS", "500"))
PER_TURN = 50
OPENS = 3
TIMEOUT_SECS = 3600  # no card may time out while the bench is busy


def now_us():
    return time.time_ns() // 1000


class ProbedApp(BenchApp):
    """A bench app with the stall probe on; `samples(t0, t1)` are the stalls (ms) of probes
    posted in [t0, t1] (Unix µs)."""

    def __init__(self, name, scenario, env=None):
        self.probe_file = os.path.join(e2e.ARTIFACTS, f"stall-{name}.txt")
        if os.path.exists(self.probe_file):
            os.remove(self.probe_file)
        super().__init__(name, scenario, (env or {}) | {"ASKFIRST_STALL_PROBE": self.probe_file})

    def samples(self, t0, t1):
        time.sleep(0.6)  # the probe writes its samples every 250 ms
        out = []
        with open(self.probe_file) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2 and t0 <= int(parts[0]) <= t1:
                    out.append(int(parts[1]) / 1000)
        return out


def stall_stats(samples):
    v = sorted(samples)
    if not v:
        return {"n": 0}
    # One probe is in flight at a time, so a long stall is one sample: the max says most; the
    # total of the stalls over a frame (16.7 ms) is how long the window could not paint.
    return {"n": len(v), "max_ms": round(v[-1], 1), "p99_ms": round(v[int(0.99 * (len(v) - 1))], 1),
            "p50_ms": round(statistics.median(v), 2),
            "over_a_frame": sum(1 for x in v if x > 16.7),
            "over_a_frame_total_ms": round(sum(x for x in v if x > 16.7))}


def answer_all(app, count):
    """Clicks every armed card's Approve at once (once `count` are shown); returns when those
    cards are gone (the next turn's cards may be there by then)."""
    e2e.wait_for("every card", lambda: len(app.wd.find_all('[data-testid="approval-card"]')) >= count,
                 timeout=600, interval=0.5)
    e2e.wait_for("every card armed", lambda: app.wd.execute(
        "return [...document.querySelectorAll('[data-testid=\"approval-card\"] [data-testid=\"approve\"]')]"
        ".every(b => !b.disabled && b.getAttribute('aria-disabled') !== 'true')"), timeout=120, interval=0.3)
    ids = app.wd.execute(
        "const cards = [...document.querySelectorAll('[data-testid=\"approval-card\"]')];"
        "cards.forEach(c => c.querySelector('[data-testid=\"approve\"]').click());"
        "return cards.map(c => c.getAttribute('data-approval-id'));")
    e2e.wait_for("the answered cards to go", lambda: not app.wd.execute(
        "return arguments[0].some(id => document.querySelector(`[data-approval-id=\"${id}\"]`))", ids),
                 timeout=600, interval=0.1)


def write_calls(n, prefix):
    return [{"name": "write_file", "arguments": {"path": f"{prefix}{k}.txt", "content": f"line {k}\n"}}
            for k in range(n)]


def part_approvals(results):
    scenario = os.path.join(e2e.ARTIFACTS, "stall-approvals.json")
    turns = [{"say": f"Batch {b + 1}.", "tool_calls": write_calls(PER_TURN, f"b{b}-")}
             for b in range(APPROVALS // PER_TURN)]
    write_scenario(scenario, turns + [{"say": "All written."}])
    with ProbedApp("approvals", scenario, {"ASKFIRST_APPROVAL_TIMEOUT_SECS": str(TIMEOUT_SECS)}) as app:
        time.sleep(3)
        t0 = now_us()
        time.sleep(3)
        results["idle"] = stall_stats(app.samples(t0, now_us()))
        app.start_task(f"Write {APPROVALS} files")
        windows = []
        for b in range(APPROVALS // PER_TURN):
            e2e.wait_for("every card", lambda: len(app.wd.find_all('[data-testid="approval-card"]')) >= PER_TURN,
                         timeout=600, interval=0.5)
            time.sleep(1)
            t0 = now_us()
            answer_all(app, PER_TURN)
            windows.append((t0, now_us()))
        assert app.wait_finished() == "completed"
        windows[-1] = (windows[-1][0], now_us())
        samples = [s for t0, t1 in windows for s in app.samples(t0, t1)]
        results["approvals"] = stall_stats(samples) | {
            "approvals": APPROVALS, "per_turn": PER_TURN,
            "batch_click_to_all_gone_ms": [round((t1 - t0) / 1000) for t0, t1 in windows]}


def record_session():
    """A real session log: one task, 10 writes approved (each with its card, decision, tool run
    and result), and the final answer."""
    scenario = os.path.join(e2e.ARTIFACTS, "stall-one-session.json")
    write_scenario(scenario, [{"say": "I will write 10 notes.", "tool_calls": write_calls(10, "note")},
                              {"say": "The ten notes are written."}])
    with BenchApp("stall-record", scenario, {"ASKFIRST_APPROVAL_TIMEOUT_SECS": str(TIMEOUT_SECS)}) as app:
        app.start_task("Write ten short notes, one per file")
        answer_all(app, 10)
        assert app.wait_finished() == "completed"
        folder = os.path.join(app.data, "sessions")
        logs = [os.path.join(folder, n) for n in os.listdir(folder)]
        best = max(logs, key=os.path.getsize)
        with open(best, encoding="utf-8") as f:
            return f.read()


def part_sessions(results):
    log = record_session()
    # Fill the data folder of the app about to start: SESSIONS logs, each with its own id.
    app = ProbedApp("sessions", None, {"ASKFIRST_PROVIDER": "demo"})
    folder = os.path.join(app.data, "sessions")
    os.makedirs(folder, mode=0o700)
    for _ in range(SESSIONS):
        with open(os.path.join(folder, f"{uuid.uuid4()}.jsonl"), "w", encoding="utf-8") as f:
            f.write(log)
    with app:
        time.sleep(3)
        windows = []
        button = app.wd.find_all('[data-testid="sessions"]')[0]
        for _ in range(OPENS):
            t0 = now_us()
            app.wd.click(button)
            e2e.wait_for("the sessions list", lambda: len(app.wd.find_all('[data-testid="session-item"]')) >= SESSIONS,
                         timeout=120, interval=0.05)
            t1 = now_us()
            windows.append((t0, t1))
            time.sleep(1)
            app.wd.click(button)  # close it again
            e2e.wait_for("the list to close", lambda: not app.wd.find_all('[data-testid="sessions-panel"]'), timeout=30)
            time.sleep(1)
        samples = [s for t0, t1 in windows for s in app.samples(t0, t1)]
        results["sessions"] = stall_stats(samples) | {
            "sessions": SESSIONS, "log_bytes_each": len(log.encode()),
            "click_to_list_shown_ms": [round((t1 - t0) / 1000) for t0, t1 in windows]}


def main():
    results = {"app": e2e.APP, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    for name, part in (("approvals", part_approvals), ("sessions", part_sessions)):
        if name in os.environ.get("ASKFIRST_BENCH_STALL_PARTS", "approvals,sessions").split(","):
            print(f"- {name}", flush=True)
            part(results)
    text = json.dumps(results, indent=2)
    print(text)
    with open(os.path.join(e2e.ARTIFACTS, "gui-stall-results.json"), "w") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
