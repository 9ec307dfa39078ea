"""End-to-end tests of the promise (issue "Keep the promise"), in the real window: what a
hostile model tries through the scripted provider does not happen unless the card showed it."""
import http.server
import os
import threading
import time

from harness.app import App, scenario_file
from harness.env import ARTIFACTS
from harness.wait import wait_for


class _Server:
    """A small HTTP server on 127.0.0.1 in a thread; `routes` maps a path to
    (status, headers, body). Counts the requests it got."""

    def __init__(self, routes):
        self.hits = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                server.hits.append(self.path)
                status, headers, body = routes.get(self.path, (404, {}, b"not here"))
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()


def card_text(app, card):
    return app.wd.text(card)


# In every process's command line while the hostile command runs (and in no other).
MARKER = "askfirst-e2e-setsid-marker"


def _marked_processes():
    """The pids of every process on this computer whose command line holds MARKER."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if MARKER.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


def test_stop_ends_everything_a_command_started_setsid_included():
    # The hostile commands look for the API key (the person approves what they wrote), then
    # leave a child in a session of its own that would write a file later, and the person
    # presses Stop while they run. Commands are tried on a copy of the folder first: the one
    # that writes env.txt gets a card before (it names a file outside the folder it reads) and
    # one after the try, with what it made; the one that only sleeps runs (on the copy) with no
    # card. Whatever it started must be gone after Stop, on the whole computer.
    spy = "env > env.txt; cat /proc/$PPID/environ >> env.txt 2>/dev/null"
    line = (f"setsid sh -c 'sleep 4; echo escaped > escaped.txt; : {MARKER}' & "
            f"sleep 60; : {MARKER}")
    path = scenario_file([
        {"say": "Looking around.", "tool_calls": [
            {"name": "run_command", "arguments": {"command": spy}}]},
        {"say": "Running it.", "tool_calls": [
            {"name": "run_command", "arguments": {"command": line}}]},
        {"say": "Done."},
    ])
    assert not _marked_processes(), "a marked process before the test"
    with App("stop-setsid", path, {"OPENAI_API_KEY": "sk-e2e-secret-never-shown"}) as app:
        app.start_task("Run the command")
        # It names a file outside the folder it reads: asked before it runs, and the card
        # says it runs shut in.
        card = app.card()
        text = card_text(app, card)
        assert "shut in" in text, text
        assert "Reads outside your folder: /proc/$PPID/environ" in text, text
        app.wd.screenshot(os.path.join(ARTIFACTS, "promise-command-card.png"))
        app.press(card, "approve")
        # Then tried on a copy: the card of what it made, before anything is in the folder.
        tried = wait_for("the card of what it did", lambda: [
            c for c in app.cards() if c.id != card.id and app.in_card(c, '[data-testid="approval-tried"]')])[0]
        text = card_text(app, tried)
        assert "Nothing in your folder has changed yet: the command ran on a copy of it, without the internet" in text, text
        assert app.in_card(tried, '[data-testid="approval-change"][data-path="env.txt"]'), text
        assert not os.path.exists(os.path.join(app.workspace, "env.txt")), "applied before Approve"
        app.press(tried, "approve")
        wait_for("env.txt", lambda: os.path.exists(os.path.join(app.workspace, "env.txt")))
        with open(os.path.join(app.workspace, "env.txt"), encoding="utf-8") as f:
            env = f.read()
        assert "sk-e2e-secret" not in env and "ASKFIRST_" not in env, env
        wait_for("the second command to run", lambda: [s for s, _ in app.tool_calls()[1:] if s == "running"])
        wait_for("its processes", _marked_processes)
        app.wd.click(app.wd.find_all('[data-testid="cancel-run"]')[0])
        assert app.wait_finished() == "cancelled"
        time.sleep(6)
        assert not _marked_processes(), "a process the command started outlived Stop"
        assert not os.path.exists(os.path.join(app.workspace, "escaped.txt")), \
            "a process the command started outlived Stop"


def test_a_redirect_to_another_host_is_not_followed_and_the_card_names_this_computer():
    target = _Server({"/secret": (200, {}, b"the secret")})
    start = _Server({"/start": (302, {"Location": f"http://localhost:{target.port}/secret"}, b"")})
    path = scenario_file([
        {"say": "Fetching.", "tool_calls": [
            {"name": "fetch_url", "arguments": {"url": f"http://127.0.0.1:{start.port}/start"}}]},
        {"say": "Done."},
    ])
    try:
        with App("redirect", path) as app:
            app.start_task("Fetch the page")
            card = app.card()
            summary = app.card_field(card, "approval-summary")
            assert "on this computer" in summary, summary
            assert "internet" not in summary, summary
            app.press(card, "approve")
            assert app.wait_finished() == "completed"
            calls = app.wd.find_all('[data-testid="tool-call"]')
            shown = app.wd.text(calls[0])
            assert f"localhost:{target.port}" in shown, shown
            assert start.hits == ["/start"], start.hits
            assert target.hits == [], "the redirect to another host was followed"
    finally:
        start.close()
        target.close()


def test_a_diff_line_starting_with_plus_or_minus_is_on_the_card():
    # (the card helper's fuller diff test covers every kind; this one is the attack.)
    content = "print('hi')\n++__import__('os').system('echo PWNED')\n--quiet\n"
    path = scenario_file([
        {"say": "Writing.", "tool_calls": [
            {"name": "write_file", "arguments": {"path": "run.py", "content": content}}]},
        {"say": "Done."},
    ])
    with App("diff-attack", path) as app:
        app.start_task("Write the script")
        card = app.card()
        diff = app.card_field(card, "approval-diff")
        assert "++__import__('os').system('echo PWNED')" in diff, diff
        assert "--quiet" in diff, diff
        app.press(card, "deny")
        assert app.wait_finished() == "completed"
        assert not os.path.exists(os.path.join(app.workspace, "run.py"))


def test_a_flood_of_calls_in_one_turn_is_bounded():
    calls = [{"name": "list_directory", "arguments": {"path": "."}} for _ in range(2000)]
    path = scenario_file([
        {"say": "Looking a lot.", "tool_calls": calls},
        {"say": "Done."},
    ])
    with App("flood", path) as app:
        app.start_task("Look around")
        assert app.wait_finished() == "completed"
        entries = app.wd.find_all('[data-testid="tool-call"]')
        assert len(entries) <= 100, len(entries)
        sessions = os.path.join(app.data, "sessions")
        size = sum(os.path.getsize(os.path.join(sessions, n)) for n in os.listdir(sessions))
        assert size < 8 * 1024 * 1024, f"session logs hold {size} bytes"
        page = app.wd.execute("return document.body.innerText")
        assert "64" in page, "the limit is not stated"


def test_a_command_that_names_nothing_runs_without_what_the_rules_keep():
    # An allow rule for commands, "never touch PDFs" and "always ask about Work/Contracts":
    # find -delete, grep -r and ls -R name no folder, and sort --output= hides its path in an
    # option. The first runs without a card but without the PDF and the contracts; the second
    # asks, with the rule on its card.
    path = scenario_file([
        {"say": "Tidying up.", "tool_calls": [{"name": "run_command", "arguments": {
            "command": "find -name '*.pdf' -delete; grep -r IBAN; ls -R"}}]},
        {"tool_calls": [{"name": "run_command", "arguments": {
            "command": "sort --output=Work/Contracts/salary.txt notes.txt"}}]},
        {"say": "Done."},
    ])
    app = App("kept-from-commands", path)
    os.makedirs(os.path.join(app.workspace, "Work", "2024"))
    os.makedirs(os.path.join(app.workspace, "Work", "Contracts"))
    pdf = os.path.join(app.workspace, "Work", "2024", "contract.pdf")
    salary = os.path.join(app.workspace, "Work", "Contracts", "salary.txt")
    for name, text in [(pdf, "%PDF"), (salary, "IBAN DE00 1234\n"),
                       (os.path.join(app.workspace, "notes.txt"), "notes\n")]:
        with open(name, "w", encoding="utf-8") as f:
            f.write(text)
    os.makedirs(app.data)
    with open(os.path.join(app.data, "rules.toml"), "w", encoding="utf-8") as f:
        f.write('[[deny]]\ntool = "*"\nmatch = "**/*.pdf"\n'
                '[[ask]]\ntool = "*"\nmatch = "Work/Contracts/**"\n'
                '[[allow]]\ntool = "run_command"\n')
    with app:
        app.start_task("Tidy my folder")
        card = app.card()
        text = card_text(app, card)
        assert "Work/Contracts" in text, text
        app.wd.screenshot(os.path.join(ARTIFACTS, "kept-from-commands.png"))
        app.press(card, "deny")
        assert app.wait_finished() == "completed"
        page = app.wd.execute("return document.body.innerText")
        assert "DE00 1234" not in page, page
        assert page.count("Not done: denied") == 1, page
        with open(pdf, encoding="utf-8") as f:
            assert f.read() == "%PDF"
        with open(salary, encoding="utf-8") as f:
            assert f.read() == "IBAN DE00 1234\n"


def test_rules_the_form_writes_for_one_kind_of_action_hold_for_commands():
    # "Never read files in Private" and "Never delete files in Photos", as the rule form writes
    # them (one file tool each). A command that names neither reads Photos and cannot delete
    # it, and never sees Private; its card says both. A command naming Private is refused.
    # (The first command also writes seen.txt: a command that changes nothing runs with no
    # card, one that changes files gets its card after it was tried on a copy of the folder.)
    path = scenario_file([
        {"say": "Looking around.", "tool_calls": [{"name": "run_command", "arguments": {
            "command": "ls Photos; rm -rf Photos; grep -r diary-secret .; echo ended; echo seen > seen.txt"}}]},
        {"tool_calls": [{"name": "run_command", "arguments": {
            "command": "cat Private/diary.txt"}}]},
        {"say": "Done."},
    ])
    app = App("file-tool-rules-for-commands", path)
    os.makedirs(os.path.join(app.workspace, "Private"))
    os.makedirs(os.path.join(app.workspace, "Photos"))
    diary = os.path.join(app.workspace, "Private", "diary.txt")
    photo = os.path.join(app.workspace, "Photos", "cat.jpg")
    for name, text in [(diary, "diary-secret\n"), (photo, "photo\n")]:
        with open(name, "w", encoding="utf-8") as f:
            f.write(text)
    os.makedirs(app.data)
    with open(os.path.join(app.data, "rules.toml"), "w", encoding="utf-8") as f:
        f.write('[[deny]]\ntool = "read_file"\nmatch = "Private/**"\n'
                '[[deny]]\ntool = "delete_path"\nmatch = "Photos/**"\n')
    with app:
        app.start_task("Look at my photos")
        card = app.card()
        text = card_text(app, card)
        assert "What your rules keep is hidden from it: Never read files in Private." in text, text
        assert ("Whatever it tries, it cannot change, move or delete what these rules protect "
                "(it can read it): Never delete files and folders in Photos.") in text, text
        app.wd.screenshot(os.path.join(ARTIFACTS, "file-tool-rules-for-commands.png"))
        app.press(card, "approve")
        assert app.wait_finished() == "completed"
        page = app.wd.execute("return document.body.innerText")
        assert "Never read files in Private" in page, page
        # What the command printed, as the model was told it (the session log).
        results = [r["message"]["content"] for r in app.session_records()
                   if r.get("type") == "message" and r["message"].get("role") == "tool_result"]
        assert "ended" in results[0] and "cat.jpg" in results[0], results
        assert not any("diary-secret" in r for r in results), results
        with open(photo, encoding="utf-8") as f:
            assert f.read() == "photo\n"
        with open(diary, encoding="utf-8") as f:
            assert f.read() == "diary-secret\n"


TESTS = [test_stop_ends_everything_a_command_started_setsid_included,
         test_a_redirect_to_another_host_is_not_followed_and_the_card_names_this_computer,
         test_a_diff_line_starting_with_plus_or_minus_is_on_the_card,
         test_a_flood_of_calls_in_one_turn_is_bounded,
         test_a_command_that_names_nothing_runs_without_what_the_rules_keep,
         test_rules_the_form_writes_for_one_kind_of_action_hold_for_commands]
