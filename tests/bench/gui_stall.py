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
  slowdisk   the approvals phase again with the data folder on a FUSE mount that adds 50 ms to
             every fsync and fdatasync (slow_fsync_fs.py; needs /dev/fuse, root or
             CAP_SYS_ADMIN, and python3-fusepy; prints SKIPPED without them)
  idle       the same probe for 3 s with nothing happening (the floor)

Both approval phases also give click -> decision recorded (the UI's bench log's click stamp
against the audit log's `approval_decided.at`): p50, p99 and max.

Run inside `xvfb-run -a -s "-screen 0 1280x860x24" dbus-run-session -- tests/bench/gui_stall.sh`
(make bench does). ASKFIRST_E2E_APP chooses the binary (default target/debug/askfirst; make bench
builds the release one). Prints one JSON object and writes it to
$ASKFIRST_E2E_ARTIFACTS/gui-stall-results.json.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
import e2e  # noqa: E402  (the WebDriver client and App harness)
from app_bench import BenchApp, asked_and_decided, stats, write_scenario  # noqa: E402

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

    def __init__(self, name, scenario, env=None, data=None):
        self.probe_file = os.path.join(e2e.ARTIFACTS, f"stall-{name}.txt")
        if os.path.exists(self.probe_file):
            os.remove(self.probe_file)
        super().__init__(name, scenario, (env or {}) | {"ASKFIRST_STALL_PROBE": self.probe_file},
                         data=data)

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
    """Once `count` cards are waiting (the count in the list's heading), clicks the Approve of
    every drawn card as soon as it is armed (only the cards in view are drawn, and cards that
    move up re-arm), `count` clicks in all; returns when those cards are gone."""
    e2e.wait_for("every card", lambda: app.wd.execute(
        "const c = document.querySelector('.approvals .count'); return c && Number(c.textContent)") == count,
                 timeout=600, interval=0.3)
    app.wd.execute("""
        const want = arguments[0];
        window.__answer = { ids: [], done: false };
        const step = () => {
          for (const b of document.querySelectorAll('[data-testid="approval-card"] [data-testid="approve"]')) {
            if (window.__answer.ids.length >= want) break;
            const id = b.closest('[data-testid="approval-card"]').getAttribute('data-approval-id');
            if (window.__answer.ids.includes(id) || b.disabled || b.getAttribute('aria-disabled') === 'true') continue;
            window.__answer.ids.push(id);
            b.click();
          }
          const left = window.__answer.ids.some(id => document.querySelector(`[data-approval-id="${id}"]`));
          if (window.__answer.ids.length < want || left) requestAnimationFrame(step);
          else window.__answer.done = true;
        };
        requestAnimationFrame(step);""", count)
    e2e.wait_for("the answered cards to go", lambda: app.wd.execute("return window.__answer.done"),
                 timeout=900, interval=0.1)


def click_to_decided(app):
    """click -> decision recorded (ms) of every approval the bench log saw clicked."""
    clicks = app.wd.execute("return window.__askfirstBench.cards")
    _, decided = asked_and_decided(app.audit())
    return [decided[i]["at"] - c["clicked"] for i, c in clicks.items() if "clicked" in c and i in decided]


def write_calls(n, prefix):
    return [{"name": "write_file", "arguments": {"path": f"{prefix}{k}.txt", "content": f"line {k}\n"}}
            for k in range(n)]


def answer_batches(name, results, data=None):
    """The approvals phase (see the module's doc) under `name`, its data folder `data`."""
    scenario = os.path.join(e2e.ARTIFACTS, f"stall-{name}.json")
    turns = [{"say": f"Batch {b + 1}.", "tool_calls": write_calls(PER_TURN, f"b{b}-")}
             for b in range(APPROVALS // PER_TURN)]
    write_scenario(scenario, turns + [{"say": "All written."}])
    env = {"ASKFIRST_APPROVAL_TIMEOUT_SECS": str(TIMEOUT_SECS)}
    with ProbedApp(name, scenario, env, data=data) as app:
        app.wd.execute("window.__askfirstBench = { cards: {} }")
        time.sleep(3)
        t0 = now_us()
        time.sleep(3)
        results[f"{name}_idle"] = stall_stats(app.samples(t0, now_us()))
        app.start_task(f"Write {APPROVALS} files")
        windows = []
        for b in range(APPROVALS // PER_TURN):
            time.sleep(1)
            t0 = now_us()
            answer_all(app, PER_TURN)
            windows.append((t0, now_us()))
        assert app.wait_finished() == "completed"
        windows[-1] = (windows[-1][0], now_us())
        samples = [s for t0, t1 in windows for s in app.samples(t0, t1)]
        lag = sorted(click_to_decided(app))
        results[name] = stall_stats(samples) | {
            "approvals": APPROVALS, "per_turn": PER_TURN,
            "batch_first_click_to_all_gone_ms": [round((t1 - t0) / 1000) for t0, t1 in windows],
            "click_to_decision_recorded_ms": stats(lag) | (
                {"p99": round(lag[int(0.99 * (len(lag) - 1))], 1)} if lag else {})}


def part_approvals(results):
    answer_batches("approvals", results)
    results["idle"] = results.pop("approvals_idle")


def part_slowdisk(results):
    """The approvals phase with the data folder on slow_fsync_fs.py (50 ms more per sync)."""
    if not os.path.exists("/dev/fuse") or shutil.which("fusermount3") is None and os.geteuid() != 0:
        print("  SKIPPED: no /dev/fuse or no way to mount", flush=True)
        results["slowdisk"] = "skipped"
        return
    backing = tempfile.mkdtemp(prefix="askfirst-slowdisk-backing-")
    mount = tempfile.mkdtemp(prefix="askfirst-slowdisk-")
    fs = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "slow_fsync_fs.py"), backing, mount, "50"])
    try:
        e2e.wait_for("the slow file system", lambda: os.path.ismount(mount), timeout=20)
        probe = os.path.join(mount, "probe")
        with open(probe, "w") as f:
            f.write("x")
            f.flush()
            t = time.monotonic()
            os.fsync(f.fileno())
            results["slowdisk_one_fsync_ms"] = round((time.monotonic() - t) * 1000, 1)
        os.remove(probe)
        answer_batches("slowdisk", results, data=os.path.join(mount, "data"))
    finally:
        # fusermount3 (the fuse3 package) unmounts as a user; as root, umount does.
        unmounted = shutil.which("fusermount3") is not None and \
            subprocess.run(["fusermount3", "-u", mount]).returncode == 0
        if not unmounted:
            subprocess.run(["umount", "-l", mount])
        try:
            fs.wait(timeout=10)
        except subprocess.TimeoutExpired:
            fs.kill()
        shutil.rmtree(backing, ignore_errors=True)
        os.rmdir(mount)


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
    for name, part in (("approvals", part_approvals), ("slowdisk", part_slowdisk),
                       ("sessions", part_sessions)):
        if name in os.environ.get("ASKFIRST_BENCH_STALL_PARTS", "approvals,slowdisk,sessions").split(","):
            print(f"- {name}", flush=True)
            part(results)
    text = json.dumps(results, indent=2)
    print(text)
    with open(os.path.join(e2e.ARTIFACTS, "gui-stall-results.json"), "w") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
