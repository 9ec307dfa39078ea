"""Accessibility of the real window: axe-core finds no WCAG 2.2 AA violation on any screen, every
focus stop shows a ring that stands out, and a person can do everything with the keyboard."""
import json
import os

from harness.a11y import audit, focus_stop
from harness.app import App, scenario_file
from harness.env import ARTIFACTS
from harness.wait import fresh, wait_for
from harness.webdriver import CONTROL, ELEMENT, ENTER, SPACE, TAB


def test_accessibility_contrast_names_and_keyboard():
    scenario = scenario_file([
        {"say": "Looking first.", "tool_calls": [{"name": "list_directory", "arguments": {"path": "."}}]},
        # (The command first: it is tried on a copy of the folder as the calls before it left it,
        # so its card, listing what it did, comes once those ran; first, all three wait at once.)
        {"say": "Three changes, each needs your OK.", "tool_calls": [
            {"name": "run_command", "arguments": {"command": "echo hi > hi.txt"}},
            {"name": "write_file", "arguments": {"path": "notes.txt", "content": "milk\n"}},
            {"name": "delete_path", "arguments": {"path": "old.txt"}}]},
        {"say": "Done."},
    ])
    app = App("a11y", scenario)
    with open(os.path.join(app.workspace, "old.txt"), "w") as f:
        f.write("old\n")
    with app:
        audit(app, "the empty window")
        # The audit can fail: pale text, then a nameless button, put in the page are caught,
        # and the message names axe's rule, its impact and where the element is.
        # (Colour set through the CSSOM: the page's CSP refuses inline style attributes.)
        for tag, text, expected in (("p", "pale", "color-contrast (serious)"),
                                    ("button", "", "button-name (critical)")):
            app.wd.execute("const d = document.createElement('div'); d.id = 'a11y-probe';"
                           "const e = document.createElement(arguments[0]); e.textContent = arguments[1];"
                           "d.appendChild(e); d.style.color = '#aaaaaa';"
                           "document.body.appendChild(d);", tag, text)
            try:
                audit(app, "a page with a probe")
                raise AssertionError(f"the audit missed a <{tag}>")
            except AssertionError as e:
                assert expected in str(e) and "#a11y-probe" in str(e), e
            app.wd.execute("document.getElementById('a11y-probe').remove()")
        # Keyboard only: type the task and start it with Ctrl+Enter; the focus stays in the box.
        box = app.wd.find_all('[data-testid="task-input"]')[0]
        app.wd.type(box, "Tidy up")
        app.wd.chord(CONTROL, ENTER)
        wait_for("the run to start", lambda: app.run_status() == "running")
        assert app.wd.execute("return document.activeElement.getAttribute('data-testid')") == "task-input"
        cards = wait_for("three cards", lambda: (lambda c: c if len(c) == 3 else None)(app.cards()))
        risks = sorted(app.card_field(c, "approval-risk") for c in cards)
        # The command's card is of what it did on the copy: a new file, medium as a write.
        assert risks == ["High risk", "Medium risk", "Medium risk"], risks
        commands = [text for c in cards for text in app.card_texts(c, '[data-testid="approval-command"]')]
        assert commands == ["echo hi > hi.txt"], commands
        # Screen readers: each card is named by its summary; the newest request is announced.
        names = app.wd.execute("""return [...document.querySelectorAll('[data-testid="approval-card"]')].map(
            (c) => document.getElementById(c.getAttribute('aria-labelledby')).textContent.trim());""")
        assert sorted(names) == sorted(app.card_field(c, "approval-summary") for c in cards), names
        announced = app.wd.execute(
            "return document.querySelector('[data-testid=approval-announcer]').textContent.replace(/\\s+/g, ' ').trim()")
        assert announced.startswith("Ask First needs your OK (3 waiting):"), announced
        wait_for("the cards to arm", lambda: all(app.armed_button(c, "approve") for c in cards))
        audit(app, "three waiting cards")
        app.wd.screenshot(os.path.join(ARTIFACTS, "a11y-cards.png"))

        # Keyboard only from the task box: every focus stop shows a ring that stands out (3:1,
        # WCAG 2.1 SC 1.4.11), and each card's buttons are reached.
        app.wd.click(app.wd.find_all('[data-testid="task-input"]')[0])
        stops = []
        for _ in range(80):
            app.wd.key(TAB)
            stop = focus_stop(app)
            if stop:
                stops.append(stop)
        reached_ids = {f["testid"] for f in stops}
        assert {"settings", "sessions", "task-input", "cancel-run"} <= reached_ids, reached_ids
        weak = [f for f in stops if not f["ring"] or f["ringContrast"] < 3]
        assert not weak, f"focus not visible enough: {json.dumps(weak, indent=1)}"
        ids = {c.id for c in cards}
        for testid in ("approve", "deny"):
            reached = {f["card"] for f in stops if f["testid"] == testid}
            assert ids <= reached, f"{testid} not reached by Tab on every card: {stops}"

        # Answer by keyboard: Enter approves the write, Space denies the other two.
        def focus_button(card, testid):
            # A card that moved up re-arms first (double-click safety); it may be redrawn too.
            fresh(f"{testid} to be armed", lambda: app.armed_button(card, testid),
                  lambda button: app.wd.execute("arguments[0].focus()", {ELEMENT: button}))
        def gone(card_id):
            # The cards below an answered one move up when it leaves and re-arm: wait for it to
            # leave before aiming at the next, or the key may land on a button just disarmed.
            wait_for("the answered card to go", lambda: not app.wd.find_all(f'[data-approval-id="{card_id}"]'))
        by_tool = {app.card_field(c, "approval-tool"): c for c in cards}
        id_of = {tool: c.id for tool, c in by_tool.items()}
        focus_button(by_tool["write_file"], "approve")
        app.wd.key(ENTER)
        gone(id_of["write_file"])
        # The focus is not dropped to the page with the answered card: it is on the card that
        # took its place.
        focused = wait_for("the focus on the next card", lambda: app.wd.execute(
            "const a = document.activeElement; return a && a.getAttribute('data-testid') === 'approval-card'"
            " && a.getAttribute('data-approval-id')"))
        assert focused in (id_of["run_command"], id_of["delete_path"]), focused
        # Tab goes on into that card's buttons while they re-arm (unavailable but still in the
        # Tab order), not past them to the next card.
        inside = []
        for _ in range(8):
            app.wd.key(TAB)
            stop = app.wd.execute(
                "const a = document.activeElement, c = a && a.closest('[data-testid=\"approval-card\"]');"
                " return c ? [c.getAttribute('data-approval-id'), a.getAttribute('data-testid'),"
                " a.getAttribute('aria-disabled')] : null")
            if not stop or stop[0] != focused:
                break
            inside.append(stop[1:])
        print(f"  Tab stops in the next card right after answering: {inside}", flush=True)
        reached = [testid for testid, _ in inside]
        assert "deny" in reached and "approve" in reached, inside
        for tool in ("run_command", "delete_path"):
            focus_button(by_tool[tool], "deny")
            app.wd.key(SPACE)
            gone(id_of[tool])
        assert app.wait_finished() == "completed"
        assert os.path.exists(os.path.join(app.workspace, "notes.txt"))
        assert not os.path.exists(os.path.join(app.workspace, "hi.txt"))
        assert os.path.exists(os.path.join(app.workspace, "old.txt"))
        states = [app.wd.attr(c, "data-state") for c in app.wd.find_all('[data-testid="tool-call"]')]
        assert states == ["succeeded", "denied", "succeeded", "denied"], states
        audit(app, "the finished transcript")

        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        wait_for("the settings", lambda: app.wd.find_all('[data-testid="settings-panel"]'))
        app.wd.click(wait_for("Add an MCP server", lambda: app.wd.find_all('[data-testid="mcp-add"]'))[0])
        app.wd.click(wait_for("Add a variable", lambda: app.wd.find_all('[data-testid="mcp-env-add"]'))[0])
        audit(app, "the settings with the MCP form")
        app.wd.screenshot(os.path.join(ARTIFACTS, "a11y-settings.png"))
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
        wait_for("the sessions", lambda: app.wd.find_all('[data-testid="sessions-panel"]'))
        audit(app, "the sessions list")


TESTS = [test_accessibility_contrast_names_and_keyboard]
