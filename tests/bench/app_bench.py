#!/usr/bin/python3
"""Measures the real app (release build) under Xvfb, driven over WebDriver like the e2e tests.

Parts (ASKFIRST_BENCH_PARTS, comma-separated; default all, in this order):
  start     cold start to a usable window (3 starts), idle memory, binary size
  soak      ASKFIRST_BENCH_SOAK approvals (default 1,000) requested and answered one after
            another in one app instance, 20 per task (`run_command "date +%s%N > file"`, so the
            tool itself stamps when it started): the approval round trip inside the app
            (core -> card painted -> armed; click -> decision recorded -> tool started) and the
            resident set before, during, after, and after a new session; each sample is taken
            twice, at once and again after ASKFIRST_BENCH_SOAK_SETTLE seconds (default 10) with
            nothing happening (a card waits), so what was only not yet collected or given back
            can be told from what stays
  soak_direct  (not in the default list) the same approvals answered without WebDriver: the app
            started directly, driven with the X server's XTEST (pointer and keyboard), what happens
            read from the session log; its memory, sampled as `soak` does
            (tests/bench/direct_soak.py says how)
  thousand  one model turn with ASKFIRST_BENCH_PARALLEL (64, the most a turn may ask) tool
            calls: all cards shown, scrolling, webview memory, approving them all
  big       a 5 MB argument: core -> card usable (3 tasks)
  stream    a provider sending 2,000 deltas a second for 20 s (twice): does the window keep up,
            memory before / during / after
  floor     Ask First idle beside the minimal Tauri 2 app (tests/bench/minimal, built by make
            bench; $ASKFIRST_BENCH_FLOOR), each launched directly (no WebDriver) and measured 12 s
            after start, alternately, with each WebKit setting of window.rs (ASKFIRST_WEBKIT):
            RSS and PSS summed over the app and its WebKit processes, and which processes run
  mapped    (not in the default list, runs in seconds) the floor's share of a cold start:
            ASKFIRST_BENCH_START_RUNS starts each of the minimal Tauri 2 app and of Ask First,
            alternately, launched directly (no WebDriver): exec -> its window mapped and viewable
            on the X server, and -> its top left showing text (python-xlib, polled every ~2 ms)
  fonts     (not in the default list, runs in ~1.5 minutes) what a start costs in font lookups:
            ASKFIRST_BENCH_START_RUNS starts each of the minimal Tauri 2 app and of Ask First,
            launched directly: fontconfig's matches in the first 4 s (FC_DEBUG=1, which WebKit's
            processes inherit; every FcFontMatch prints "Match Pattern"), and, in starts without
            FC_DEBUG, the CPU seconds each process used in its first 3 s
  window1000, long  the window fed 1,000 cards / a 10,000-entry conversation through its own
            event path (tests/bench/window_parts.py says how, and what that does not measure)
  sessions  (not in the default list) ASKFIRST_BENCH_ROUNDS rounds (3) of ASKFIRST_BENCH_ROUND
            approvals (200), a new session after each: memory after each new session

Timestamps come from inside the app: the core's audit log (`approval_asked.at`,
`approval_decided.at`, Unix ms), the UI's bench log (ui/src/lib/bench.ts, switched on by
installing `window.__askfirstBench` over WebDriver; Unix ms), and file modification times (the
tool's write). All are the same machine clock.

Run inside `xvfb-run … dbus-run-session -- tests/bench/run.sh` (make bench does). Prints one JSON
object with every figure and writes it to $ASKFIRST_E2E_ARTIFACTS/bench-results.json.
"""
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
import e2e  # noqa: E402  (the WebDriver client and App harness)
import window_parts  # noqa: E402  (the parts that feed the window: window1000, long)
import direct_soak  # noqa: E402  (the soak without WebDriver: soak_direct)

PARTS = os.environ.get("ASKFIRST_BENCH_PARTS",
                       "start,floor,soak,thousand,window1000,long,big,stream").split(",")
FLOOR = os.environ.get("ASKFIRST_BENCH_FLOOR", os.path.join(
    e2e.ROOT, "target", "release", "askfirst-floor"))
FLOOR_ROUNDS = int(os.environ.get("ASKFIRST_BENCH_FLOOR_ROUNDS", "2"))
# The WebKit settings tried (window.rs WebkitTuning); "default" is the app as shipped.
WEBKIT_VARIANTS = os.environ.get(
    "ASKFIRST_BENCH_WEBKIT", "default,none,cache,no-accel,cache+no-accel,pressure").split(",")
SOAK = int(os.environ.get("ASKFIRST_BENCH_SOAK", "1000"))
# One model turn asks at most 64 calls (agent MAX_TOOL_CALLS_PER_TURN): the most cards at once.
PARALLEL = int(os.environ.get("ASKFIRST_BENCH_PARALLEL", "64"))
# ASKFIRST_BENCH_WARM_CARD=1: the `thousand` part shows and answers one card before the burst.
WARM_CARD = os.environ.get("ASKFIRST_BENCH_WARM_CARD") == "1"
START_RUNS = int(os.environ.get("ASKFIRST_BENCH_START_RUNS", "5"))
# How the soak finds and clicks the cards: "pointer" (default) reads the card's id and its
# Approve button's place with scripts that return only text and numbers, and clicks there with
# WebDriver's pointer actions; "element" finds the card and the button as WebDriver elements and
# clicks them (the e2e tests' way). WebKitWebDriver keeps the elements it hands out for the
# session, so with "element" the page could be holding every answered card for the bench rather
# than for itself; side by side over 500 approvals the two made no difference beyond the ±10 MiB
# the samples swing by (BENCHMARKS.md, "No growth: what the page keeps per approval"), and
# "pointer" is kept so that the question does not come back.
SOAK_CLICK = os.environ.get("ASKFIRST_BENCH_SOAK_CLICK", "pointer")
# The soak's tool: "run_command" (default; the command stamps when it started) or "write_file"
# (no process is started: what a command's spawning costs the app process, side by side; the
# tool's start is then taken from the file's mtime, when it was written).
SOAK_TOOL = os.environ.get("ASKFIRST_BENCH_SOAK_TOOL", "run_command")
# Memory is sampled every this many approvals (every 50 in a soak of up to 500, for a fit).
SOAK_SAMPLE_EVERY = 50 if SOAK <= 500 else 100
# Seconds the soak waits, idle, before a sample's second reading (0: no second reading).
SOAK_SETTLE = float(os.environ.get("ASKFIRST_BENCH_SOAK_SETTLE", "10"))
STREAM_RATE = int(os.environ.get("ASKFIRST_BENCH_STREAM_RATE", "2000"))
STREAM_SECONDS = float(os.environ.get("ASKFIRST_BENCH_STREAM_SECONDS", "20"))
PER_RUN = 20  # a run may take 25 model steps, so the soak is many tasks of PER_RUN approvals
TIMEOUT_SECS = 3600  # no card may time out while the bench is busy elsewhere
ARM_MS = 600  # ApprovalCard.svelte's arming delay, a safety feature (reported, not removed);
# 1,200 ms (STILL_POINTER_ARM_MS) for a card that appears under a pointer that has not moved


# --- processes and memory ---------------------------------------------------------------

def process_tree(pid):
    """[(pid, name)] of `pid` and all its descendants."""
    found, stack = [], [str(pid)]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/comm") as f:
                found.append((int(p), f.read().strip()))
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    stack.extend(f.read().split())
        except OSError:
            pass
    return found


def page_mappings(pid):
    """The web process's resident set (MiB) by kind of mapping, from /proc/<pid>/smaps:
    executable anonymous memory (JavaScriptCore's JIT code), other anonymous memory (the
    JavaScript heap, WebKit's allocator, malloc), shared memory and files."""
    kinds = {"jit": 0, "anonymous": 0, "shared": 0, "files": 0}
    for p, name in process_tree(pid):
        if not name.startswith("WebKitWebProces"):
            continue
        try:
            with open(f"/proc/{p}/smaps") as f:
                kind = None
                for line in f:
                    fields = line.split()
                    if "-" in fields[0] and len(fields) >= 5 and ":" in fields[3]:
                        perms, path = fields[1], " ".join(fields[5:])
                        if path.startswith("/") and not path.startswith("/memfd:"):
                            kind = "files"
                        elif path.startswith(("/memfd:", "/dev/shm", "/SYSV")) or perms[3] == "s":
                            kind = "shared"
                        elif "x" in perms:
                            kind = "jit"
                        else:
                            kind = "anonymous"
                    elif fields[0] == "Rss:" and kind:
                        kinds[kind] += int(fields[1])
        except OSError:
            continue
    return {k: round(v / 1024, 1) for k, v in kinds.items()}


def memory(pid):
    """Resident set (RSS) and proportional set (PSS: shared pages split between the processes
    that map them, so the sum is not inflated by shared libraries) of the app and its WebKit
    processes, in MiB, in total and by process name."""
    total_rss = total_pss = 0
    by_name = {}
    for p, name in process_tree(pid):
        rss = pss = 0
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Rss:"):
                        rss = int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss = int(line.split()[1])
        except OSError:
            continue
        total_rss += rss
        total_pss += pss
        entry = by_name.setdefault(name, {"rss_mib": 0.0, "pss_mib": 0.0})
        entry["rss_mib"] = round(entry["rss_mib"] + rss / 1024, 1)
        entry["pss_mib"] = round(entry["pss_mib"] + pss / 1024, 1)
    return {"rss_mib": round(total_rss / 1024, 1), "pss_mib": round(total_pss / 1024, 1),
            "by_process": by_name}


def cpu_seconds(pid):
    """CPU time (user + system) used so far by the app and each of its processes, by name."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {}
    for p, name in process_tree(pid):
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().split(") ", 1)[1].split()
            used[name] = used.get(name, 0) + (int(fields[11]) + int(fields[12])) / tick
        except OSError:
            pass
    return used


def cpu_used(before, after):
    return {name: round(after.get(name, 0) - before.get(name, 0), 2) for name in after}


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


class BenchApp(e2e.App):
    """The e2e harness's app, ended by its pid (SIGTERM, then SIGKILL) rather than by name."""

    def __exit__(self, *exc):
        if exc[0] is not None:
            try:
                self.wd.screenshot(os.path.join(e2e.ARTIFACTS, f"bench-{self.name}-failure.png"))
            except Exception:
                pass
        pid = self.pid
        if pid:
            os.kill(pid, signal.SIGTERM)
            try:
                e2e.wait_for("the app to exit", lambda: not alive(pid), timeout=15)
            except AssertionError:
                os.kill(pid, signal.SIGKILL)
                time.sleep(0.5)
        try:
            import dbus
            bus = dbus.SessionBus()
            e2e.wait_for("the single-instance name to go", lambda: not any(
                "SingleInstance" in str(n) for n in bus.list_names()), timeout=10)
        except Exception as e:
            print(f"  (could not check the bus: {e})", flush=True)
        self.wd.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def execute_async(self, script, *args):
        return self.wd.s("POST", "/execute/async", {"script": script, "args": list(args)})

    def bench_on(self):
        self.wd.execute("window.__askfirstBench = { cards: {} }")

    def bench_cards(self):
        return self.wd.execute("return window.__askfirstBench.cards")

    def take_bench_cards(self):
        """The bench log's cards so far, emptied in the page: a soak keeps them here, so the
        page's memory does not hold the benchmark's own records of every approval."""
        return self.wd.execute(
            "const cards = window.__askfirstBench.cards;"
            "window.__askfirstBench.cards = {};"
            "return cards;")

    def audit(self):
        """Every record of every session log, in file order."""
        folder = os.path.join(self.data, "sessions")
        records = []
        for name in sorted(n for n in os.listdir(folder) if n.endswith(".jsonl")):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                records.extend(json.loads(line) for line in f if line.strip())
        return records

    def first_card_id(self):
        """The approval id of the first card shown, once there is one (no element handle)."""
        return e2e.wait_for("an approval card", lambda: self.wd.execute(
            "const c = document.querySelector('[data-testid=\"approval-card\"]');"
            "return c && c.getAttribute('data-approval-id');"))

    def press_at(self, approval_id, testid):
        """Clicks a card's button once it is armed, as a person would: the pointer moved to the
        button's middle and pressed there (WebDriver pointer actions at viewport coordinates,
        which the page reads out as numbers), so WebDriver holds no element of the card."""
        def place():
            return self.wd.execute("""
                const [id, testid] = arguments;
                const card = [...document.querySelectorAll('[data-testid="approval-card"]')]
                  .find(c => c.getAttribute('data-approval-id') === id);
                const b = card && card.querySelector('[data-testid="' + testid + '"]');
                if (!b || b.disabled || b.getAttribute('aria-disabled') === 'true') return null;
                const r = b.getBoundingClientRect();
                return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];""", approval_id, testid)
        x, y = e2e.wait_for(f"{testid} of card {approval_id} to be armed", place)
        steps = [{"type": "pointerMove", "duration": 0, "origin": "viewport", "x": x, "y": y},
                 {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]
        self.wd.s("POST", "/actions", {"actions": [{"type": "pointer", "id": "mouse",
                                                    "parameters": {"pointerType": "mouse"}, "actions": steps}]})

    def card_gone(self, approval_id):
        return not self.wd.execute(
            "return [...document.querySelectorAll('[data-testid=\"approval-card\"]')]"
            ".some(c => c.getAttribute('data-approval-id') === arguments[0]);", approval_id)

    def dom_nodes(self):
        return self.wd.execute("return document.getElementsByTagName('*').length")

    def run_events(self):
        """How many events the backend's history holds (what a reloaded window replays)."""
        return self.execute_async(
            "const done = arguments[arguments.length - 1];"
            "window.__TAURI_INTERNALS__.invoke('list_run_events').then(e => done(e.length), e => done(String(e)));")


# --- helpers ------------------------------------------------------------------------------

def merge_bench_cards(cards, taken):
    """Adds the bench log's records `taken` out of the page to `cards`: a card whose record was
    taken part way (the next card, already arrived) is stamped on in a new record, and the
    first stamp of each kind is the one kept, as in the page (bench.ts)."""
    for approval_id, record in taken.items():
        kept = cards.setdefault(approval_id, {})
        for what, at in record.items():
            kept.setdefault(what, at)


def stats(values):
    """p50 / p95 / max (and n) of a list of milliseconds."""
    v = sorted(values)
    if not v:
        return {"n": 0}
    return {"n": len(v), "p50": round(statistics.median(v), 1), "p95": round(v[int(0.95 * (len(v) - 1))], 1),
            "max": round(v[-1], 1), "min": round(v[0], 1)}


def write_scenario(path, turns):
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"turns": turns}, f)


def asked_and_decided(records):
    asked = {r["approval_id"]: r for r in records if r.get("type") == "approval_asked"}
    decided = {r["approval_id"]: r for r in records if r.get("type") == "approval_decided"}
    return asked, decided


# The intervals between 61 animation frames while nothing is scrolled (what the page paints
# on its own: countdowns, spinners).
FRAMES_JS = """
    const done = arguments[arguments.length - 1];
    const frames = [];
    let prev = performance.now();
    const step = () => {
      const now = performance.now();
      frames.push(now - prev);
      prev = now;
      if (frames.length < 61) requestAnimationFrame(step); else done(frames);
    };
    requestAnimationFrame(step);"""


# --- parts --------------------------------------------------------------------------------

def part_start(results):
    scenario = os.path.join(e2e.ARTIFACTS, "bench-start.json")
    write_scenario(scenario, [{"say": "done"}])
    starts, paints = [], []
    for i in range(START_RUNS):
        t0 = time.monotonic()
        with BenchApp("start", scenario) as app:
            starts.append(round(time.monotonic() - t0, 2))
            paints.append(page_start(app))
            if i == 0:
                time.sleep(3)
                idle3 = memory(app.pid)
                time.sleep(7)
                idle10 = memory(app.pid)
                processes = sorted(name for _, name in process_tree(app.pid))
    results["start"] = {
        "binary_bytes": os.path.getsize(e2e.APP),
        "cold_start_to_usable_window_s": starts,
        "note": "WebDriver new session (launches the app) until the page is loaded and the task box exists",
        "from_the_page_ms": paints,
        "median_process_start_to_first_contentful_paint_ms": statistics.median(
            p["process_start_to_first_contentful_paint_ms"] for p in paints),
        "median_process_start_to_task_box_enabled_ms": statistics.median(
            p["process_start_to_task_box_enabled_ms"] for p in paints),
        "idle_3s": idle3,
        "idle_10s": idle10,
        "processes": processes,
    }


def process_started_ms(pid):
    """When process `pid` started, Unix ms (/proc/<pid>/stat's start time: clock ticks since boot)."""
    with open(f"/proc/{pid}/stat") as f:
        ticks = int(f.read().split(") ", 1)[1].split()[19])
    with open("/proc/stat") as f:
        boot = next(int(line.split()[1]) for line in f if line.startswith("btime "))
    return boot * 1000 + ticks * 1000 / os.sysconf("SC_CLK_TCK")


def page_start(app):
    """The start as the page saw it: the app process's start (10 ms resolution) to the page's
    navigation start, its first contentful paint and when the task box was found enabled (the
    harness polls for it, so this is an upper bound); and, from the navigation's start, when
    the HTML was received, every module evaluated, the first screen mounted, the document
    loaded and the first contentful paint."""
    started = process_started_ms(app.pid)
    e2e.wait_for("the task box enabled", lambda: app.wd.execute(
        "const b = document.querySelector('[data-testid=\"task-input\"]'); return !!b && !b.disabled;"),
        timeout=30, interval=0.02)
    origin, fcp, now, page = app.wd.execute(
        "const p = performance.getEntriesByName('first-contentful-paint')[0];"
        "const n = performance.getEntriesByType('navigation')[0];"
        "const mark = (name) => { const m = performance.getEntriesByName(name)[0];"
        "  return m ? Math.round(m.startTime) : null; };"
        "return [performance.timeOrigin, p ? p.startTime : null, Date.now(), {"
        "  html_received: n ? Math.round(n.responseEnd) : null,"
        "  modules_evaluated: mark('askfirst-modules-evaluated'),"
        "  mounted: mark('askfirst-mounted'),"
        "  dom_content_loaded: n ? Math.round(n.domContentLoadedEventEnd) : null,"
        "  first_contentful_paint: p ? Math.round(p.startTime) : null}];")
    return {"process_start_to_page_navigation_ms": round(origin - started, 1),
            "process_start_to_first_contentful_paint_ms": round(origin + fcp - started, 1) if fcp is not None else None,
            "process_start_to_task_box_enabled_ms": round(now - started, 1),
            # ms after the page's navigation started (main.ts sets the two marks).
            "in_the_page_ms": page}


def end_group(proc):
    """Ends the process group of `proc` (started with start_new_session): SIGTERM, and SIGKILL
    when it is not gone within 15 s."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def direct_env(tmp, scenario, base=None):
    """The environment of Ask First launched directly (no WebDriver): `base` (the bench's own
    environment) with a data folder and a workspace (made) in the folder `tmp`, the scripted
    provider playing `scenario`, and no notifications."""
    env = dict(os.environ if base is None else base, ASKFIRST_DATA_DIR=os.path.join(tmp, "data"),
               ASKFIRST_WORKSPACE=os.path.join(tmp, "workspace"),
               ASKFIRST_PROVIDER=f"scripted:{scenario}", ASKFIRST_NOTIFY="never")
    os.makedirs(env["ASKFIRST_WORKSPACE"])
    return env


def idle_memory(argv, env, seconds=12):
    """Starts `argv` directly (its own process group), waits `seconds`, measures memory and
    the processes it runs, ends the group; returns the figures."""
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        time.sleep(seconds)
        figures = memory(proc.pid)
        figures["processes"] = sorted(name for _, name in process_tree(proc.pid))
        return figures
    finally:
        end_group(proc)


def viewable_window(d, window, pid, title):
    """The viewable window titled `title` of process `pid` (its `_NET_WM_PID`) at or under
    `window` on the X display `d` (python-xlib), or None."""
    from Xlib import X
    try:
        prop = window.get_full_property(d.intern_atom("_NET_WM_PID"), 0)
        if (window.get_wm_name() == title and prop is not None and prop.value[0] == pid
                and window.get_attributes().map_state == X.IsViewable):
            return window
        children = window.query_tree().children
    except Exception:  # a window that went away meanwhile
        return None
    for child in children:
        found = viewable_window(d, child, pid, title)
        if found is not None:
            return found
    return None


def mapped_after(argv, env, title):
    """Starts `argv` directly (its own process group) and returns (seconds from exec until a
    window titled `title` of that process is viewable on the X server, seconds until its top
    left 400 x 160 pixels hold text: more than 8 colours, where a blank page has one or two);
    ends the group. Both polled every ~2 ms (the pixels read with XGetImage)."""
    from Xlib import X, display
    d = display.Display()

    def find(window):
        return viewable_window(d, window, proc.pid, title)

    t0 = time.monotonic()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        window = None
        while window is None:
            if time.monotonic() - t0 > 30:
                raise AssertionError(f"{argv[0]}: no window titled {title!r} within 30 s")
            time.sleep(0.002)
            window = find(d.screen().root)
        mapped = round(time.monotonic() - t0, 3)
        while True:
            if time.monotonic() - t0 > 30:
                raise AssertionError(f"{argv[0]}: its window showed no text within 30 s")
            try:
                raw = window.get_image(0, 0, 400, 160, X.ZPixmap, 0xFFFFFFFF).data
                if len({raw[i:i + 4] for i in range(0, len(raw), 4)}) > 8:
                    return mapped, round(time.monotonic() - t0, 3)
            except Exception:
                pass
            time.sleep(0.002)
    finally:
        d.close()
        end_group(proc)


def part_mapped(results):
    import tempfile
    scenario = os.path.join(e2e.ARTIFACTS, "bench-mapped.json")
    write_scenario(scenario, [{"say": "done"}])
    runs = {"floor": [], "askfirst": []}
    for _ in range(START_RUNS):
        runs["floor"].append(mapped_after([FLOOR], dict(os.environ), "Floor"))
        tmp = tempfile.mkdtemp(prefix="askfirst-bench-mapped-")
        env = direct_env(tmp, scenario)
        try:
            runs["askfirst"].append(mapped_after([e2e.APP], env, "Ask First"))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        time.sleep(1)
    out = {"note": "exec until the window is viewable, and until its top left shows text (no "
                   "WebDriver), the minimal app and Ask First alternately"}
    for name, pairs in runs.items():
        out[name] = {"viewable_s": [m for m, _ in pairs], "text_s": [t for _, t in pairs],
                     "viewable_median_s": statistics.median(m for m, _ in pairs),
                     "text_median_s": statistics.median(t for _, t in pairs)}
    results["mapped"] = out


def start_cost(argv, env, seconds):
    """Starts `argv` directly (its own process group), waits `seconds` and ends the group;
    returns (the CPU seconds each of its processes used, by name; what they printed, short of
    what each process still held in its output buffer when it was ended: fontconfig's matches
    print ~8 KB each, so at most one a process). Raises when the app did not live that long."""
    import tempfile
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(argv, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            time.sleep(seconds)
            if not alive(proc.pid):
                raise AssertionError(f"{argv[0]} ended within {seconds} s of its start")
            used = cpu_seconds(proc.pid)
        finally:
            end_group(proc)
        out.seek(0)
        return used, out.read().decode(errors="replace")


def part_fonts(results):
    import tempfile
    scenario = os.path.join(e2e.ARTIFACTS, "bench-fonts.json")
    write_scenario(scenario, [{"say": "done"}])
    runs = {"floor": {"matches": [], "cpu_s": []}, "askfirst": {"matches": [], "cpu_s": []}}
    for _ in range(START_RUNS):
        for name in runs:
            for debug in (True, False):
                tmp = tempfile.mkdtemp(prefix="askfirst-bench-fonts-")
                env = dict(os.environ)
                if debug:
                    env["FC_DEBUG"] = "1"
                argv = [FLOOR]
                if name == "askfirst":
                    argv = [e2e.APP]
                    env = direct_env(tmp, scenario, env)
                try:
                    used, printed = start_cost(argv, env, 4 if debug else 3)
                finally:
                    shutil.rmtree(tmp, ignore_errors=True)
                if debug:
                    runs[name]["matches"].append(printed.count("Match Pattern"))
                else:
                    runs[name]["cpu_s"].append({n: round(v, 2) for n, v in used.items()})
                time.sleep(0.5)
    out = {"note": "fontconfig matches in the first 4 s (FC_DEBUG=1), and CPU seconds by process "
                   "in the first 3 s of starts without it; the minimal app and Ask First alternately"}
    for name, got in runs.items():
        names = sorted({n for row in got["cpu_s"] for n in row})
        out[name] = {**got, "matches_median": statistics.median(got["matches"]),
                     "cpu_s_median": {n: round(statistics.median(row.get(n, 0) for row in got["cpu_s"]), 2)
                                      for n in names}}
    results["fonts"] = out


def part_floor(results):
    import tempfile
    out = {"floor_binary_bytes": os.path.getsize(FLOOR), "app_binary_bytes": os.path.getsize(e2e.APP),
           "rounds": []}
    scenario = os.path.join(e2e.ARTIFACTS, "bench-floor.json")
    write_scenario(scenario, [{"say": "done"}])
    for _ in range(FLOOR_ROUNDS):
        row = {"floor": idle_memory([FLOOR], dict(os.environ))}
        for variant in WEBKIT_VARIANTS:
            tmp = tempfile.mkdtemp(prefix="askfirst-bench-floor-")
            env = direct_env(tmp, scenario)
            if variant != "default":
                env["ASKFIRST_WEBKIT"] = variant.replace("+", ",")
            try:
                row[f"askfirst[{variant}]"] = idle_memory([e2e.APP], env)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        out["rounds"].append(row)
        print("  floor round:", {k: (v["rss_mib"], v["pss_mib"]) for k, v in row.items()}, flush=True)
    names = list(out["rounds"][0])
    out["pss_mib_median"] = {n: statistics.median(r[n]["pss_mib"] for r in out["rounds"]) for n in names}
    out["rss_mib_median"] = {n: statistics.median(r[n]["rss_mib"] for r in out["rounds"]) for n in names}
    floor = out["pss_mib_median"]["floor"]
    out["pss_ratio_to_floor"] = {n: round(v / floor, 3) for n, v in out["pss_mib_median"].items()}
    results["floor"] = out


def soak_call(name):
    """The soak's tool call that writes the file `name`: a command that writes when it started
    (ns; a file's mtime is too coarse for the command's start), or with SOAK_TOOL=write_file a
    write (its start is then the file's mtime)."""
    if SOAK_TOOL == "run_command":
        return {"name": "run_command", "arguments": {"command": f"date +%s%N > {name}"}}
    return {"name": "write_file", "arguments": {"path": name, "content": "written\n"}}


def part_soak(results):
    scenario = os.path.join(e2e.ARTIFACTS, "bench-soak.json")
    write_scenario(scenario, [{"say": "done"}])
    env = {"ASKFIRST_APPROVAL_TIMEOUT_SECS": str(TIMEOUT_SECS)}
    samples = []
    order = []  # (approval id, file written)
    cards = {}  # the bench log's records, taken out of the page at each sample
    with BenchApp("soak", scenario, env) as app:
        app.bench_on()
        time.sleep(3)
        pid = app.pid
        samples.append({"approvals": 0, **memory(pid), "dom_nodes": app.dom_nodes()})
        t_start = time.monotonic()
        for i in range(SOAK):
            task = i // PER_RUN
            if i % PER_RUN == 0:
                if i:
                    assert app.wait_finished() == "completed"
                # The scenario is read when a run starts: each task writes its own files.
                write_scenario(scenario, [{"tool_calls": [soak_call(f"t{task}-f{k}.txt")]}
                                          for k in range(PER_RUN)] + [{"say": "done"}])
                app.start_task(f"Write many files ({task + 1})")
            if SOAK_CLICK == "element":
                card = app.card()
                approval_id = app.wd.attr(card, "data-approval-id")
                app.press(card, "approve")
                e2e.wait_for("the card to go", lambda: not app.wd.find_all(f'[data-approval-id="{approval_id}"]'))
            else:
                approval_id = app.first_card_id()
                app.press_at(approval_id, "approve")
                e2e.wait_for("the card to go", lambda: app.card_gone(approval_id))
            order.append((approval_id, os.path.join(app.workspace, f"t{task}-f{i % PER_RUN}.txt")))
            if (i + 1) % SOAK_SAMPLE_EVERY == 0 or i + 1 == 10:
                merge_bench_cards(cards, app.take_bench_cards())
                samples.append({"approvals": i + 1, **memory(pid), "dom_nodes": app.dom_nodes()})
                if SOAK_SETTLE:
                    # Nothing is asked meanwhile: the task ends, or its next card waits (the
                    # bench's approvals time out after an hour).
                    time.sleep(SOAK_SETTLE)
                    samples[-1]["settled"] = {**memory(pid), "page_mappings": page_mappings(pid)}
                print(f"  soak: {i + 1} approvals, {samples[-1]['rss_mib']} MiB RSS, PSS by process "
                      f"{ {n: v['pss_mib'] for n, v in samples[-1]['by_process'].items()} }"
                      + (f", RSS by process after {SOAK_SETTLE:g} s "
                         f"{ {n: v['rss_mib'] for n, v in samples[-1]['settled']['by_process'].items()} }"
                         if SOAK_SETTLE else ""), flush=True)
        assert app.wait_finished() == "completed"
        elapsed = time.monotonic() - t_start
        time.sleep(3)
        after = {"approvals": SOAK, **memory(pid), "dom_nodes": app.dom_nodes(), "run_events": app.run_events()}
        # A new session clears the transcript (the window's part of the growth).
        app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
        app.wd.click(e2e.wait_for("new session", lambda: app.wd.find_all('[data-testid="new-session"]'))[0])
        e2e.wait_for("an empty transcript", lambda: not app.wd.find_all('[data-testid="tool-call"]'))
        time.sleep(10)
        new_session = {**memory(pid), "dom_nodes": app.dom_nodes(), "run_events": app.run_events()}
        merge_bench_cards(cards, app.take_bench_cards())
        asked, decided = asked_and_decided(app.audit())
        listing = sorted(os.listdir(app.workspace))
        written = len([n for n in listing if n.endswith(".txt")])
        started = {}
        for _, path in order:
            if SOAK_TOOL == "run_command":
                with open(path) as f:
                    started[path] = int(f.read().strip()) / 1e6
            else:
                started[path] = os.stat(path).st_mtime_ns / 1e6

    painted, received, armed, usable, click_decided, click_tool, decided_tool = [], [], [], [], [], [], []
    for approval_id, path in order:
        c, a, d = cards.get(approval_id, {}), asked[approval_id]["at"], decided[approval_id]["at"]
        received.append(c["received"] - a)
        painted.append(c["painted"] - a)
        armed.append(c["armed"] - c["painted"])
        usable.append(c["armed"] - a)
        click_decided.append(d - c["clicked"])
        tool_ms = started[path]
        click_tool.append(tool_ms - c["clicked"])
        decided_tool.append(tool_ms - d)
    results["soak"] = {
        "approvals": SOAK,
        "click": SOAK_CLICK,
        "tool": SOAK_TOOL,
        "files_written": written,
        "elapsed_s": round(elapsed, 1),
        "round_trip_ms": {
            "core_asked_to_event_in_window": stats(received),
            "core_asked_to_card_painted": stats(painted),
            "card_painted_to_buttons_armed_and_painted": stats(armed),
            "core_asked_to_card_usable": stats(usable),
            "click_to_decision_recorded": stats(click_decided),
            "click_to_tool_started": stats(click_tool),
            "decision_recorded_to_tool_started": stats(decided_tool),
        },
        "memory": samples + [after],
        "settle_s": SOAK_SETTLE,
        "after_new_session": new_session,
    }


def part_sessions(results):
    """ASKFIRST_BENCH_ROUNDS rounds of ASKFIRST_BENCH_ROUND approvals, each round in a new
    session (which empties the window): if the page reuses what the previous session freed, the
    resident set after each round levels off; if something leaks, it climbs by the same amount
    every round."""
    rounds = int(os.environ.get("ASKFIRST_BENCH_ROUNDS", "3"))
    per_round = int(os.environ.get("ASKFIRST_BENCH_ROUND", "200"))
    scenario = os.path.join(e2e.ARTIFACTS, "bench-sessions.json")
    write_scenario(scenario, [{"say": "done"}])
    env = {"ASKFIRST_APPROVAL_TIMEOUT_SECS": str(TIMEOUT_SECS)}
    after = []
    with BenchApp("sessions", scenario, env) as app:
        time.sleep(3)
        pid = app.pid
        after.append({"round": 0, **memory(pid)})
        task = 0
        for r in range(rounds):
            for i in range(per_round):
                if i % PER_RUN == 0:
                    if i:
                        assert app.wait_finished() == "completed"
                    write_scenario(scenario, [
                        {"tool_calls": [{"name": "write_file",
                                         "arguments": {"path": f"s{task}-{k}.txt", "content": "x\n"}}]}
                        for k in range(PER_RUN)] + [{"say": "done"}])
                    task += 1
                    app.start_task(f"Round {r + 1}, task {task}")
                card = app.card()
                approval_id = app.wd.attr(card, "data-approval-id")
                app.press(card, "approve")
                e2e.wait_for("the card to go", lambda: not app.wd.find_all(f'[data-approval-id="{approval_id}"]'))
            assert app.wait_finished() == "completed"
            app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
            app.wd.click(e2e.wait_for("new session", lambda: app.wd.find_all('[data-testid="new-session"]'))[0])
            e2e.wait_for("an empty transcript", lambda: not app.wd.find_all('[data-testid="tool-call"]'))
            time.sleep(10)
            after.append({"round": r + 1, "approvals": (r + 1) * per_round, **memory(pid), "dom_nodes": app.dom_nodes()})
            print(f"  sessions: round {r + 1}, {after[-1]['rss_mib']} MiB", flush=True)
    results["sessions"] = {"rounds": rounds, "approvals_per_round": per_round, "after_each_new_session": after}


def part_thousand(results):
    scenario = os.path.join(e2e.ARTIFACTS, "bench-thousand.json")
    write_scenario(scenario, [
        {"say": f"I will write {PARALLEL} files.",
         "tool_calls": [{"name": "write_file", "arguments": {"path": f"p{k}.txt", "content": f"{k}\n"}}
                        for k in range(PARALLEL)]},
        {"say": "All handled."}])
    env = {"ASKFIRST_APPROVAL_TIMEOUT_SECS": str(TIMEOUT_SECS)}
    out = {"cards": PARALLEL}
    # In place: what was measured before a later step failed (a script timing out under load)
    # is kept in the results.
    results["thousand"] = out
    burst_turns = json.load(open(scenario, encoding="utf-8"))["turns"]
    with BenchApp("thousand", scenario, env) as app:
        app.bench_on()
        time.sleep(3)
        pid = app.pid
        if WARM_CARD:
            # One lone card shown and answered before the burst: the burst then meets a page
            # that has drawn a card before (its code compiled, its fonts loaded).
            write_scenario(scenario, [
                {"tool_calls": [{"name": "write_file", "arguments": {"path": "warm.txt", "content": "w\n"}}]},
                {"say": "ok"}])
            app.start_task("Warm up")
            app.press(app.card(), "approve")
            assert app.wait_finished() == "completed"
            write_scenario(scenario, burst_turns)
            time.sleep(2)
        out["memory_before"] = memory(pid)
        out["idle_frame_interval_ms_empty_window"] = stats(app.execute_async(FRAMES_JS)[1:])
        cpu_before = cpu_seconds(pid)
        # Every frame the page paints while the cards arrive (the gaps show how long it could
        # not paint or answer the person).
        app.wd.execute("""
            window.__burstFrames = [];
            let prev = performance.now();
            const step = () => {
              const now = performance.now();
              window.__burstFrames.push([now, now - prev]);
              prev = now;
              if (!window.__burstFramesStop) requestAnimationFrame(step);
            };
            requestAnimationFrame(step);""")
        # The list is virtualised (only the cards in view are drawn): "usable" is the count
        # saying PARALLEL and the last card drawn after a jump to the bottom of the list.
        app.wd.execute("""
            const want = String(arguments[0]);
            window.__usable = {};
            const poll = () => {
              const count = document.querySelector('.approvals .count');
              if (count && count.textContent === want) {
                window.__usable.counted = Date.now();
                const main = document.querySelector('main');
                const last = () => document.querySelector('[data-testid="approval-card"][aria-posinset="' + want + '"]');
                const jump = () => {
                  // The list's end (the conversation follows it in the same scrolling view).
                  document.querySelector('.approvals').scrollIntoView({ block: 'end' });
                  if (last()) { window.__usable.last_drawn = Date.now(); main.scrollTop = 0; }
                  else requestAnimationFrame(jump);
                };
                jump();
              } else requestAnimationFrame(poll);
            };
            requestAnimationFrame(poll);""", PARALLEL)
        clicked_start = time.time() * 1000
        app.start_task(f"Write {PARALLEL} files")
        usable = e2e.wait_for("the list to be usable", lambda: (lambda u: u if u and "last_drawn" in u else None)(app.wd.execute("return window.__usable")), timeout=600, interval=0.2)
        out["cpu_seconds_until_usable"] = cpu_used(cpu_before, cpu_seconds(pid))
        burst = app.wd.execute("window.__burstFramesStop = true; return [performance.timeOrigin, window.__burstFrames]")
        time.sleep(2)
        cards = app.bench_cards()
        asked, _ = asked_and_decided(app.audit())
        # The burst's cards only (not a warm-up card's).
        asked = {i: r for i, r in asked.items() if r["at"] >= clicked_start}
        cards = {i: v for i, v in cards.items() if i in asked}
        first_asked = min(r["at"] for r in asked.values())
        last_asked = max(r["at"] for r in asked.values())
        out["start_clicked_to_first_asked_ms"] = round(first_asked - clicked_start, 1)
        out["core_first_to_last_asked_ms"] = last_asked - first_asked
        by_paint = sorted(v["painted"] for v in cards.values() if "painted" in v)
        out["core_first_asked_to_first_painted_ms"] = by_paint[0] - first_asked
        out["core_first_asked_to_count_right_ms"] = usable["counted"] - first_asked
        out["core_first_asked_to_last_card_drawn_ms"] = usable["last_drawn"] - first_asked
        out["cards_drawn_on_the_way"] = len(by_paint)
        origin, frames = burst
        during = [gap for at, gap in frames if first_asked <= origin + at <= usable["last_drawn"] + 1]
        out["frame_interval_ms_while_cards_arrive"] = stats(during)
        out["core_first_asked_to_all_in_window_ms"] = max(v["received"] for v in cards.values()) - first_asked
        out["per_card_asked_to_in_window_ms"] = stats([cards[i]["received"] - asked[i]["at"] for i in cards if i in asked])
        # The hops between: the event recorded in the session log (its writer thread passes it
        # on to the bridge only then), and the event's script run in the page (before it waits
        # for a frame to join the list).
        logged = {r["event"]["approval_id"]: r["at"] for r in app.audit()
                  if r.get("type") == "event" and r.get("event", {}).get("type") == "approval_required"}
        arrived = {i: v["arrived"] for i, v in cards.items() if "arrived" in v}
        if logged:
            out["core_first_asked_to_first_logged_ms"] = min(logged.values()) - first_asked
            out["per_card_asked_to_logged_ms"] = stats([logged[i] - asked[i]["at"] for i in logged if i in asked])
        if arrived:
            out["core_first_asked_to_first_arrived_ms"] = min(arrived.values()) - first_asked
            out["core_first_asked_to_last_arrived_ms"] = max(arrived.values()) - first_asked
            out["per_card_asked_to_arrived_ms"] = stats([arrived[i] - asked[i]["at"] for i in arrived if i in asked])
            out["per_card_arrived_to_in_window_ms"] = stats([cards[i]["received"] - arrived[i] for i in arrived if "received" in cards[i]])
        time.sleep(5)
        out["memory_all_shown"] = memory(pid)
        out["dom_nodes"] = app.dom_nodes()
        out["idle_frame_interval_ms_all_cards"] = stats(app.execute_async(FRAMES_JS)[1:])
        app.wd.screenshot(os.path.join(e2e.ARTIFACTS, "bench-thousand-top.png"))
        # Scrolling: jump to the bottom and wait for the next painted frame; then scroll back up
        # 300 px per frame for 120 frames and record each frame's interval.
        out["scroll"] = app.execute_async("""
            const done = arguments[arguments.length - 1];
            const main = document.querySelector('main');
            const t0 = performance.now();
            main.scrollTop = main.scrollHeight;
            requestAnimationFrame(() => setTimeout(() => {
              const jump = performance.now() - t0;
              const frames = [];
              let prev = performance.now(), n = 0;
              const step = () => {
                const now = performance.now();
                frames.push(now - prev);
                prev = now;
                if (n++ < 120) { main.scrollTop -= 300; requestAnimationFrame(step); }
                else done({ jump_to_bottom_painted_ms: jump, frames, height_px: main.scrollHeight });
              };
              requestAnimationFrame(step);
            }, 0));""")
        frames = out["scroll"].pop("frames")[1:]
        out["scroll"]["frame_interval_ms"] = stats(frames)
        out["scroll"]["jump_to_bottom_painted_ms"] = round(out["scroll"]["jump_to_bottom_painted_ms"], 1)
        app.wd.execute("document.querySelector('main').scrollTop = document.querySelector('main').scrollHeight / 2")
        time.sleep(1)
        app.wd.screenshot(os.path.join(e2e.ARTIFACTS, "bench-thousand-middle.png"))
        app.wd.execute("document.querySelector('main').scrollTop = 0")
        # Approve them all, one after another, as fast as they arm: a script in the page clicks
        # every drawn card's Approve button once it is armed (the cards that move up re-arm,
        # ApprovalCard's arming delay), until none is left. The clicks' times (bench log) and
        # the decisions' (audit log) show whether answering slows down as the list empties.
        t_click = time.time() * 1000
        app.wd.execute("""
            window.__approveAll = { clicks: 0, done: false };
            const clicked = new Set();
            const step = () => {
              for (const b of document.querySelectorAll('[data-testid="approval-card"] [data-testid="approve"]')) {
                const id = b.closest('[data-testid="approval-card"]').getAttribute('data-approval-id');
                if (clicked.has(id) || b.disabled || b.getAttribute('aria-disabled') === 'true') continue;
                clicked.add(id);
                window.__approveAll.clicks++;
                b.click();
              }
              if (document.querySelector('[data-testid="approval-card"]')) requestAnimationFrame(step);
              else window.__approveAll.done = true;
            };
            requestAnimationFrame(step);""")
        e2e.wait_for("every card to go", lambda: app.wd.execute("return window.__approveAll.done"), timeout=1800, interval=0.5)
        t_gone = time.time() * 1000
        assert app.wait_finished() == "completed"
        t_done = time.time() * 1000
        written = [os.stat(os.path.join(app.workspace, f"p{k}.txt")).st_mtime_ns / 1e6 for k in range(PARALLEL)]
        _, decided = asked_and_decided(app.audit())
        clicks = app.bench_cards()
        lag = sorted((clicks[i]["clicked"], decided[i]["at"] - clicks[i]["clicked"]) for i in decided if "clicked" in clicks.get(i, {}))
        times = [t for t, _ in lag]
        out["approve_all"] = {
            "clicks": app.wd.execute("return window.__approveAll.clicks"),
            "click_to_decision_recorded_ms_first_100": stats([d for _, d in lag[:100]]),
            "click_to_decision_recorded_ms_last_100": stats([d for _, d in lag[-100:]]),
            "first_100_answered_in_ms": round(times[99] - times[0], 1) if len(times) >= 100 else None,
            "last_100_answered_in_ms": round(times[-1] - times[-100], 1) if len(times) >= 100 else None,
            "first_click_to_all_cards_gone_ms": round(t_gone - t_click, 1),
            "first_click_to_run_finished_ms": round(t_done - t_click, 1),
            "first_click_to_last_tool_ran_ms": round(max(written) - t_click, 1),
            "files_written": len(written),
        }
        time.sleep(5)
        out["memory_after_all_resolved"] = memory(pid)
        out["dom_nodes_after"] = app.dom_nodes()
    results["thousand"] = out


def part_big(results):
    scenario = os.path.join(e2e.ARTIFACTS, "bench-big.json")
    env = {"ASKFIRST_APPROVAL_TIMEOUT_SECS": str(TIMEOUT_SECS)}
    runs = []
    write_scenario(scenario, [{"say": "ok"}])
    with BenchApp("big", None, env | {"ASKFIRST_PROVIDER": f"scripted:{scenario}"}) as app:
        app.bench_on()
        pid = app.pid
        before = memory(pid)
        for k in range(3):
            write_scenario(scenario, [
                {"tool_calls": [{"name": "write_file", "arguments": {"path": f"big{k}.txt", "content": "x" * 5_000_000}}]},
                {"say": "ok"}])
            app.start_task(f"Write a big file ({k + 1})")
            card = app.card()
            approval_id = app.wd.attr(card, "data-approval-id")
            c = e2e.wait_for("the card armed", lambda: (lambda c: c if "armed" in c else None)(
                app.bench_cards().get(approval_id, {})), timeout=120)
            asked, _ = asked_and_decided(app.audit())
            a = asked[approval_id]["at"]
            runs.append({"core_asked_to_event_in_window_ms": c["received"] - a,
                         "core_asked_to_card_painted_ms": c["painted"] - a,
                         "core_asked_to_card_usable_ms": c["armed"] - a})
            if k == 0:
                app.wd.screenshot(os.path.join(e2e.ARTIFACTS, "bench-big-card.png"))
            app.press(card, "approve")
            assert app.wait_finished() == "completed"
            assert os.path.getsize(os.path.join(app.workspace, f"big{k}.txt")) == 5_000_000
        time.sleep(3)
        after = memory(pid)
    results["big"] = {"argument_bytes": 5_000_000, "runs": runs, "memory_before": before, "memory_after_3": after}


def part_stream(results):
    server = subprocess.Popen([e2e.PYTHON, os.path.join(HERE, "stream_openai.py"), str(STREAM_RATE), str(STREAM_SECONDS)],
                              stdout=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().strip()
        base = f"http://127.0.0.1:{port}"

        def progress():
            import urllib.request
            with urllib.request.urlopen(base + "/progress", timeout=5) as r:
                return json.loads(r.read())

        env = {"ASKFIRST_PROVIDER": "openai", "OPENAI_BASE_URL": f"{base}/v1", "OPENAI_API_KEY": "sk-bench",
               "ASKFIRST_MODEL": "bench-model"}
        out = {"rate_per_s": STREAM_RATE, "seconds": STREAM_SECONDS, "streams": []}
        with BenchApp("stream", None, env) as app:
            pid = app.pid
            time.sleep(3)
            out["memory_before"] = memory(pid)
            for k in range(2):
                # Records when the window first shows the end marker, after that frame is painted.
                app.wd.execute("""
                    window.__streamEnd = null;
                    const before = document.querySelectorAll('[data-testid="assistant-message"]').length;
                    const seen = () => [...document.querySelectorAll('[data-testid="assistant-message"]')]
                      .slice(before).some(m => m.textContent.includes('[END]'));
                    const obs = new MutationObserver(() => {
                      if (window.__streamEnd === null && seen()) {
                        window.__streamEnd = 0;
                        obs.disconnect();
                        requestAnimationFrame(() => setTimeout(() => { window.__streamEnd = Date.now(); }, 0));
                      }
                    });
                    obs.observe(document.querySelector('main'), { subtree: true, childList: true, characterData: true });""")
                app.start_task(f"Talk fast ({k + 1})")
                samples, lags = [], []
                while True:
                    time.sleep(1)
                    p = progress()
                    shown = app.wd.execute("""
                        const ms = document.querySelectorAll('[data-testid="assistant-message"]');
                        const t = ms.length ? ms[ms.length - 1].textContent : '';
                        const m = t.match(/w(\\d+) ?$/);
                        return m ? Number(m[1]) + 1 : 0;""")
                    if p["streams"] == k + 1 and not p["done"] and p["sent"] > 0:
                        lags.append(max(0, p["sent"] - shown) / STREAM_RATE * 1000)
                    samples.append(memory(pid)["rss_mib"])
                    if p["streams"] == k + 1 and p["done"]:
                        break
                end = e2e.wait_for("the end marker on screen", lambda: app.wd.execute("return window.__streamEnd"), timeout=120)
                p = progress()
                assert app.wait_finished() == "completed"
                chars = app.wd.execute("""
                    const ms = document.querySelectorAll('[data-testid="assistant-message"]');
                    return ms[ms.length - 1].textContent.length;""")
                time.sleep(5)
                out["streams"].append({
                    "deltas_sent": p["sent"],
                    "last_delta_sent_to_shown_ms": end - p["last_sent_ms"],
                    "behind_during_stream_ms": stats(lags),
                    "text_chars": chars,
                    "rss_during_mib": {"min": min(samples), "max": max(samples)},
                    "after_5s": memory(pid),
                })
                print(f"  stream {k + 1}: {out['streams'][-1]['last_delta_sent_to_shown_ms']} ms behind at the end", flush=True)
            out["run_events"] = app.run_events()
        results["stream"] = out
    finally:
        server.kill()


def part_window1000(results):
    window_parts.part_window1000(results, sys.modules[__name__])


def part_long(results):
    window_parts.part_long(results, sys.modules[__name__])


def part_soak_direct(results):
    direct_soak.part_soak_direct(results, sys.modules[__name__])


def main():
    os.makedirs(e2e.ARTIFACTS, exist_ok=True)
    results = {"binary": e2e.APP, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "parts": PARTS,
               "arming_delay_ms": ARM_MS}
    timings = {}
    failed = []
    for part in PARTS:
        t0 = time.monotonic()
        print(f"bench {part} ...", flush=True)
        try:
            globals()[f"part_{part}"](results)
        except Exception:
            import traceback
            traceback.print_exc()
            failed.append(part)
        timings[part] = round(time.monotonic() - t0, 1)
        print(f"bench {part} ... {'FAILED' if part in failed else 'done'} ({timings[part]} s)", flush=True)
    results["part_seconds"] = timings
    text = json.dumps(results, indent=2)
    print(text)
    with open(os.path.join(e2e.ARTIFACTS, "bench-results.json"), "w") as f:
        f.write(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
