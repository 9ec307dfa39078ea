"""Who answers, in Settings: "Test the connection" against a local fake OpenAI-compatible server
(started here) says it works, then, with a wrong key, that the key was refused; an unknown
model offers the models the server has; nothing at an address and no Ollama on this computer
are said plainly. Each outcome is screenshotted (artifacts connection-*.png)."""
import os
import socket
import subprocess

from harness.app import App
from harness.env import ARTIFACTS, HERE, PYTHON
from harness.wait import wait_for
from harness.webdriver import ELEMENT


def set_value(app, testid, value):
    """Sets an input or a select as a person would leave it (input and change events)."""
    field = wait_for(testid, lambda: app.wd.find_all(f'[data-testid="{testid}"]'))[0]
    app.wd.execute("const f = arguments[0]; f.value = arguments[1];"
                   "f.dispatchEvent(new Event('input', {bubbles: true}));"
                   "f.dispatchEvent(new Event('change', {bubbles: true}));", {ELEMENT: field}, value)


def tested(app, shot):
    """Clicks Test the connection; returns (outcome, sentence) once the result shows."""
    app.wd.click(app.wd.find_all('[data-testid="test-connection"]')[0])
    result = wait_for("the test's result", lambda: app.wd.find_all('[data-testid="connection-result"]'), timeout=40)[0]
    shoot(app, shot)
    return app.wd.attr(result, "data-outcome"), app.wd.text(result)


def shoot(app, shot):
    """A screenshot once the page has painted what is in the DOM (two animation frames)."""
    app.wd.execute("return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));")
    app.wd.screenshot(os.path.join(ARTIFACTS, f"connection-{shot}.png"))


def closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_settings_test_the_connection_works_then_a_wrong_key_is_refused():
    server = subprocess.Popen([PYTHON, os.path.join(HERE, "fake_openai.py")], stdout=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().strip()
        with App("connection", None, {}) as app:
            app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
            set_value(app, "settings-provider", "openai")
            set_value(app, "settings-base-url", f"http://127.0.0.1:{port}/v1")
            set_value(app, "settings-model", "e2e-model")
            set_value(app, "settings-api-key", "sk-e2e")
            outcome, sentence = tested(app, "works")
            assert outcome == "works", (outcome, sentence)
            assert sentence == f"It works: e2e-model at 127.0.0.1:{port} answered.", sentence

            set_value(app, "settings-api-key", "sk-wrong")
            wait_for("the old result to go", lambda: not app.wd.find_all('[data-testid="connection-result"]'))
            outcome, sentence = tested(app, "key-refused")
            assert outcome == "key_refused", (outcome, sentence)
            assert sentence.startswith(f"The key was refused by 127.0.0.1:{port}."), sentence
            detail = app.wd.find_all('[data-testid="connection-detail"]')
            assert detail, "the technical detail is one click away"

            set_value(app, "settings-api-key", "sk-e2e")
            set_value(app, "settings-model", "no-such-model")
            outcome, sentence = tested(app, "model-not-found")
            assert outcome == "model_not_found", (outcome, sentence)
            models = [app.wd.text(m) for m in app.wd.find_all('[data-testid="connection-model"]')]
            assert models == ["e2e-model"], models
            app.wd.click(app.wd.find_all('[data-testid="connection-model"]')[0])
            model = app.wd.find_all('[data-testid="settings-model"]')[0]
            assert app.wd.execute("return arguments[0].value;", {ELEMENT: model}) == "e2e-model"

            set_value(app, "settings-base-url", f"http://127.0.0.1:{closed_port()}/v1")
            outcome, sentence = tested(app, "nothing-answers")
            assert outcome == "nothing_answers", (outcome, sentence)
            assert sentence.startswith("Nothing answers at 127.0.0.1:"), sentence

            # Nothing saved by testing: the settings file was never written.
            assert not os.path.exists(os.path.join(app.data, "settings.json"))

            # Ollama is looked for as soon as it is chosen; none runs here.
            set_value(app, "settings-base-url", "")
            set_value(app, "settings-provider", "ollama")
            status = wait_for("the Ollama finder", lambda: app.wd.find_all('[data-testid="local-models-status"]'))[0]
            shoot(app, "no-ollama")
            text = app.wd.text(status)
            if "Ollama is running" not in text:  # (a developer's own Ollama may run here)
                assert text.startswith("No local model is running on this computer."), text
    finally:
        server.kill()


TESTS = [test_settings_test_the_connection_works_then_a_wrong_key_is_refused]
