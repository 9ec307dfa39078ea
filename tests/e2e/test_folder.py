"""The person's folder and the welcome (issue 13): the welcome of a first launch picks a folder
(the picker answered by ASKFIRST_TEST_PICK_FOLDER, DESIGN.md §6) and the task works there; the
welcome can be skipped and does not come back; the folder line says which folder, the demo, a
refused folder, or ASKFIRST_WORKSPACE."""
import json
import os
import shutil
import tempfile

from harness.a11y import audit
from harness.app import App
from harness.desktop import window_viewable
from harness.env import ARTIFACTS
from harness.wait import wait_for
from harness.webdriver import ELEMENT
from test_connection import closed_port, set_value


def one(app, testid):
    return wait_for(testid, lambda: app.wd.find_all(f'[data-testid="{testid}"]'))[0]


def test_welcome_picks_a_folder_and_the_task_works_there():
    folder = tempfile.mkdtemp(prefix="askfirst-e2e-picked-")
    try:
        # No scripted provider: the welcome offers every choice, and the demo answers.
        with App("welcome", None, {"ASKFIRST_TEST_PICK_FOLDER": folder},
                 workspace=folder, fixed_workspace=False) as app:
            welcome = one(app, "welcome")
            assert app.wd.text(one(app, "welcome-folder")) == "Working in the demo folder (sample files)"
            audit(app, "the welcome's first step")
            app.wd.screenshot(os.path.join(ARTIFACTS, "welcome-folder.png"))
            app.wd.click(one(app, "welcome-pick"))
            wait_for("the picked folder", lambda: app.wd.text(one(app, "welcome-folder")) == f"Working in: {folder}")
            app.wd.click(one(app, "welcome-next"))
            wait_for("step 2", lambda: app.wd.attr(welcome, "data-step") == "2")
            one(app, "welcome-provider")
            audit(app, "the welcome's second step")
            app.wd.screenshot(os.path.join(ARTIFACTS, "welcome-provider.png"))
            app.wd.click(one(app, "provider-save"))
            wait_for("the welcome gone", lambda: not app.wd.find_all('[data-testid="welcome"]'))
            line = one(app, "folder-line")
            assert app.wd.text(one(app, "folder-path")) == f"Working in: {folder}"
            assert app.wd.attr(line, "data-demo") == "false"
            app.wd.screenshot(os.path.join(ARTIFACTS, "folder-line.png"))
            with open(os.path.join(app.data, "settings.json"), encoding="utf-8") as f:
                saved = json.load(f)
            assert saved["workspace"] == os.path.realpath(folder) and saved["welcome_done"] is True, saved
            # The demo lists the folder, then asks to write summary.txt there.
            app.start_task("Tidy up my folder")
            app.press(app.card(), "approve")
            assert app.wait_finished() == "completed"
            assert os.path.exists(os.path.join(folder, "summary.txt"))
            assert not os.path.exists(os.path.join(app.data, "Demo folder", "summary.txt"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_welcome_skipped_stays_away_and_the_data_folder_is_refused():
    data = tempfile.mkdtemp(prefix="askfirst-e2e-skip-")
    try:
        env = {"ASKFIRST_TEST_PICK_FOLDER": data}
        with App("welcome-skip", "write-hello.json", env, data=data, fixed_workspace=False) as app:
            app.wd.click(one(app, "welcome-skip"))
            wait_for("the welcome gone", lambda: not app.wd.find_all('[data-testid="welcome"]'))
            assert app.wd.text(one(app, "folder-path")) == "Working in the demo folder (sample files)"
            assert app.wd.attr(one(app, "folder-line"), "data-demo") == "true"
            # The picker answers with Ask First's own data folder: refused, in a sentence.
            app.wd.click(one(app, "folder-change"))
            error = one(app, "folder-error")
            assert app.wd.text(error) == (
                "That folder holds Ask First's own files (its settings, keys and history), which the "
                "agent must never change. Choose another folder."), app.wd.text(error)
            assert app.wd.text(one(app, "folder-path")) == "Working in the demo folder (sample files)"
            app.wd.screenshot(os.path.join(ARTIFACTS, "folder-refused.png"))
        # The next launch on the same data shows no welcome, and still works in the demo.
        with App("welcome-skip-again", "write-hello.json", env, data=data, fixed_workspace=False) as app:
            assert app.wd.text(one(app, "folder-path")) == "Working in the demo folder (sample files)"
            assert not app.wd.find_all('[data-testid="welcome"]')
            # Settings shows it again.
            app.wd.click(one(app, "settings"))
            app.wd.click(one(app, "show-welcome"))
            assert app.wd.attr(one(app, "welcome"), "data-step") == "1"
            assert not app.wd.find_all('[data-testid="settings-panel"]')
    finally:
        shutil.rmtree(data, ignore_errors=True)


def test_askfirst_workspace_is_said_and_not_changed_here():
    with App("folder-env", "write-hello.json") as app:
        assert not app.wd.find_all('[data-testid="welcome"]')
        line = one(app, "folder-line")
        assert app.wd.text(line) == f"Working in: {app.workspace} (set by ASKFIRST_WORKSPACE)", app.wd.text(line)
        assert not app.wd.find_all('[data-testid="folder-change"]')
        app.wd.click(one(app, "settings"))
        one(app, "show-welcome")
        assert not app.wd.find_all('[data-testid="settings-change-folder"]')


def test_a_reopened_conversation_whose_folder_is_gone_says_so_and_takes_another():
    folder = tempfile.mkdtemp(prefix="askfirst-e2e-gone-")
    try:
        with App("folder-gone", "write-hello.json", {"ASKFIRST_TEST_PICK_FOLDER": folder},
                 workspace=folder, fixed_workspace=False) as app:
            app.wd.click(one(app, "welcome-skip"))
            wait_for("the welcome gone", lambda: not app.wd.find_all('[data-testid="welcome"]'))
            app.wd.click(one(app, "folder-change"))
            wait_for("the picked folder", lambda: app.wd.text(one(app, "folder-path")) == f"Working in: {folder}")
            app.start_task("Please greet me in a file")
            app.press(app.card(), "approve")
            assert app.wait_finished() == "completed"
            # A new conversation, then the folder goes away, then the old one is reopened.
            app.wd.click(one(app, "sessions"))
            app.wd.click(one(app, "new-session"))
            wait_for("the sessions panel closed", lambda: not app.wd.find_all('[data-testid="sessions-panel"]'))
            shutil.rmtree(folder)
            app.wd.click(one(app, "sessions"))
            app.wd.click(one(app, "open-session"))
            line = one(app, "folder-line")
            wait_for("the folder said gone", lambda: app.wd.attr(line, "data-missing") == "true")
            assert app.wd.text(one(app, "folder-path")) == f"This conversation's folder, {folder}, is no longer there."
            assert app.wd.text(one(app, "folder-change")) == "Choose another folder…"
            app.wd.screenshot(os.path.join(ARTIFACTS, "folder-gone.png"))
            audit(app, "a conversation whose folder is gone")
            # Another folder (the picker answers the same path, made again) for this conversation.
            os.makedirs(folder)
            app.wd.click(one(app, "folder-change"))
            wait_for("the folder back", lambda: app.wd.attr(line, "data-missing") == "false")
            app.start_task("Please greet me in a file")
            app.press(app.card(), "approve")
            assert app.wait_finished() == "completed"
            assert os.path.exists(os.path.join(folder, "hello.txt"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_change_opens_the_native_folder_picker():
    # Without the test hook: the real GTK picker of tauri-plugin-dialog, titled for the person.
    with App("folder-picker", "write-hello.json", fixed_workspace=False) as app:
        app.wd.click(one(app, "welcome-skip"))
        wait_for("the welcome gone", lambda: not app.wd.find_all('[data-testid="welcome"]'))
        app.wd.click(one(app, "folder-change"))
        wait_for("the folder picker", lambda: window_viewable("Choose the folder the agent may work in"),
                 timeout=20)



def test_the_welcome_stays_put_as_its_messages_appear():
    """Issue 41.9: the welcome did not stay put: centred on the screen, it moved up by half of
    every line that appeared (a refusal, a test's answer), so the field the person was about to
    click moved away under the pointer and what they typed went nowhere. It now hangs from a
    fixed line: what is above a new message does not move, and typing lands in the field."""
    with App("welcome-steady", None, {}, fixed_workspace=False) as app:
        welcome = one(app, "welcome")

        def top(testid):
            return app.wd.execute("return arguments[0].getBoundingClientRect().top;",
                                  {ELEMENT: one(app, testid)})

        app.wd.click(one(app, "welcome-next"))
        wait_for("step 2", lambda: app.wd.attr(welcome, "data-step") == "2")
        set_value(app, "settings-provider", "openai")
        address = top("settings-base-url")
        heading = top("welcome-provider")
        set_value(app, "settings-base-url", f"http://127.0.0.1:{closed_port()}/v1")
        app.wd.click(one(app, "test-connection"))
        wait_for("the test's answer", lambda: app.wd.find_all('[data-testid="connection-result"]'), timeout=40)
        app.wd.execute("return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));")
        assert (top("welcome-provider"), top("settings-base-url")) == (heading, address), (
            "the welcome moved as the test's answer appeared")
        # Typed as a person types (key events), after the answer: every character lands.
        key = one(app, "settings-api-key")
        app.wd.click(key)
        app.wd.type(key, "sk-typed-by-hand")
        assert app.wd.execute("return arguments[0].value;", {ELEMENT: key}) == "sk-typed-by-hand"
        app.wd.screenshot(os.path.join(ARTIFACTS, "welcome-steady.png"))

TESTS = [
    test_welcome_picks_a_folder_and_the_task_works_there,
    test_welcome_skipped_stays_away_and_the_data_folder_is_refused,
    test_askfirst_workspace_is_said_and_not_changed_here,
    test_a_reopened_conversation_whose_folder_is_gone_says_so_and_takes_another,
    test_change_opens_the_native_folder_picker,
    test_the_welcome_stays_put_as_its_messages_appear,
]
