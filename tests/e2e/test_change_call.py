"""Changing a call before saying yes (issue 43, point 3), in the real window: "Change…" on a
write card opens labelled fields, Cancel leaves the card as it was, Save (pressed twice) ends
the card once and a new card shows the changed call's diff, Approve writes exactly the changed
file; a change to a place a "never" rule covers is refused without a card; the transcript keeps
the call asked and the call run, also when the conversation is reopened; the editor fits at the
minimum window size in English, Portuguese and Chinese."""
import os
import shutil
import tempfile

from harness.a11y import audit
from harness.app import App, card_css, scenario_file
from harness.env import ARTIFACTS
from harness.wait import wait_for
from harness.webdriver import ELEMENT
from test_language import MIN_SIZE, OVERFLOWS

WRITE = {"name": "write_file", "arguments": {"path": "draft.txt", "content": "Dear Ann,\n"}}


def one_write():
    return scenario_file([{"say": "Writing the letter.", "tool_calls": [WRITE]}, {"say": "Done."}])


def field(app, card, name):
    return wait_for(f"the {name} field", lambda: app.in_card(
        card, f'[data-testid="approval-edit-field"][data-field="{name}"]'))[0]


def value(app, card, name):
    return app.wd.execute("return arguments[0].value", {ELEMENT: field(app, card, name)})


def set_value(app, card, name, text):
    """Replaces the field's text as typing would (select all, then type)."""
    element = field(app, card, name)
    app.wd.execute("arguments[0].select()", {ELEMENT: element})
    app.wd.type(element, text)
    wait_for(f"{name} to read {text!r}", lambda: value(app, card, name) == text)


def test_change_a_write_then_approve_exactly_the_changed_call():
    root = tempfile.mkdtemp(prefix="askfirst-e2e-change-")
    try:
        changed_then_reopened(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def changed_then_reopened(root):
    data, workspace = os.path.join(root, "data"), os.path.join(root, "workspace")
    os.makedirs(workspace)
    with App("change-write", one_write(), data=data, workspace=workspace) as app:
        app.start_task("Write a letter to Ann")
        card = app.card()
        app.press(card, "approval-change-call")
        assert value(app, card, "path") == "draft.txt"
        assert value(app, card, "content") == "Dear Ann,\n"
        app.wd.screenshot(os.path.join(ARTIFACTS, "change-editor.png"))
        audit(app, "the change editor on a card")

        # Cancel leaves the card as it was.
        set_value(app, card, "path", "elsewhere.txt")
        app.on_card(card, '[data-testid="approval-edit-cancel"]', app.wd.click)
        wait_for("the editor to close", lambda: not app.in_card(card, '[data-testid="approval-edit"]'))
        assert app.in_card(card, '[data-testid="approve"]')
        assert "draft.txt" in app.card_field(card, "approval-summary")
        assert "Dear Ann," in app.card_field(card, "approval-diff")

        # Save, pressed twice quickly: one change, one new card.
        app.press(card, "approval-change-call")
        set_value(app, card, "path", "Letters/ann.txt")
        set_value(app, card, "content", "Dear Ann, see you soon.")
        save = app.on_card(card, '[data-testid="approval-edit-save"]', lambda e: e)
        app.wd.click_twice(save, 40)
        wait_for("the first card to go", lambda: not app.wd.find_all(card_css(card)))
        second = wait_for("the changed call's card", lambda: [c for c in app.cards() if c.id != card.id])[0]
        summary = app.card_field(second, "approval-summary")
        assert "Letters/ann.txt" in summary, summary
        diff = app.card_field(second, "approval-diff")
        assert "see you soon." in diff, diff
        assert len(app.cards()) == 1
        assert not os.path.exists(os.path.join(app.workspace, "draft.txt"))
        assert not os.path.exists(os.path.join(app.workspace, "Letters", "ann.txt"))
        app.wd.screenshot(os.path.join(ARTIFACTS, "change-new-card.png"))
        app.press(second, "approve")
        assert app.wait_finished() == "completed"
        with open(os.path.join(app.workspace, "Letters", "ann.txt"), encoding="utf-8") as f:
            assert f.read() == "Dear Ann, see you soon."
        assert not os.path.exists(os.path.join(app.workspace, "draft.txt"))

        # The transcript says it was changed, with the call asked and the call run one click away.
        changed = wait_for("the changed line", lambda: app.wd.find_all('[data-testid="tool-changed"]'))[0]
        app.wd.click(app.wd.find_in(changed, "summary")[0])
        asked = app.text('[data-testid="tool-changed-asked"]')
        to = app.text('[data-testid="tool-changed-to"]')
        assert '"draft.txt"' in asked and '"Letters/ann.txt"' in to, (asked, to)
        app.wd.screenshot(os.path.join(ARTIFACTS, "change-transcript.png"))

        # The log keeps both; the model was told.
        records = app.session_records()
        outcomes = [r["outcome"] for r in records if r.get("kind") == "approval_decided"
                    or r.get("type") == "approval_decided"]
        assert any(o.get("kind") == "changed" and "Letters/ann.txt" in o["arguments_json"]
                   for o in outcomes), outcomes
        results = [r for r in records if "message" in r and isinstance(r["message"], dict)
                   and r["message"].get("role") == "tool_result"]
        assert results and results[-1]["message"]["content"].startswith(
            "The person changed this call before approving it; what ran was: write_file"), results

        # Reopened (after a restart), the transcript still holds both.
    with App("change-write-again", None, data=data, workspace=workspace) as again:
        again.wd.click(again.wd.find_all('[data-testid="sessions"]')[0])
        again.click('[data-testid="open-session"]')
        changed = wait_for("the changed line", lambda: again.wd.find_all('[data-testid="tool-changed"]'))[0]
        again.wd.click(again.wd.find_in(changed, "summary")[0])
        assert '"draft.txt"' in again.text('[data-testid="tool-changed-asked"]')
        assert '"Letters/ann.txt"' in again.text('[data-testid="tool-changed-to"]')


def test_a_change_into_a_never_place_is_refused_without_a_card():
    app = App("change-never", one_write())
    os.makedirs(os.path.join(app.workspace, "Taxes"))
    os.makedirs(app.data)
    with open(os.path.join(app.data, "rules.toml"), "w", encoding="utf-8") as f:
        f.write('[[deny]]\ntool = "*"\nmatch = "Taxes/**"\n')
    with app:
        app.start_task("Write a letter to Ann")
        card = app.card()
        app.press(card, "approval-change-call")
        set_value(app, card, "path", "Taxes/ann.txt")
        app.press(card, "approval-edit-save")
        assert app.wait_finished() == "completed"
        assert not app.wd.find_all('[data-testid="approval-card"]')
        assert [state for state, _ in app.tool_calls()] == ["denied"]
        assert not os.path.exists(os.path.join(app.workspace, "Taxes", "ann.txt"))
        app.wd.screenshot(os.path.join(ARTIFACTS, "change-refused.png"))


def test_the_change_editor_fits_at_the_minimum_size_in_three_languages():
    for lang, label in (("C.UTF-8", "en"), ("pt_BR.UTF-8", "pt"), ("zh_CN.UTF-8", "zh")):
        with App(f"change-min-{label}", one_write(), {"LANG": lang}) as app:
            app.start_task("Write a letter to Ann")
            card = app.card()
            try:
                app.wd.s("POST", "/window/rect", {"width": MIN_SIZE[0], "height": MIN_SIZE[1]})
            except RuntimeError as e:
                print(f"  (could not resize the window: {e})", flush=True)
            wait_for("the window at its minimum width", lambda: app.wd.execute(
                "return document.documentElement.clientWidth") <= MIN_SIZE[0])
            app.press(card, "approval-change-call")
            field(app, card, "content")
            app.wd.execute("document.querySelector('[data-testid=\"approval-edit-save\"]')"
                           ".scrollIntoView({block: 'end'})")
            app.wd.screenshot(os.path.join(ARTIFACTS, f"change-min-{label}.png"))
            overflows = app.wd.execute(OVERFLOWS)
            assert overflows == [], f"{label} at {MIN_SIZE}: {overflows}"
            # Keyboard: Escape in a field is Cancel.
            app.wd.click(field(app, card, "path"))
            app.wd.key("\ue00c")
            wait_for("the editor to close", lambda: not app.in_card(card, '[data-testid="approval-edit"]'))
            app.press(card, "deny")
            assert app.wait_finished() == "completed"


TESTS = [
    test_change_a_write_then_approve_exactly_the_changed_call,
    test_a_change_into_a_never_place_is_refused_without_a_card,
    test_the_change_editor_fits_at_the_minimum_size_in_three_languages,
]
