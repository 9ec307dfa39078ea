"""Survival: 30+ hostile inputs through the window (HTML and script in every field, bidi and
zero-width characters, control characters, lone surrogates, huge and deep JSON, duplicate keys,
a hostile MCP server's names and errors, 10 MB): each is shown as the exact text it is, nothing
runs in the page, nothing is fetched, and only what was approved is written.

The expected card text comes from an oracle: the window's JSON view (ui/src/lib/json.ts) and
the core's display_label (src-tauri/core/src/text.rs), re-implemented here."""
import http.server
import json
import os
import statistics
import subprocess
import tempfile
import threading
import time

from harness.app import App
from harness.env import HERE
from harness.survival import UNDECIDED, figure, shot, text_content
from harness.wait import wait_for


NAMED = {0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x08: "\\b", 0x0C: "\\f"}


MAX_STRING, FOLD_HEAD, FOLD_TAIL = 2000, 600, 200


def invisible(c):
    return (c < 0x20 or 0x7F <= c <= 0x9F or c == 0xAD or c == 0x061C or 0x200B <= c <= 0x200F
            or 0x2028 <= c <= 0x202E or 0x2060 <= c <= 0x2064 or 0x2066 <= c <= 0x206F or c == 0xFEFF
            or 0xFFF9 <= c <= 0xFFFB or 0xD800 <= c <= 0xDFFF)


def visible(text, quote, multiline=False):
    out = []
    for ch in text:
        c = ord(ch)
        if multiline and c in (0x0A, 0x09):
            out.append(ch)
        elif invisible(c):
            out.append(NAMED.get(c, "\\u%04X" % c))
        elif quote and ch in '"\\':
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def utf16_len(text):
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in text)


def folded(text):
    if utf16_len(text) <= MAX_STRING:
        return visible(text, True)
    assert all(ord(ch) <= 0xFFFF for ch in text), "fold expectation needs BMP text"
    hidden = len(text) - FOLD_HEAD - FOLD_TAIL
    return visible(text[:FOLD_HEAD], True) + f" … {hidden:,} more characters hidden … " + visible(text[-FOLD_TAIL:], True)


class Raw(str):
    pass


def expected_json_view(raw):
    node = json.loads(raw, object_pairs_hook=lambda pairs: ("object", pairs),
                      parse_int=Raw, parse_float=Raw, parse_constant=Raw)
    lines = []

    def emit(n, depth, prefix, suffix):
        ind = "  " * depth
        if isinstance(n, tuple) or isinstance(n, list):
            entries = n[1] if isinstance(n, tuple) else n
            o, c = ("{", "}") if isinstance(n, tuple) else ("[", "]")
            if not entries:
                lines.append(ind + prefix + o + c + suffix)
                return
            lines.append(ind + prefix + o)
            for i, entry in enumerate(entries):
                comma = "," if i < len(entries) - 1 else ""
                if isinstance(n, tuple):
                    key, value = entry
                    emit(value, depth + 1, '"' + folded(key) + '": ', comma)
                else:
                    emit(entry, depth + 1, "", comma)
            lines.append(ind + c + suffix)
        elif isinstance(n, Raw):
            lines.append(ind + prefix + n + suffix)
        elif isinstance(n, str):
            lines.append(ind + prefix + '"' + folded(n) + '"' + suffix)
        else:
            lines.append(ind + prefix + {True: "true", False: "false", None: "null"}[n] + suffix)

    emit(node, 0, "", "")
    return "".join(line + "\n" for line in lines)


WHITESPACE = set([*range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029,
                  0x202F, 0x205F, 0x3000])


INVISIBLE = set([0xAD, 0x61C, 0x180E, *range(0x200B, 0x2010), *range(0x202A, 0x202F), *range(0x2060, 0x2065),
                 *range(0x2066, 0x206A), 0xFEFF, *range(0xFFF9, 0xFFFC), *range(0xE0000, 0xE0080)])


def one_line(text, limit):
    """Rust's `display_label` in core/src/text.rs: whitespace to spaces (runs joined, none at
    the ends), control and invisible format characters shown as their code (\\u202E), at most
    `limit` characters (the names checked here are short, so the cut at whole graphemes does not
    come into play)."""
    out, pending = [], False
    for ch in text:
        if ord(ch) in WHITESPACE:
            pending = bool(out)
            continue
        if pending:
            out.append(" ")
            pending = False
        hidden = ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F or ord(ch) in INVISIBLE
        out.append("\\u%04X" % ord(ch) if hidden else ch)
    joined = "".join(out)
    return joined if len(joined) <= limit else joined[:limit].rstrip(" ") + "…"


def sanitize(name):
    return "".join(ch if (ch.isascii() and ch.isalnum()) or ch in "_-" else "_" for ch in name)


class Canary(http.server.BaseHTTPRequestHandler):
    hits = []

    def do_GET(self):
        Canary.hits.append(self.path)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


CHECK_PAGE = """
const bad = document.querySelectorAll('img, svg, script:not([src]), iframe, object, embed, link[href*="127.0.0.1"], a[href^="javascript"], [onerror], [onload]');
return {pwned: window.__pwned === undefined ? null : String(window.__pwned),
        title: document.title, polluted: ({}).polluted === undefined ? null : 'yes',
        bad: [...bad].map(e => e.outerHTML.slice(0, 120))};"""


def hostile_cases(canary):
    """(label, tool name, raw arguments text, expectation). Expectation: 'card' (shown, then
    denied or approved as given) or 'failed' (the tool refuses the arguments; no card)."""
    img = f'<img src="{canary}/img" onerror="window.__pwned=1">'
    cases = [
        ("img onerror", "write_file", {"path": "a.txt", "content": img}, "card"),
        ("svg onload + script", "write_file", {"path": "b.txt", "content": '<svg onload="window.__pwned=2"><script>window.__pwned=2</script></svg>'}, "card"),
        ("javascript: URL", "write_file", {"path": "c.txt", "content": '<a href="javascript:window.__pwned=3">click</a> javascript:window.__pwned=3'}, "card"),
        ("</script> breakout", "write_file", {"path": "d.txt", "content": "</script><script>window.__pwned=4</script><!--"}, "card"),
        ("template syntax", "write_file", {"path": "e.txt", "content": "{@html '<img src=x onerror=window.__pwned=5>'} {{constructor.constructor('window.__pwned=5')()}} ${window.__pwned=5} {#if true}x{/if}"}, "card"),
        ("iframe srcdoc + css import", "write_file", {"path": "f.txt", "content": f'<iframe srcdoc="<script>parent.__pwned=6</script>"></iframe><style>@import "{canary}/css";</style><link rel=stylesheet href="{canary}/link">'}, "card"),
        ("bidi override in path", "write_file", {"path": "invoice\u202Etxt.exe", "content": "x"}, "card"),
        ("bidi isolates U+2066-2069", "write_file", {"path": "g.txt", "content": "a\u2066b\u2067c\u2068d\u2069e\u202Af\u202Bg\u202Ch\u202Di\u200Ej\u200Fk\u061Cl"}, "card"),
        ("zero-width U+200B/200C/200D/FEFF/2060", "write_file", {"path": "h\u200B.txt", "content": "pay\u200Bpal\u200C\u200D\uFEFF\u2060"}, "card"),
        ("C0 controls", "write_file", {"path": "i.txt", "content": "".join(chr(c) for c in range(0x20))}, "card"),
        ("C1 controls and DEL", "write_file", {"path": "j.txt", "content": "".join(chr(c) for c in range(0x7F, 0xA0)) + "\u00AD"}, "card"),
        ("line/paragraph separators raw", "write_file", None, "card"),  # raw U+2028/2029, filled below
        ("terminal escapes", "write_file", {"path": "k.txt", "content": "\x1b[2J\x1b]0;owned\x07\x1b[31mred\r\rover"}, "card"),
        ("emoji, combining, CJK, RTL text", "write_file", {"path": "l.txt", "content": "👍🏽 e\u0301 文字 مرحبا 𝕏"}, "card"),
        ("HTML in the path", "write_file", {"path": f"<img src=x onerror=window.__pwned=15>{chr(0x202E)}gnp.txt", "content": "x"}, "card"),
        ("lone high surrogate", "write_file", '{"path": "m.txt", "content": "\\ud800"}', "failed"),
        ("lone low surrogate", "write_file", '{"path": "n.txt", "content": "x\\udc00y"}', "failed"),
        ("NUL in the path", "write_file", {"path": "o\u0000.txt", "content": "x"}, "failed"),
        ("unknown tool named like HTML", f'<img src="{canary}/tool" onerror=window.__pwned=19>', {"a": 1}, "failed"),
        # Through the MCP server's echo tool, which takes any object.
        ("huge integer within u64", "evil__echo", '{"n": 12345678901234567890}', "card"),
        ("beyond 2^53, -0, long fraction, big exponent, i64 min", "evil__echo",
         '{"a": 9007199254740993, "b": -0, "c": 1.0000000000000000000001, "d": 1e308, "e": -9223372036854775808, "f": 0.1e-400}', "card"),
        ("1e400", "evil__echo", '{"n": 1e400}', "failed"),
        ("integer beyond u64", "evil__echo", '{"n": 123456789012345678901234567890}', "failed"),
        ("100 levels of objects", "evil__echo", '{"a":' * 100 + '"deep"' + '}' * 100, "card"),
        ("100 levels of arrays", "evil__echo", '{"a":' + '[' * 99 + '1' + ']' * 99 + '}', "card"),
        ("200 levels (beyond the parser's limit)", "evil__echo", '{"a":' * 200 + '1' + '}' * 200, "failed"),
        ("duplicate keys", "evil__echo", '{"path": "safe.txt", "path": "../../etc/passwd"}', "failed"),
        ("very long key", "evil__echo", '{"' + "k" * 5000 + '": 1}', "card"),
        ("hidden characters in keys", "evil__echo", '{"\\u202Ekey\\u0000": "v", "\\u200B": "zw", "a\\u2028b": "\\u2029"}', "card"),
        ("prototype pollution keys", "evil__echo", '{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 2}}, "html": "<img src=x onerror=window.__pwned=30>"}', "card"),
        ("odd whitespace and escapes", "evil__echo", '{ "a" :\t[ 1 ,\n2 ] , "b":"\\/\\"\\\\" }', "card"),
        ("not an object", "evil__echo", '[1, 2, 3]', "failed"),
        ("hostile-named MCP tool", "evil__" + sanitize('<img src=x onerror="window.__pwned=\'name\'">\u202E'), '{"x": "<script>window.__pwned=33</script>"}', "card"),
        ("MCP tool error text", "evil__fail", '{"why": "\\u202E"}', "card-approve-fails"),
        ("10 MB string", "write_file", {"path": "big.txt", "content": "0123456789" * 1_000_000}, "card-approve"),
    ]
    out = []
    for label, tool, args, expect in cases:
        if args is None:
            raw = '{"path": "sep.txt", "content": "line\u2028sep\u2029para"}'
        elif isinstance(args, str):
            raw = args
        else:
            raw = json.dumps(args)  # \u escapes for everything outside ASCII
        out.append((label, tool, raw, expect))
    return out


def test_hostile_input_through_the_window():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Canary)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    canary = f"http://127.0.0.1:{server.server_address[1]}/hit"
    mcp_script = os.path.join(HERE, "hostile_mcp.mjs")
    listed = json.loads(subprocess.run(["node", mcp_script, canary, "--list"], capture_output=True, text=True,
                                       check=True).stdout)
    cases = hostile_cases(canary)
    figure("hostile_cases", len(cases))
    scen = os.path.join(tempfile.gettempdir(), "askfirst-survival-hostile.json")
    with open(scen, "w") as f:
        json.dump({"turns": [{"say": "x"}]}, f)
    app = App("hostile", scen, prefix="survival")
    os.makedirs(app.data)
    with open(os.path.join(app.data, "settings.json"), "w") as f:
        json.dump({"mcp_servers": [{"name": "evil", "command": "node", "args": [mcp_script, canary]},
                                   {"name": "broken", "command": "node", "args": [mcp_script, canary, "--crash"]}]}, f)
    say = f'<b>bold?</b> <img src="{canary}/say" onerror="window.__pwned=\'say\'"> \u202Eevil\u200B {{@html "x"}}\nsecond line\u2028'
    card_ms, gone_ms, rtt_ms, results = [], [], [], []
    try:
        with app:
            title = app.wd.execute("return document.title")
            batches = [cases[i:i + 12] for i in range(0, len(cases), 12)]
            for b, batch in enumerate(batches):
                turns = [{"say": say if i == 0 else f"step {i}",
                          "tool_calls": [{"name": tool, "arguments_json": raw}]} for i, (_, tool, raw, _) in enumerate(batch)]
                turns.append({"say": "All steps shown."})
                with open(scen, "w", encoding="utf-8") as f:
                    json.dump({"turns": turns}, f)
                base = len(app.tool_calls())
                app.start_task(f"Hostile batch {b + 1}")
                for j, (label, tool, raw, expect) in enumerate(batch):
                    i = base + j
                    started = time.monotonic()
                    big = len(raw) > 1_000_000
                    state, element = wait_for(f"case {label!r} to show", lambda: (lambda t: t[i] if len(t) > i and t[i][0] not in ("queued", "running") else None)(app.tool_calls()), timeout=120 if big else 30)
                    try:
                        if expect.startswith("card"):
                            assert state == "waiting", (label, state, text_content(app, element))
                            card = app.card()
                            card_ms.append((time.monotonic() - started) * 1000)
                            if big:
                                figure("hostile_10mb_start_to_card_s", round(time.monotonic() - started, 2))
                            shown = app.on_card(card, '[data-testid="approval-args"] pre',
                                                lambda pre: text_content(app, pre))
                            want = expected_json_view(raw)
                            assert shown == want, (label, shown[:3000], want[:3000])
                            summary = app.on_card(card, '[data-testid="approval-summary"]',
                                                  lambda el: text_content(app, el))
                            if tool == "write_file":
                                path = json.loads(raw)["path"]
                                assert visible(path, False) in summary, (label, summary)
                            elif tool.startswith("evil__"):
                                server_tool = next(t for t in listed if "evil__" + sanitize(t["name"]) == tool)
                                title_hint = (server_tool.get("annotations") or {}).get("title") or server_tool.get("title")
                                want_summary = f'Use "{one_line(server_tool["name"], 80)}" from the MCP server "evil"'
                                if title_hint and one_line(title_hint, 80):
                                    want_summary += f' (the server calls it "{one_line(title_hint, 80)}")'
                                assert summary == visible(want_summary, False), (label, summary, visible(want_summary, False))
                            t0 = time.monotonic()
                            assert app.wd.execute("return document.querySelectorAll('*').length") > 0
                            rtt_ms.append((time.monotonic() - t0) * 1000)
                            approval_id = card.id
                            if j == 0 and b == 0:
                                shot(app, "hostile-first-card")
                            app.press(card, "deny" if expect == "card" else "approve")
                            t0 = time.monotonic()  # after the click (press waits for the arming delay)
                            wait_for("the card to go", lambda: not app.wd.find_all(f'[data-approval-id="{approval_id}"]'), timeout=60)
                            gone_ms.append((time.monotonic() - t0) * 1000)
                            if big:
                                figure("hostile_10mb_click_to_card_gone_s", round(time.monotonic() - t0, 2))
                            if expect == "card-approve-fails":
                                state = wait_for("the call to fail", lambda: (lambda s: s if s not in UNDECIDED else None)(app.tool_calls()[i][0]))
                                assert state == "failed", state
                                element = app.tool_calls()[i][1]
                                text = text_content(app, app.wd.find_in(element, ".tool-output")[0])
                                assert "\\u202E" in text and "\\u0000" in text and "\\u001B" in text, text
                                assert "<img src=" in text and "reported an error" in text, text
                        else:
                            assert state == "failed", (label, state)
                            output = app.wd.find_in(element, ".tool-output")
                            text = text_content(app, output[0]) if output else ""
                            assert text, label
                    except AssertionError:
                        shot(app, f"hostile-failed-{b}-{j}")
                        raise
                    page = app.wd.execute(CHECK_PAGE)
                    assert page["pwned"] is None and page["title"] == title and page["polluted"] is None, (label, page)
                    assert not page["bad"], (label, page["bad"])
                    results.append((label, expect, "held"))
                assert app.wait_finished() == "completed"
                messages = app.wd.find_all('[data-testid="assistant-message"]')
                first_said = [m for m in messages if "bold?" in text_content(app, m)]
                assert first_said and visible(say, False, multiline=True) in text_content(app, first_said[-1]), text_content(app, first_said[-1])
                if b == 0:
                    shot(app, "hostile-transcript")
            # The settings screen lists the servers; what the broken one said on stderr is
            # shown as text, its hidden characters as escapes.
            app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
            servers = wait_for("the MCP servers", lambda: app.wd.find_all('[data-testid="mcp-server"]'))
            texts = [text_content(app, li) for li in servers]
            figure("hostile_settings_mcp_lines", texts)
            states = [app.wd.attr(app.wd.find_in(li, '[data-testid="mcp-status"]')[0], "class") for li in servers]
            assert texts[0].startswith("evil Running, 3 tools."), texts
            assert "running" in states[0].split() and "failed" in states[1].split(), states
            assert texts[1].startswith('broken The MCP server "broken" could not be started'), texts
            assert "<img src=" in texts[1] and "\\u202E" in texts[1] and "\u202e" not in texts[1], texts
            page = app.wd.execute(CHECK_PAGE)
            assert page["pwned"] is None and not page["bad"], page
            shot(app, "hostile-settings")
            # Positive controls: the canaries do detect what they look for (run by the test,
            # not by the app), so their silence above means something.
            control = app.wd.execute("""
                const d = document.createElement('div');
                d.innerHTML = '<img src=x onerror="window.__control=1">';
                document.body.appendChild(d);
                const found = document.querySelectorAll('img').length;
                d.remove();
                return found;""")
            assert control == 1, control
            app.wd.execute(f"const i = new Image(); i.src = '{canary}/control';")
            time.sleep(1.0)
            figure("hostile_canary_control_hit", "/hit/control" in Canary.hits)
            figure("hostile_inline_handler_control_ran", app.wd.execute("return window.__control === 1"))
            Canary.hits[:] = [h for h in Canary.hits if h != "/hit/control"]
            assert os.path.getsize(os.path.join(app.workspace, "big.txt")) == 10_000_000
            written = sorted(os.listdir(app.workspace))
            assert written == ["big.txt"], written
            time.sleep(0.5)
            assert Canary.hits == [], Canary.hits
            assert "panicked" not in app.stderr()
    finally:
        server.shutdown()
    figure("hostile_results", results)
    figure("hostile_start_to_card_ms_p50_max", [round(statistics.median(card_ms)), round(max(card_ms))])
    figure("hostile_click_to_card_gone_ms_p50_max", [round(statistics.median(gone_ms)), round(max(gone_ms))])
    figure("hostile_script_round_trip_ms_p50_max", [round(statistics.median(rtt_ms), 1), round(max(rtt_ms), 1)])


TESTS = [test_hostile_input_through_the_window]
