"""Answering from a notification: each request's notification has Deny and Open (and Approve
only for new files when the person opted in); Deny there denies exactly its request while
another waits; a click counts only from the notification server (a forged ActionInvoked from
another bus connection, broadcast or sent straight to the app, does nothing); and "Start Ask
First when I log in" writes and removes the desktop's autostart entry."""
import json
import os
import shutil
import tempfile

from harness.app import App, scenario_file
from harness.desktop import (click_notification, closed_notifications, forge_action,
                             hide_by_closing, notifications)
from harness.env import ARTIFACTS
from harness.wait import wait_for

ASKS = "Ask First needs your OK"


def keys(note):
    """The action keys of a notification record (actions alternate key, label)."""
    return note["actions"][0::2]


def key_of(note, button):
    """The action key of `button` (`deny`, `open`, `approve`) on `note`, or None."""
    found = [k for k in keys(note) if k.startswith(button + ":")]
    return found[0] if found else None


def decided(app):
    """The approval_decided records of the app's session logs."""
    return [r for r in app.session_records() if r["type"] == "approval_decided"]


def two_cards_while_hidden(app, think_ms=8000):
    """Starts a task whose two write_file cards come after the window was hidden; returns the
    two notifications that tell them, in order."""
    before = len(notifications())
    app.start_task("Write two files")
    hide_by_closing()
    return wait_for("two notifications", lambda: (lambda n: n if len(n) == 2 else None)(
        [n for n in notifications()[before:] if n["summary"] == ASKS]))


def two_writes(think_ms=8000):
    return scenario_file([
        {"say": "Let me think.", "delay_ms": think_ms, "tool_calls": [
            {"name": "write_file", "arguments": {"path": "one.txt", "content": "first\n"}},
            {"name": "write_file", "arguments": {"path": "two.txt", "content": "second\n"}}]},
        {"say": "Both handled."},
    ])


def test_a_forged_click_does_nothing_and_deny_on_a_notification_denies_only_its_request():
    with App("notify-deny", two_writes()) as app:
        first, second = two_cards_while_hidden(app)
        assert first["body"] == "Create the file one.txt (1 line)\nFolder: workspace", first
        assert second["body"] == "Create the file two.txt (1 line)\nFolder: workspace", second
        for note in (first, second):
            # Open (the body's click and its button) and Deny; no Approve (not opted in).
            assert keys(note)[0] == "default", note
            assert key_of(note, "open") and key_of(note, "deny"), note
            assert key_of(note, "approve") is None, note
            labels = note["actions"][1::2]
            assert labels == ["Open", "Open", "Deny"], note
        # Each notification has a nonce of its own.
        assert key_of(first, "deny") != key_of(second, "deny")
        cards = wait_for("two cards", lambda: (lambda c: c if len(c) == 2 else None)(app.cards()))
        one_id, two_id = cards[0].id, cards[1].id

        # Forged clicks from another connection, even with the right key: broadcast, and sent
        # straight to the app's connection.
        app_bus = first["sender"]
        for to in (None, app_bus):
            forge_action(first["id"], key_of(first, "deny"), to=to)
            forge_action(first["id"], "default", to=to)
        # A guessed key from the real server does nothing either.
        click_notification(first["id"], "deny:" + "0" * 32)
        # Deny from the server, as a person would, on the second one.
        click_notification(second["id"], key_of(second, "deny"))
        wait_for("the second card to go",
                 lambda: not app.wd.find_all(f'[data-approval-id="{two_id}"]'))
        wait_for("its notification to close", lambda: second["id"] in closed_notifications())
        # The first still waits: the forged clicks (sent before) did nothing.
        assert app.wd.find_all(f'[data-approval-id="{one_id}"]')
        assert first["id"] not in closed_notifications()
        records = decided(app)
        assert [(r["approval_id"], r["outcome"], r.get("answered_on")) for r in records] == [
            (two_id, {"kind": "denied", "source": "user"}, "notification")], records
        # A second Deny (already decided) does nothing and says nothing.
        click_notification(second["id"], key_of(second, "deny"))
        # Open brings the window back at the first card; it is answered there.
        click_notification(first["id"], key_of(first, "open"))
        card = app.card()
        assert card.id == one_id
        # The card denied on the notification is gone from the window; the other waits.
        assert [c.id for c in app.cards()] == [one_id]
        app.wd.screenshot(os.path.join(ARTIFACTS, "notify-deny.png"))
        app.press(card, "deny")
        assert app.wait_finished() == "completed"
        # The transcript says denied for both, the one denied on the notification as the one
        # denied in the window (the run reaches a call's result in the order of the calls).
        assert [state for state, _ in app.tool_calls()] == ["denied", "denied"]
        assert not os.path.exists(os.path.join(app.workspace, "one.txt"))
        assert not os.path.exists(os.path.join(app.workspace, "two.txt"))
        assert len(decided(app)) == 2


def test_approve_on_a_notification_only_for_a_new_file_when_opted_in():
    scenario = scenario_file([
        {"say": "Let me think.", "delay_ms": 8000, "tool_calls": [
            {"name": "write_file", "arguments": {"path": "new.txt", "content": "new\n"}},
            {"name": "write_file", "arguments": {"path": "old.txt", "content": "replaced\n"}}]},
        {"say": "Done."},
    ])
    with App("notify-approve", scenario) as app:
        with open(os.path.join(app.workspace, "old.txt"), "w", encoding="utf-8") as f:
            f.write("before\n")
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        box = wait_for("the choice", lambda: app.wd.find_all(
            '[data-testid="settings-notify-approve-new-files"]'))[0]
        assert not app.wd.execute("return arguments[0].checked", box_el(box)), "off by default"
        app.wd.click(box)
        wait_for("the choice saved", lambda: saved_new_files(app))
        app.wd.screenshot(os.path.join(ARTIFACTS, "notify-approve-setting.png"))
        new_note, old_note = two_cards_while_hidden(app)
        # A new file: Approve; replacing a file: no Approve.
        assert key_of(new_note, "approve"), new_note
        assert new_note["actions"][1::2] == ["Open", "Open", "Deny", "Approve once"], new_note
        assert key_of(old_note, "approve") is None, old_note
        # A forged Approve from another connection does nothing; the server's does.
        forge_action(new_note["id"], key_of(new_note, "approve"), to=new_note["sender"])
        click_notification(old_note["id"], key_of(old_note, "deny"))
        wait_for("the replacing one denied", lambda: len(decided(app)) == 1)
        assert not os.path.exists(os.path.join(app.workspace, "new.txt"))
        click_notification(new_note["id"], key_of(new_note, "approve"))
        assert app.wait_finished() == "completed"
        with open(os.path.join(app.workspace, "new.txt"), encoding="utf-8") as f:
            assert f.read() == "new\n"
        with open(os.path.join(app.workspace, "old.txt"), encoding="utf-8") as f:
            assert f.read() == "before\n"
        records = decided(app)
        assert sorted((r["outcome"]["kind"], r.get("answered_on")) for r in records) == [
            ("approved", "notification"), ("denied", "notification")], records


def box_el(element):
    from harness.webdriver import ELEMENT
    return {ELEMENT: element}


def saved_new_files(app):
    try:
        with open(os.path.join(app.data, "settings.json"), encoding="utf-8") as f:
            return json.load(f).get("notification_approvals", {}).get("new_files") is True
    except FileNotFoundError:
        return False


def test_start_at_login_writes_and_removes_the_autostart_entry():
    # A home of its own, so the entry never lands in the real one. The autostart library
    # (auto-launch 0.6) writes under $HOME/.config whatever XDG_CONFIG_HOME says, so both
    # name the same folder here.
    home = tempfile.mkdtemp(prefix="askfirst-e2e-home-")
    entry = os.path.join(home, ".config", "autostart", "Ask First.desktop")
    try:
        start_at_login(home, entry)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def start_at_login(home, entry):
    env = {"HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config")}
    with App("start-at-login", "write-hello.json", env) as app:
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        box = wait_for("the choice", lambda: (lambda b: b if b and app.wd.execute(
            "return !arguments[0].disabled", box_el(b[0])) else None)(
            app.wd.find_all('[data-testid="settings-start-at-login"]')))[0]
        assert not app.wd.execute("return arguments[0].checked", box_el(box)), "off by default"
        assert not os.path.exists(entry)
        app.wd.click(box)
        wait_for("the autostart entry", lambda: os.path.exists(entry))
        with open(entry, encoding="utf-8") as f:
            text = f.read()
        assert "[Desktop Entry]" in text, text
        execs = [line for line in text.splitlines() if line.startswith("Exec=")]
        assert len(execs) == 1 and execs[0].endswith(" --in-tray"), text
        assert "askfirst" in execs[0], text
        wait_for("the box ticked", lambda: app.wd.execute("return arguments[0].checked", box_el(box)))
        app.wd.screenshot(os.path.join(ARTIFACTS, "start-at-login.png"))
        app.wd.click(box)
        wait_for("the entry removed", lambda: not os.path.exists(entry))


TESTS = [test_a_forged_click_does_nothing_and_deny_on_a_notification_denies_only_its_request,
         test_approve_on_a_notification_only_for_a_new_file_when_opted_in,
         test_start_at_login_writes_and_removes_the_autostart_entry]
