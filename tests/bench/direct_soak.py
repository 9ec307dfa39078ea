"""The soak without WebDriver (`soak_direct` part): is what the page keeps per approval the
app's, or the automation's?

The `soak` part drives the window over WebDriver, as the e2e tests do: every approval costs the
page several scripts run by WebKit's automation session (find the card, read its place, check it
has gone) and a pointer action synthesised by it. A person's window runs none of that. This part
starts Ask First directly (no WebDriver, as a person does) and answers the same
ASKFIRST_BENCH_SOAK approvals with the X server's XTEST extension (python-xlib): the pointer
clicks "Waiting for your OK" under the task box (which brings the first card into view and
focuses it), Tab reaches the card's Approve button and Space presses it, as a keyboard user
would. Tasks are typed into the task box and started with Enter. What happens is read from the
session log (`approval_asked`, `approval_decided`, the run's end), never from the page.

Where to click and how many Tabs, the window's own layout, are read once beforehand from the
same build under WebDriver (a calibration run of one task); the direct run then checks every
answer it gives in the session log (approved, and by the person), so a click that missed is
seen, not assumed.

Memory is sampled as the `soak` part does (every SOAK_SAMPLE_EVERY approvals, at once and again
after SOAK_SETTLE seconds), so the two parts' figures compare side by side.

With ASKFIRST_BENCH_JS_HEAP=1 the page's JavaScript heap is read too, from JavaScriptCore's own
log of its collections (`JSC_logGC=1`, which the web process reads at its start and writes to
the stderr it inherits from the app): at each sample, the last full collection since the one
before, what it found live (`v=`, kB) and the heap's size after it (`=>`, kB). The page's
resident set counts JavaScriptCore's heap with WebCore's own memory (the DOM, styles, layout)
and its allocator's free pages; the log tells the first from the rest.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

import e2e  # noqa: E402  (app_bench.py puts tests/e2e on the path first)

TAB_LIMIT = 12  # more focus stops than this between a card and its Approve button: give up
JS_HEAP = os.environ.get("ASKFIRST_BENCH_JS_HEAP") == "1"

# JavaScriptCore's log of one collection (`Heap::collectInMutatorThread` and friends in
# JavaScriptCore's Heap.cpp, WebKitGTK 2.50): "[GC<0x…>: START M 13909kb => FullCollection, …
# v=10230kb (…) … => 12122kb, p=…ms … END]": the heap's size before, the kind, the bytes visited
# (live) at each marking increment, and the heap's size after. A collection that lets the page
# run between its increments is logged over several lines, each "[GC<0x…>: …".
PIECE = re.compile(r"\[GC<(0x[0-9a-f]+)>: (.*)")
COLLECTION = re.compile(r"^START \S+ (\d+)kb => (\w+)Collection,(.*)=> (\d+)kb, p=.*END\]")


class JsHeap:
    """JavaScriptCore's log of collections in the file `path`, read as it grows: the collections
    of the web process's main heap (the one that collects most; a worker's heap is another)."""

    def __init__(self, path):
        self.path, self.offset, self.rest = path, 0, ""
        self.open = {}  # heap address -> the pieces of a collection not ended yet
        self.counts = {}  # heap address -> collections seen

    def new_collections(self):
        """Collections logged since the last call: [(heap, kind, live kB, after kB)]."""
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            data = f.read()
        self.offset += len(data)
        lines = (self.rest + data.decode("utf-8", "replace")).split("\n")
        self.rest = lines.pop()
        found = []
        for line in lines:
            piece = PIECE.search(line)
            if not piece:
                continue
            heap, text = piece.groups()
            if text.startswith("START "):
                self.open[heap] = text
            elif heap in self.open:
                self.open[heap] += " " + text
            else:
                continue
            m = COLLECTION.search(self.open[heap])
            if not m:
                continue
            del self.open[heap]
            visited = re.findall(r" v=(\d+)kb", m.group(3))
            self.counts[heap] = self.counts.get(heap, 0) + 1
            found.append((heap, m.group(2), int(visited[-1]) if visited else None, int(m.group(4))))
        return found

    def sample(self):
        """The page heap's last full collection since the last sample, and how many of each kind
        there were: {"full": n, "eden": n, "live_kib": …, "after_kib": …, "last_after_kib": …}
        (the last two of the last full collection, None where none happened; the third the
        heap's size after the last collection of either kind; the heap most collected is taken
        to be the page's)."""
        found = self.new_collections()
        main = max(self.counts, key=self.counts.get) if self.counts else None
        mine = [c for c in found if c[0] == main]
        full = [c for c in mine if c[1] == "Full"]
        return {"full": len(full), "eden": len(mine) - len(full),
                "live_kib": full[-1][2] if full else None, "after_kib": full[-1][3] if full else None,
                "last_after_kib": mine[-1][3] if mine else None}


def calibrate(bench):
    """Under WebDriver, one task of one approval: the viewport places (x, y) of the task box
    and of "Waiting for your OK", and how many Tabs lead from a focused card to its Approve
    button (a Tab that lands on Deny is never followed by Space here)."""
    scenario = os.path.join(e2e.ARTIFACTS, "bench-soak-direct-calibrate.json")
    bench.write_scenario(scenario, [{"tool_calls": [bench.soak_call("calibrate.txt")]}, {"say": "done"}])
    env = {"ASKFIRST_APPROVAL_TIMEOUT_SECS": str(bench.TIMEOUT_SECS)}
    centre = ("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
              "return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];")
    with bench.BenchApp("soak-direct-calibrate", scenario, env) as app:
        task_box = app.wd.execute(centre, '[data-testid="task-input"]')
        app.start_task("Write many files (calibration)")
        card = app.card()
        link = e2e.wait_for("Waiting for your OK", lambda: app.wd.find_all('[data-testid="show-waiting"]'))[0]
        waiting = app.wd.execute(centre, '[data-testid="show-waiting"]')
        e2e.wait_for("the card to be armed", lambda: app.wd.execute(
            "const b = document.querySelector('[data-testid=\"approve\"]');"
            "return !!b && !b.disabled && b.getAttribute('aria-disabled') !== 'true';"))
        app.wd.click(link)
        e2e.wait_for("the card focused", lambda: app.wd.execute(
            "return document.activeElement && document.activeElement.getAttribute('data-testid')")
            == "approval-card")
        tabs = None
        for n in range(1, TAB_LIMIT + 1):
            app.wd.s("POST", "/actions", {"actions": [{"type": "key", "id": "kb", "actions": [
                {"type": "keyDown", "value": e2e.TAB}, {"type": "keyUp", "value": e2e.TAB}]}]})
            if app.wd.execute("return document.activeElement && "
                              "document.activeElement.getAttribute('data-testid')") == "approve":
                tabs = n
                break
        assert tabs is not None, f"no Approve button within {TAB_LIMIT} Tabs of the focused card"
        app.press(card, "approve")
        assert app.wait_finished() == "completed"
    return {"task_box": task_box, "waiting_link": waiting, "tabs_to_approve": tabs}


class SessionLog:
    """Reads the records the app appends to its session logs (every `*.jsonl` under the data
    folder's `sessions`), each once, as they come."""

    def __init__(self, data):
        self.folder = os.path.join(data, "sessions")
        self.read = {}  # file -> bytes read (whole lines only)

    def new_records(self):
        out = []
        for path in sorted(glob.glob(os.path.join(self.folder, "*.jsonl"))):
            with open(path, "rb") as f:
                f.seek(self.read.get(path, 0))
                chunk = f.read()
            whole = chunk[:chunk.rfind(b"\n") + 1]
            self.read[path] = self.read.get(path, 0) + len(whole)
            out.extend(json.loads(line) for line in whole.split(b"\n") if line.strip())
        return out


class Keyboard:
    """The X server's XTEST extension: pointer clicks at root coordinates, keys by keysym."""

    def __init__(self):
        from Xlib import X, XK, display
        from Xlib.ext import xtest
        self.X, self.XK, self.xtest = X, XK, xtest
        self.d = display.Display()

    def click(self, x, y):
        X, d = self.X, self.d
        # Moved off and back: a card armed under a pointer that moved, as a hand's would.
        self.xtest.fake_input(d, X.MotionNotify, x=x + 40, y=y - 30)
        d.sync()
        time.sleep(0.05)
        self.xtest.fake_input(d, X.MotionNotify, x=x, y=y)
        d.sync()
        time.sleep(0.05)
        self.xtest.fake_input(d, X.ButtonPress, 1)
        self.xtest.fake_input(d, X.ButtonRelease, 1)
        d.sync()

    def key(self, name, shift=False):
        X, d = self.X, self.d
        code = d.keysym_to_keycode(self.XK.string_to_keysym(name))
        shift_code = d.keysym_to_keycode(self.XK.string_to_keysym("Shift_L"))
        if shift:
            self.xtest.fake_input(d, X.KeyPress, shift_code)
        self.xtest.fake_input(d, X.KeyPress, code)
        self.xtest.fake_input(d, X.KeyRelease, code)
        if shift:
            self.xtest.fake_input(d, X.KeyRelease, shift_code)
        d.sync()
        time.sleep(0.01)

    def type(self, text):
        names = {" ": "space", "(": "parenleft", ")": "parenright"}
        for ch in text:
            if ch.isupper():
                self.key(ch.lower(), shift=True)
            elif ch in "()":
                self.key(names[ch], shift=True)
            else:
                self.key(names.get(ch, ch))

    def window_origin(self, bench, pid, title="Ask First"):
        """The root coordinates of the top left of `pid`'s window titled `title`."""
        root = self.d.screen().root
        window = e2e.wait_for("the window", lambda: bench.viewable_window(self.d, root, pid, title),
                              timeout=30)
        origin = window.translate_coords(root, 0, 0)
        return -origin.x, -origin.y

    def close(self):
        self.d.close()


def part_soak_direct(results, bench):
    places = calibrate(bench)
    tmp = tempfile.mkdtemp(prefix="askfirst-bench-soak-direct-")
    scenario = os.path.join(tmp, "scenario.json")
    bench.write_scenario(scenario, [{"say": "done"}])
    env = bench.direct_env(tmp, scenario)
    env["ASKFIRST_APPROVAL_TIMEOUT_SECS"] = str(bench.TIMEOUT_SECS)
    log = SessionLog(env["ASKFIRST_DATA_DIR"])
    keys = Keyboard()
    js_heap = None
    stderr = subprocess.DEVNULL
    if JS_HEAP:
        env["JSC_logGC"] = "1"
        stderr = open(os.path.join(tmp, "stderr.log"), "wb")
        js_heap = JsHeap(stderr.name)
    proc = subprocess.Popen([e2e.APP], env=env, stdout=subprocess.DEVNULL, stderr=stderr,
                            start_new_session=True)
    samples, retries = [], 0
    try:
        ox, oy = keys.window_origin(bench, proc.pid)
        at = lambda place: (ox + place[0], oy + place[1])  # noqa: E731
        time.sleep(3)
        samples.append({"approvals": 0, **bench.memory(proc.pid)})
        asked, decided, finished = [], {}, 0
        t_start = time.monotonic()

        def absorb():
            nonlocal finished
            for r in log.new_records():
                if r.get("type") == "approval_asked":
                    asked.append(r["approval_id"])
                elif r.get("type") == "approval_decided":
                    decided[r["approval_id"]] = r
                elif r.get("type") == "event" and '"run_finished"' in json.dumps(r):
                    finished += 1

        for i in range(bench.SOAK):
            task = i // bench.PER_RUN
            if i % bench.PER_RUN == 0:
                if i:
                    e2e.wait_for("the task to finish", lambda: absorb() or finished >= task, timeout=60)
                bench.write_scenario(scenario, [{"tool_calls": [bench.soak_call(f"t{task}-f{k}.txt")]}
                                                for k in range(bench.PER_RUN)] + [{"say": "done"}])
                keys.click(*at(places["task_box"]))
                keys.type(f"Write many files ({task + 1})")
                keys.key("Return")
            e2e.wait_for(f"approval {i + 1} to be asked", lambda: absorb() or len(asked) > i, timeout=60)
            approval_id = asked[i]
            # The card arms 600 ms after it is drawn (ApprovalCard.svelte): wait as a person does.
            time.sleep(0.9)
            for attempt in range(4):
                keys.click(*at(places["waiting_link"]))
                time.sleep(0.15)
                for _ in range(places["tabs_to_approve"]):
                    keys.key("Tab")
                keys.key("space")
                try:
                    e2e.wait_for("the answer recorded", lambda: absorb() or approval_id in decided, timeout=3)
                    break
                except AssertionError:
                    retries += 1
            outcome = decided.get(approval_id, {}).get("outcome") or {}
            assert outcome.get("kind") == "approved", f"approval {i + 1} ({approval_id}): {decided.get(approval_id)}"
            if (i + 1) % bench.SOAK_SAMPLE_EVERY == 0 or i + 1 == 10:
                samples.append({"approvals": i + 1, **bench.memory(proc.pid)})
                if bench.SOAK_SETTLE:
                    time.sleep(bench.SOAK_SETTLE)
                    samples[-1]["settled"] = {**bench.memory(proc.pid),
                                              "page_mappings": bench.page_mappings(proc.pid)}
                if js_heap:
                    samples[-1]["js_heap"] = js_heap.sample()
                print(f"  soak_direct: {i + 1} approvals, RSS by process "
                      f"{ {n: v['rss_mib'] for n, v in samples[-1]['by_process'].items()} }"
                      + (f", JavaScript heap {samples[-1]['js_heap']}" if js_heap else ""), flush=True)
        e2e.wait_for("the last task to finish", lambda: absorb() or finished >= bench.SOAK // bench.PER_RUN,
                     timeout=60)
        elapsed = time.monotonic() - t_start
        written = len([n for n in os.listdir(env["ASKFIRST_WORKSPACE"]) if n.endswith(".txt")])
    finally:
        keys.close()
        bench.end_group(proc)
        if stderr is not subprocess.DEVNULL:
            stderr.close()
        shutil.rmtree(tmp, ignore_errors=True)
    results["soak_direct"] = {
        "approvals": bench.SOAK,
        "files_written": written,
        "elapsed_s": round(elapsed, 1),
        "calibration": places,
        "presses_again": retries,
        "settle_s": bench.SOAK_SETTLE,
        "memory": samples,
    }
