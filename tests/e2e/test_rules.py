"""Rules in the window: a "never" rule for a folder added in Settings from choices (no file
syntax) stops the agent's next write there with the rule's sentence on the transcript; the
file keeps the person's comments; removing the rule in Settings makes the same write ask."""
import os

from harness.a11y import audit
from harness.app import App, scenario_file
from harness.env import ARTIFACTS
from harness.wait import wait_for

SENTENCE = "Never touch anything in Private"


def choose(app, testid, value):
    """Sets a <select> the way a person's choice does (its change event)."""
    app.wd.execute(
        "const s = document.querySelector(`[data-testid='${arguments[0]}']`);"
        "s.value = arguments[1]; s.dispatchEvent(new Event('change', {bubbles: true}));",
        testid, value)


def test_a_never_rule_added_in_settings_stops_the_next_write_and_can_be_removed():
    write = {"name": "write_file", "arguments": {"path": "Private/plan.txt", "content": "secret\n"}}
    scenario = scenario_file([
        {"say": "Writing the plan.", "tool_calls": [write]},
        {"say": "I could not write it."},
        {"say": "Trying again.", "tool_calls": [write]},
        {"say": "Done."},
    ])
    app = App("rules-window", scenario)
    os.makedirs(os.path.join(app.workspace, "Private"))
    os.makedirs(app.data)
    rules_file = os.path.join(app.data, "rules.toml")
    with open(rules_file, "w", encoding="utf-8") as f:
        f.write("# my own notes about rules\n")
    with app:
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        app.wd.click(wait_for("Add a rule", lambda: app.wd.find_all('[data-testid="add-rule"]'))[0])
        wait_for("the form", lambda: app.wd.find_all('[data-testid="rule-form"]'))
        choose(app, "rule-effect", "never")
        choose(app, "rule-what", "*")
        choose(app, "rule-where", "folder")
        folder = wait_for("the folder field", lambda: app.wd.find_all('[data-testid="rule-folder"]'))[0]
        app.wd.type(folder, "Private")
        wait_for("the name typed", lambda: app.wd.execute(
            "return document.querySelector('[data-testid=rule-folder]').value") == "Private")
        audit(app, "the Add a rule form")
        app.wd.screenshot(os.path.join(ARTIFACTS, "settings-rules-form.png"))
        app.wd.click(app.wd.find_all('[data-testid="rule-save"]')[0])
        sentence = wait_for("the rule listed", lambda: app.wd.find_all('[data-testid="rule-sentence"]'))[0]
        assert app.wd.text(sentence) == SENTENCE, app.wd.text(sentence)
        app.wd.screenshot(os.path.join(ARTIFACTS, "settings-rules.png"))
        with open(rules_file, encoding="utf-8") as f:
            text = f.read()
        assert text == '# my own notes about rules\n\n[[deny]]\ntool = "*"\nmatch = "Private/**"\n', text

        # The agent's next write there: refused without a card, the rule's sentence shown.
        app.start_task("Write my plan into Private")
        assert app.wait_finished() == "completed"
        assert not app.wd.find_all('[data-testid="approval-card"]')
        assert not os.path.exists(os.path.join(app.workspace, "Private", "plan.txt"))
        call = app.wd.text(wait_for("the call", lambda: app.wd.find_all('[data-testid="tool-call"]'))[0])
        assert f"Your rule “{SENTENCE}” forbids this)" in call, call
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])  # closes Settings
        app.wd.execute("document.querySelector('[data-testid=tool-call]').scrollIntoView()")
        app.wd.screenshot(os.path.join(ARTIFACTS, "rules-refused.png"))
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])

        # Removed in Settings: the same write asks again.
        app.wd.click(wait_for("Remove", lambda: app.wd.find_all('[data-testid="remove-rule"]'))[0])
        wait_for("the rule to go", lambda: app.wd.find_all('[data-testid="rules-none"]'))
        with open(rules_file, encoding="utf-8") as f:
            assert f.read() == "# my own notes about rules\n"
        app.start_task("Try again")
        card = app.card()
        summary = app.card_field(card, "approval-summary")
        assert "plan.txt" in summary, summary
        app.press(card, "deny")
        assert app.wait_finished() == "completed"


TESTS = [test_a_never_rule_added_in_settings_stops_the_next_write_and_can_be_removed]
