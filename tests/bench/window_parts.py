"""Bench parts that feed the window more than the core can make it hold (app_bench.py runs them).

The agent limits a model turn to 64 tool calls (MAX_TOOL_CALLS_PER_TURN) and the inbox to 32
waiting requests (inbox MAX_IN_FLIGHT), so neither can put 1,000 cards in the window, and a
scripted run stops after 25 model steps, so it cannot make a 10,000-entry conversation. These
parts measure the window's side of both with the app's own event path: the benchmark delivers
the events over WebDriver as Tauri delivers an emitted event (it evaluates
`window.__internal_unstable_listeners_function_id__({event, payload}, [listener ids])` in the
page; see tauri 2.12 `event::emit_js_script`), each in its own task, so they reach the same
handlers (ipc.ts `listenBoth`), the same per-frame batching (events.ts), the same stores and the
same virtualised lists as the backend's events. The backend's own events no longer come this
way but as answers to the window's `wait_run_events` long poll, which hands them to the same
handlers. What they do not measure: the core's side (asking, the audit log, the backend's JSON
encoding and the long poll's answers),
and the answers' round trip (the 1,000 fed cards are not in the core, so they are taken away
with fed `approval-resolved` events, not by clicks, which the core would refuse).

  window1000  one real card (a scripted write_file) plus 1,000 fed `approval-required` events
              with the real card's shape: first fed card painted, the count right, the last
              card drawn after a jump, frame intervals while they arrive, memory and DOM nodes
              with 1,001 cards, scrolling, then 1,000 fed `approval-resolved` one per frame
              (the list emptying from the top, as when a person answers one after another)
  long        a real run, then a fed run of 10,000 entries (5,000 messages and 5,000 finished
              tool calls, numbered on from the real events): memory and DOM nodes before and
              after, and scroll frame intervals over the whole conversation
"""
import os
import time

import e2e  # noqa: E402  (app_bench.py puts tests/e2e on the path first)

WINDOW_CARDS = int(os.environ.get("ASKFIRST_BENCH_WINDOW_CARDS", "1000"))
LONG_ENTRIES = int(os.environ.get("ASKFIRST_BENCH_LONG_ENTRIES", "10000"))

# Delivers `events` ([name, payload] pairs) the way the backend does, one task each, and calls
# `done` when the last has been handed over (a frame later, so its handling has run too).
FEED_JS = """
    window.__feed = function (events, done) {
      const internals = '__internal_unstable_listeners_object_id__';
      const deliver = window.__internal_unstable_listeners_function_id__;
      let left = events.length;
      for (const [event, payload] of events) {
        setTimeout(() => {
          const listeners = (window[internals] || {})[event] || {};
          const ids = Object.getOwnPropertyNames(listeners).map(Number);
          deliver({ event, payload: JSON.parse(JSON.stringify(payload)) }, ids);
          if (--left === 0) requestAnimationFrame(() => setTimeout(done, 0));
        }, 0);
      }
    };"""

# Records every frame's interval into window.__frames until window.__framesStop.
FRAMES_ON_JS = """
    window.__frames = [];
    window.__framesStop = false;
    let prev = performance.now();
    const step = () => {
      const now = performance.now();
      window.__frames.push([now, now - prev]);
      prev = now;
      if (!window.__framesStop) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);"""

# Scrolls `main` from the bottom to the top `px` per frame (at most `frames` frames) and returns
# each frame's interval.
SCROLL_JS = """
    const done = arguments[arguments.length - 1];
    const [px, most] = [arguments[0], arguments[1]];
    const main = document.querySelector('main');
    main.scrollTop = main.scrollHeight;
    requestAnimationFrame(() => setTimeout(() => {
      const frames = [];
      let prev = performance.now(), n = 0;
      const step = () => {
        const now = performance.now();
        frames.push(now - prev);
        prev = now;
        if (n++ < most && main.scrollTop > 0) { main.scrollTop -= px; requestAnimationFrame(step); }
        else done({ frames, height_px: main.scrollHeight });
      };
      requestAnimationFrame(step);
    }, 0));"""


def _long_scripts(app):
    """Lets a script run for up to 10 minutes (WebDriver's default is 30 s; a scroll through
    1,000 cards on a loaded machine takes longer)."""
    app.wd.s("POST", "/timeouts", {"script": 600_000})


def _run_async(app, script, *args):
    """An async script that may take up to 10 minutes (the harness's HTTP client waits 60 s)."""
    return app.wd._call("POST", f"/session/{app.wd.session}/execute/async",
                        {"script": script, "args": list(args)}, timeout=620)


def _invoke(app, command):
    return app.execute_async(
        "const done = arguments[arguments.length - 1];"
        f"window.__TAURI_INTERNALS__.invoke('{command}').then(done, e => done({{error: String(e)}}));")


def _feed(app, events):
    """Feeds `events` and waits until the last is handled; returns when feeding began (Unix ms)."""
    app.wd.execute(FEED_JS)
    t0 = time.time() * 1000
    _run_async(app, "const done = arguments[arguments.length - 1]; window.__feed(arguments[0], done);", events)
    return t0


def _frames_since(app, since_ms):
    origin, frames = app.wd.execute("window.__framesStop = true; return [performance.timeOrigin, window.__frames]")
    return [gap for at, gap in frames if origin + at >= since_ms][1:]


def part_window1000(results, bench):
    stats, memory, write_scenario = bench.stats, bench.memory, bench.write_scenario
    scenario = os.path.join(e2e.ARTIFACTS, "bench-window1000.json")
    write_scenario(scenario, [
        {"tool_calls": [{"name": "write_file", "arguments": {"path": "real.txt", "content": "real\n"}}]},
        {"say": "done"}])
    out = {"fed_cards": WINDOW_CARDS}
    results["window1000"] = out  # filled in as it goes: what was measured stays if a step fails
    with bench.BenchApp("window1000", scenario, {"ASKFIRST_APPROVAL_TIMEOUT_SECS": str(bench.TIMEOUT_SECS)}) as app:
        _long_scripts(app)
        app.bench_on()
        pid = app.pid
        app.start_task("Write one file")
        real = app.card()
        pending = _invoke(app, "list_pending_approvals")
        template = pending[0]
        time.sleep(2)
        out["memory_one_card"] = memory(pid)
        out["dom_nodes_one_card"] = app.dom_nodes()
        want = WINDOW_CARDS + 1
        fed = []
        for k in range(WINDOW_CARDS):
            request = dict(template, approval_id=f"bench-{k}", tool_call_id=f"bench-call-{k}",
                           summary=f"Write p{k}.txt ({k + 1} of {WINDOW_CARDS})",
                           arguments_json=template["arguments_json"].replace("real.txt", f"p{k}.txt"))
            fed.append(["approval-required", request])
        app.wd.execute(FRAMES_ON_JS)
        # "Usable": the count says every card, and the last card is drawn after a jump there.
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
            requestAnimationFrame(poll);""", want)
        t0 = _feed(app, fed)
        usable = e2e.wait_for("the list to be usable", lambda: (lambda u: u if u and "last_drawn" in u else None)(
            app.wd.execute("return window.__usable")), timeout=300, interval=0.2)
        out["frame_interval_ms_while_cards_arrive"] = stats(
            [g for g in _frames_since(app, t0)])
        cards = app.bench_cards()
        painted = sorted(v["painted"] for k, v in cards.items() if k.startswith("bench-") and "painted" in v)
        received = [v["received"] for k, v in cards.items() if k.startswith("bench-") and "received" in v]
        out["feed_start_to_all_received_ms"] = round(max(received) - t0, 1)
        out["feed_start_to_first_fed_card_painted_ms"] = round(painted[0] - t0, 1) if painted else None
        out["feed_start_to_count_right_ms"] = round(usable["counted"] - t0, 1)
        out["feed_start_to_last_card_drawn_ms"] = round(usable["last_drawn"] - t0, 1)
        out["cards_drawn_on_the_way"] = len(painted)
        time.sleep(5)
        out["count_after_5s"] = app.wd.execute("const c = document.querySelector('.approvals .count'); return c && c.textContent")
        out["memory_all_cards"] = memory(pid)
        out["dom_nodes_all_cards"] = app.dom_nodes()
        out["cards_in_dom"] = len(app.cards())
        scroll = _run_async(app, SCROLL_JS, 300, 120)
        out["scroll_bottom_up_300px_per_frame_120_frames"] = {"frame_interval_ms": stats(scroll["frames"][1:]),
                                                       "height_px": scroll["height_px"]}
        app.wd.screenshot(os.path.join(e2e.ARTIFACTS, "bench-window1000.png"))
        # The list empties from the top, one card per frame, as when a person answers them in turn.
        app.wd.execute(FRAMES_ON_JS)
        t1 = time.time() * 1000
        _run_async(app, """
            const done = arguments[arguments.length - 1];
            const [n, run] = [arguments[0], arguments[1]];
            const deliver = window.__internal_unstable_listeners_function_id__;
            const listeners = window.__internal_unstable_listeners_object_id__['approval-resolved'] || {};
            const ids = Object.getOwnPropertyNames(listeners).map(Number);
            let k = 0;
            const step = () => {
              deliver({ event: 'approval-resolved', payload: { approval_id: 'bench-' + k, run_id: run,
                tool_call_id: 'bench-call-' + k, outcome: { kind: 'approved', scope: 'once', source: 'user' } } }, ids);
              if (++k < n) requestAnimationFrame(step); else setTimeout(done, 3000);
            };
            requestAnimationFrame(step);""", WINDOW_CARDS, template["run_id"])
        frames = _frames_since(app, t1)
        out["resolve_one_per_frame"] = {
            "elapsed_ms": round(time.time() * 1000 - t1 - 3000, 1),
            "frame_interval_ms_first_100": stats(frames[:100]),
            "frame_interval_ms_last_100": stats(frames[max(0, WINDOW_CARDS - 100):WINDOW_CARDS]),
            "frame_interval_ms_all": stats(frames[:WINDOW_CARDS]),
            "cards_left_in_dom": len(app.cards()),
        }
        out["count_after_resolving"] = app.wd.execute("const c = document.querySelector('.approvals .count'); return c && c.textContent")
        app.press(app.card(), "approve")
        assert app.wait_finished() == "completed"
        assert os.path.exists(os.path.join(app.workspace, "real.txt"))
        time.sleep(5)
        out["memory_after"] = memory(pid)
        out["dom_nodes_after"] = app.dom_nodes()
        del real
    results["window1000"] = out


def part_long(results, bench):
    stats, memory, write_scenario = bench.stats, bench.memory, bench.write_scenario
    scenario = os.path.join(e2e.ARTIFACTS, "bench-long.json")
    write_scenario(scenario, [{"say": "done"}])
    out = {"entries": LONG_ENTRIES}
    results["long"] = out  # filled in as it goes
    with bench.BenchApp("long", scenario) as app:
        _long_scripts(app)
        pid = app.pid
        app.start_task("Say something")
        assert app.wait_finished() == "completed"
        history = _invoke(app, "list_run_events")
        started = next(e["event"] for e in history if e["event"]["type"] == "run_started")
        time.sleep(3)
        out["memory_before"] = memory(pid)
        out["dom_nodes_before"] = app.dom_nodes()
        seq = len(history)
        run = "bench-long-run"
        events = []

        def add(event):
            nonlocal seq
            events.append(["run-event", {"seq": seq, "event": event}])
            seq += 1

        add({"type": "run_started", "run_id": run, "session_id": started["session_id"],
             "task": "A long conversation", "provider": started["provider"]})
        for k in range(LONG_ENTRIES // 2):
            add({"type": "assistant_message", "run_id": run,
                 "text": f"Step {k}: I looked at the folder and will write the next file."
                         + (" It holds the notes of the meeting, one line each." * (k % 4))})
            call = f"call-{k}"
            add({"type": "tool_call_proposed", "run_id": run, "tool_call_id": call, "tool_name": "write_file",
                 "arguments_json": f'{{"path":"n{k}.txt","content":"note {k}\\n"}}',
                 "summary": f"Write n{k}.txt"})
            add({"type": "tool_call_started", "run_id": run, "tool_call_id": call})
            add({"type": "tool_call_finished", "run_id": run, "tool_call_id": call, "status": "succeeded",
                 "policy_layer": "rule", "output": f"Wrote n{k}.txt (7 bytes)."})
        add({"type": "run_finished", "run_id": run, "status": "completed"})
        app.wd.execute(FRAMES_ON_JS)
        t0 = _feed(app, events)
        out["fed_events"] = len(events)
        out["feed_start_to_all_handled_ms"] = round(time.time() * 1000 - t0, 1)
        out["frame_interval_ms_while_fed"] = stats(_frames_since(app, t0))
        time.sleep(10)
        out["memory_after"] = memory(pid)
        out["dom_nodes_after"] = app.dom_nodes()
        out["entries_in_dom"] = app.wd.execute(
            "return document.querySelectorAll('[data-testid=\"assistant-message\"], [data-testid=\"tool-call\"]').length")
        scroll = _run_async(app, SCROLL_JS, 300, 120)
        out["scroll_bottom_up_300px_per_frame_120_frames"] = {"frames": len(scroll["frames"]) - 1,
                                                   "frame_interval_ms": stats(scroll["frames"][1:]),
                                                   "height_px": scroll["height_px"]}
        # Jumps to 50 places spread over the conversation, each until its frame is painted.
        out["jump_to_place_painted_ms"] = stats(_run_async(app, """
            const done = arguments[arguments.length - 1];
            const main = document.querySelector('main');
            const times = [];
            let k = 0;
            const jump = () => {
              const t = performance.now();
              main.scrollTop = main.scrollHeight * ((k * 37) % 50) / 50;
              requestAnimationFrame(() => setTimeout(() => {
                times.push(performance.now() - t);
                if (++k < 50) jump(); else done(times);
              }, 0));
            };
            jump();"""))
        app.wd.screenshot(os.path.join(e2e.ARTIFACTS, "bench-long.png"))
        time.sleep(5)
        out["memory_after_scrolling"] = memory(pid)
        out["dom_nodes_after_scrolling"] = app.dom_nodes()
    results["long"] = out
