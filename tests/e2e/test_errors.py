"""Errors a person can meet, provoked in the real window: a model service that does not answer,
an MCP server that crashes, a settings file that cannot be read. Each is read as a person reads
it: a sentence saying what happened and what to do, with the technical side only behind a click
on "Details". Screenshots of each go to the artefacts folder (errors-*.png) for docs/."""
import json
import os
import subprocess

from harness.app import App
from harness.env import ARTIFACTS, HERE, PYTHON
from harness.errors import assert_plain, open_details
from harness.wait import wait_for


def shot(app, name):
    app.wd.screenshot(os.path.join(ARTIFACTS, f"errors-{name}.png"))


def test_error_a_model_service_that_does_not_answer():
    # Nothing listens on the discard port: the connection is refused, retried, then given up.
    env = {"ASKFIRST_PROVIDER": "openai", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
           "OPENAI_API_KEY": "sk-e2e", "ASKFIRST_MODEL": "e2e-model"}
    with App("errors-refused", None, env) as app:
        app.start_task("Tidy up my folder")
        assert app.wait_finished() == "failed"
        line = wait_for("why the task stopped", lambda: app.wd.find_all('[data-testid="run-failed"]'))[0]
        said = app.wd.text(line)
        assert said.startswith("The agent stopped: Nothing answered at 127.0.0.1:9."), said
        assert "Check that the model service is running" in said, said
        assert_plain(said)
        shot(app, "model-service-refused")
        detail = open_details(app, line)
        assert "Connection refused" in detail or "error sending request" in detail, detail
        shot(app, "model-service-refused-details")


def test_error_a_conversation_too_long_for_the_model():
    # A model whose window holds one task: the second task of the same conversation is refused
    # as OpenAI refuses one that is too long. The window says to start a new conversation, and
    # the new one works.
    server = subprocess.Popen([PYTHON, os.path.join(HERE, "fake_openai.py"), "--context-turns", "1"],
                              stdout=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().strip()
        env = {"ASKFIRST_PROVIDER": "openai", "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1",
               "OPENAI_API_KEY": "sk-e2e", "ASKFIRST_MODEL": "e2e-model"}
        with App("errors-context", None, env) as app:
            app.start_task("Write down that I need milk")
            app.press(app.card(), "approve")
            assert app.wait_finished() == "completed"
            app.start_task("And eggs too")
            # (The first run's "completed" is still the status until the second one starts:
            # wait for the second one's end by what only a failed run shows.)
            line = wait_for("why the task stopped", lambda: app.wd.find_all('[data-testid="run-failed"]'))[0]
            assert app.wait_finished() == "failed"
            said = app.wd.text(line)
            assert said.startswith(f"The agent stopped: This conversation has grown longer than the "
                                   f"model at 127.0.0.1:{port} can read at once"), said
            assert "click Conversations at the top, then \u201cStart a new conversation\u201d" in said, said
            assert_plain(said)
            shot(app, "context-too-long")
            detail = open_details(app, line)
            assert "HTTP 400" in detail and "maximum context length" in detail, detail
            # What the sentence says to do works: a new conversation, and the task goes on there.
            app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
            new = wait_for("new conversation", lambda: app.wd.find_all('[data-testid="new-session"]'))[0]
            assert app.wd.text(new) == "Start a new conversation", app.wd.text(new)
            app.wd.click(new)
            wait_for("an empty transcript and the panel closed",
                     lambda: not app.wd.find_all('[data-testid="assistant-message"]')
                     and not app.wd.find_all('[data-testid="sessions-panel"]'))
            app.start_task("Write down that I need eggs")
            app.press(app.card(), "approve")
            assert app.wait_finished() == "completed"
    finally:
        server.kill()


def test_error_an_mcp_server_that_crashes():
    app = App("errors-mcp", "write-hello.json")
    os.makedirs(app.data)
    crash = "process.stderr.write('missing API token\\n'); process.exit(3)"
    with open(os.path.join(app.data, "settings.json"), "w", encoding="utf-8") as f:
        json.dump({"mcp_servers": [{"name": "files", "command": "node", "args": ["-e", crash]}]}, f)
    with app:
        app.start_task("Please greet me in a file")
        app.press(app.card(), "approve")
        assert app.wait_finished() == "completed", "a server that fails leaves the task to go on"
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        status = wait_for("the server's status", lambda: [
            s for s in app.wd.find_all('[data-testid="mcp-status"]')
            if "could not be started" in app.wd.text(s)])[0]
        said = app.wd.text(status)
        assert said.startswith('The MCP server "files" could not be started'), said
        assert "missing API token" in said and "Check its command in the settings" in said, said
        assert_plain(said)
        shot(app, "mcp-server-crashed")
        server = app.wd.find_all('[data-testid="mcp-server"]')[0]
        detail = open_details(app, server)
        assert detail.strip(), "no detail for a server that stopped before it was ready"
        shot(app, "mcp-server-crashed-details")


def test_error_a_settings_file_that_cannot_be_read():
    app = App("errors-settings", "write-hello.json")
    # A folder where the settings file should be: reading it fails with the OS's own words.
    os.makedirs(os.path.join(app.data, "settings.json"))
    with app:
        banner = wait_for("the banner", lambda: app.wd.find_all('[data-testid="settings-error"]'))[0]
        said = app.wd.text(banner)
        assert "Your settings file has a mistake" in said, said
        assert_plain(said)
        detail = open_details(app, banner)
        assert "settings.json" in detail and "os error 21" in detail, detail
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        save = wait_for("the settings", lambda: app.wd.find_all('[data-testid="settings-save"]'))[0]
        app.wd.click(save)
        notice = wait_for("why the settings were not saved",
                          lambda: app.wd.find_all('[data-testid="settings-save-error"]'))[0]
        said = app.wd.text(notice)
        assert said.startswith("Your settings file cannot be read or has a mistake"), said
        assert "Fix the file or delete it" in said, said
        assert_plain(said)
        shot(app, "settings-unreadable")
        detail = open_details(app, notice)
        assert "os error 21" in detail, detail
        shot(app, "settings-unreadable-details")


TESTS = [test_error_a_model_service_that_does_not_answer,
         test_error_a_conversation_too_long_for_the_model,
         test_error_an_mcp_server_that_crashes,
         test_error_a_settings_file_that_cannot_be_read]
