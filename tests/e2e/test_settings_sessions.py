"""Settings and sessions: a provider chosen (OpenAI's API, faked over local HTTP), rules,
MCP servers added and removed, a broken settings file, and sessions that start empty and reopen."""
import json
import os
import shutil
import subprocess

from harness.a11y import audit
from harness.app import App, scenario_file
from harness.env import ARTIFACTS, HERE, PYTHON, ROOT
from harness.errors import open_details
from harness.sessions import log_names
from harness.wait import wait_for
from harness.webdriver import ELEMENT


def test_openai_provider_streams_asks_and_answers():
    server = subprocess.Popen([PYTHON, os.path.join(HERE, "fake_openai.py")], stdout=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().strip()
        env = {"ASKFIRST_PROVIDER": "openai", "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1",
               "OPENAI_API_KEY": "sk-e2e", "ASKFIRST_MODEL": "e2e-model"}
        with App("openai", None, env) as app:
            app.start_task("Write down that I need milk")
            card = app.card()
            assert app.card_field(card, "approval-summary") == "Create the file notes.txt (1 line)"
            messages = [app.wd.text(m) for m in app.wd.find_all('[data-testid="assistant-message"]')]
            assert messages and messages[0].endswith("I will write your note into notes.txt."), messages
            app.press(card, "approve")
            assert app.wait_finished() == "completed"
            with open(os.path.join(app.workspace, "notes.txt"), encoding="utf-8") as f:
                assert f.read() == "Buy milk\n"
            messages = [app.wd.text(m) for m in app.wd.find_all('[data-testid="assistant-message"]')]
            assert messages[-1].endswith("Done. The tool said: Wrote 9 bytes to notes.txt."), messages
            app.wd.screenshot(os.path.join(ARTIFACTS, "openai-done.png"))
    finally:
        server.kill()


def test_settings_choose_a_provider_and_sessions_reopen():
    server = subprocess.Popen([PYTHON, os.path.join(HERE, "fake_openai.py")], stdout=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().strip()
        with App("settings", None, {}) as app:
            app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
            select = wait_for("the settings", lambda: app.wd.find_all('[data-testid="settings-provider"]'))[0]
            app.wd.execute("const s = arguments[0]; s.value = 'openai'; s.dispatchEvent(new Event('change'));", {ELEMENT: select})
            url = wait_for("the address box", lambda: app.wd.find_all('[data-testid="settings-base-url"]'))[0]
            app.wd.type(url, f"http://127.0.0.1:{port}/v1")
            app.wd.type(app.wd.find_all('[data-testid="settings-model"]')[0], "e2e-model")
            app.wd.type(app.wd.find_all('[data-testid="settings-api-key"]')[0], "sk-e2e")
            app.wd.click(app.wd.find_all('[data-testid="settings-save"]')[0])
            wait_for("saved", lambda: app.wd.find_all('[data-testid="settings-saved"]'))
            settings_file = os.path.join(app.data, "settings.json")
            assert oct(os.stat(settings_file).st_mode & 0o777) == "0o600"
            # run.sh starts a desktop keyring where gnome-keyring is installed: the key is
            # there, not in the file, and the settings say so.
            if shutil.which("gnome-keyring-daemon"):
                line = wait_for("where the key is kept", lambda: [
                    e for e in app.wd.find_all('[data-testid="settings-key-storage"]')
                    if app.wd.text(e) == "Your key is kept in the desktop's keyring."])
                assert line, "the settings do not say the key is in the keyring"
                with open(settings_file, encoding="utf-8") as f:
                    assert "sk-e2e" not in f.read(), "the key stayed in settings.json"
            app.wd.screenshot(os.path.join(ARTIFACTS, "settings.png"))
            audit(app, "the settings with OpenAI chosen")
            app.start_task("Write down that I need milk")
            card = app.card()
            app.press(card, "approve")
            assert app.wait_finished() == "completed"
            for name in log_names(app.data):
                with open(os.path.join(app.data, "sessions", name), encoding="utf-8") as f:
                    assert "sk-e2e" not in f.read(), "the key must never reach a session log"
            # A new session starts empty; the old one reopens with its transcript.
            app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
            app.wd.click(wait_for("new session", lambda: app.wd.find_all('[data-testid="new-session"]'))[0])
            # The panel closes when new_session answers and the transcript empties when its
            # session_opened event comes, in either order; a click on Sessions while the panel
            # is still open would close it instead of opening it.
            wait_for("an empty transcript and the sessions panel closed",
                     lambda: not app.wd.find_all('[data-testid="assistant-message"]')
                     and not app.wd.find_all('[data-testid="sessions-panel"]'))
            app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
            opener = wait_for("the old session", lambda: app.wd.find_all('[data-testid="open-session"]'))[0]
            audit(app, "the sessions list with an old session")
            app.wd.click(opener)
            # The old session's events are replayed one by one: wait for the last of them.
            def replayed():
                messages = [app.wd.text(m) for m in app.wd.find_all('[data-testid="assistant-message"]')]
                if messages and messages[-1].endswith("Done. The tool said: Wrote 9 bytes to notes.txt."):
                    return messages
                return None
            messages = wait_for("the whole old transcript", replayed)
            assert len(messages) == 2, messages
            assert app.run_status() == "completed", app.run_status()
    finally:
        server.kill()


def test_a_rule_allows_without_asking_and_can_be_removed_in_settings():
    app = App("rules", "write-hello.json")
    os.makedirs(app.data)
    with open(os.path.join(app.data, "rules.toml"), "w", encoding="utf-8") as f:
        f.write('[[allow]]\ntool = "write_file"\nmatch = "hello.txt"\n')
    with app:
        app.start_task("Please greet me in a file")
        assert app.wait_finished() == "completed"
        assert not app.wd.find_all('[data-testid="approval-card"]')
        assert os.path.exists(os.path.join(app.workspace, "hello.txt"))
        text = app.wd.text(app.wd.find_all('[data-testid="tool-call"]')[0])
        assert "allowed by your rules" in text, text
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        rule = wait_for("the rule", lambda: app.wd.find_all('[data-testid="rule-sentence"]'))[0]
        assert app.wd.text(rule) == "Always allow writing hello.txt", app.wd.text(rule)
        app.wd.click(app.wd.find_all('[data-testid="remove-rule"]')[0])
        wait_for("the rule to go", lambda: not app.wd.find_all('[data-testid="rule"]'))
        with open(os.path.join(app.data, "rules.toml"), encoding="utf-8") as f:
            assert "hello.txt" not in f.read()


def test_an_mcp_server_added_in_settings_is_used_by_the_next_task():
    program = os.path.join(ROOT, "tests", "mcp", "node_modules", ".bin", "mcp-server-everything")
    assert os.path.exists(program), f"{program} is missing: run npm ci in tests/mcp"
    scenario = scenario_file([
        {"say": "Asking the new server.", "tool_calls": [
            {"name": "everything__echo", "arguments": {"message": "hello from MCP"}}]},
        {"say": "Done."},
    ])
    with App("mcp", scenario) as app:
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        app.wd.click(wait_for("Add an MCP server", lambda: app.wd.find_all('[data-testid="mcp-add"]'))[0])
        app.wd.type(wait_for("the form", lambda: app.wd.find_all('[data-testid="mcp-name"]'))[0], "everything")
        app.wd.type(app.wd.find_all('[data-testid="mcp-command"]')[0], f"'{program}' stdio")
        app.wd.click(app.wd.find_all('[data-testid="mcp-env-add"]')[0])
        app.wd.type(wait_for("a variable row", lambda: app.wd.find_all('[data-testid="mcp-env-name"]'))[0], "E2E_TOKEN")
        app.wd.type(app.wd.find_all('[data-testid="mcp-env-value"]')[0], "tok-123")
        app.wd.click(app.wd.find_all('[data-testid="mcp-save"]')[0])
        server = wait_for("the server listed", lambda: app.wd.find_all('[data-testid="mcp-server"]'))[0]
        text = app.wd.text(server)
        assert "everything" in text and "stdio" in text and "E2E_TOKEN" in text, text
        assert "tok-123" not in app.wd.execute("return document.body.innerText")
        app.wd.screenshot(os.path.join(ARTIFACTS, "mcp-settings.png"))
        audit(app, "the MCP servers in the settings")
        with open(os.path.join(app.data, "settings.json"), encoding="utf-8") as f:
            saved = json.load(f)["mcp_servers"]
        assert saved == [{"name": "everything", "command": program, "args": ["stdio"],
                          "env": {"E2E_TOKEN": "tok-123"}, "trusted": False}], saved
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])  # close the panel

        app.start_task("Say hello through the server")
        card = app.card()
        assert "everything" in app.wd.text(card), app.wd.text(card)
        app.press(card, "approve")
        assert app.wait_finished() == "completed"
        call = app.wd.find_all('[data-testid="tool-call"]')[0]
        assert app.wd.attr(call, "data-state") == "succeeded"
        logs = [os.path.join(app.data, "sessions", f) for f in log_names(app.data)]
        assert any("Echo: hello from MCP" in open(path, encoding="utf-8").read() for path in logs), \
            "the server's answer reached the agent"

        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        status = wait_for("the status", lambda: app.wd.find_all('[data-testid="mcp-status"]'))[0]
        assert app.wd.text(status).startswith("Running,"), app.wd.text(status)
        audit(app, "a running MCP server in the settings")
        app.wd.click(app.wd.find_all('[data-testid="mcp-remove"]')[0])
        app.wd.click(wait_for("confirm", lambda: app.wd.find_all('[data-testid="mcp-remove-confirm"]'))[0])
        wait_for("the server to go", lambda: not app.wd.find_all('[data-testid="mcp-server"]'))
        with open(os.path.join(app.data, "settings.json"), encoding="utf-8") as f:
            assert "mcp_servers" not in json.load(f)


def test_a_broken_settings_file_opens_the_window_and_says_so():
    app = App("broken-settings", "write-hello.json")
    os.makedirs(app.data)
    with open(os.path.join(app.data, "settings.json"), "w", encoding="utf-8") as f:
        f.write('{"provider": "openai", "model": ')  # cut off mid-way
    with app:
        banner = wait_for("the banner", lambda: app.wd.find_all('[data-testid="settings-error"]'))[0]
        text = app.wd.text(banner)
        assert "Your settings file has a mistake" in text, text
        # Which file, and what is wrong with it, one click away.
        assert "settings.json" in open_details(app, banner), text
        app.wd.screenshot(os.path.join(ARTIFACTS, "broken-settings.png"))
        audit(app, "the banner about a broken settings file")
        app.start_task("Please greet me in a file")
        app.press(app.card(), "approve")
        assert app.wait_finished() == "completed"
        with open(os.path.join(app.data, "settings.json"), encoding="utf-8") as f:
            assert f.read() == '{"provider": "openai", "model": ', "the file was left for the person to fix"


TESTS = [test_openai_provider_streams_asks_and_answers,
         test_settings_choose_a_provider_and_sessions_reopen,
         test_a_rule_allows_without_asking_and_can_be_removed_in_settings,
         test_an_mcp_server_added_in_settings_is_used_by_the_next_task,
         test_a_broken_settings_file_opens_the_window_and_says_so]
