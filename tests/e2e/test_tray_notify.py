"""The app outside its window: the tray menu lists what waits and quits, the tray icon is marked
while anything waits, the window closes to the tray (telling what waits) and comes back from the
tray or a notification that stays until its request ends, and a second launch brings the window
back."""
import json
import os
import subprocess
import time

from harness.app import App, scenario_file
from harness.desktop import (click_notification, closed_notifications, hide_by_closing, notifications,
                             tray, tray_icon_pixels, window_viewable, x_connections)
from harness.env import APP, ARTIFACTS, HERE, PYTHON
from harness.sessions import log_names
from harness.wait import wait_for


def test_tray_lists_the_approval_opens_its_card_and_quit_records_shutdown():
    with App("tray", "write-hello.json") as app:
        app.start_task("Please greet me in a file")
        card = app.card()
        approval_id = card.id
        label = "Review: Create the file hello.txt (2 lines)"
        wait_for("the tray item", lambda: label in tray().get("labels", []))
        tray("click", label)
        wait_for("the card to get the focus", lambda: app.wd.execute(
            "return document.activeElement && document.activeElement.getAttribute('data-approval-id')") == approval_id)
        tray("click", "Quit")
        wait_for("the app to quit", lambda: not app.running(), timeout=20)
        logs = [os.path.join(app.data, "sessions", f) for f in log_names(app.data)]
        records = [json.loads(line) for path in logs for line in open(path, encoding="utf-8") if line.strip()]
        decided = [r for r in records if r["type"] == "approval_decided" and r["approval_id"] == approval_id]
        assert [d["outcome"] for d in decided] == [{"kind": "cancelled", "cause": "app_shutdown"}], decided
        assert not os.path.exists(os.path.join(app.workspace, "hello.txt"))
        with open(os.path.join(app.data, "window.json"), encoding="utf-8") as f:
            size = json.load(f)
        assert size["width"] >= 560 and size["height"] >= 480, size


def test_closed_to_the_tray_it_notifies_and_the_tray_item_brings_the_card_back():
    # The model "thinks" long enough for the window to be hidden before the card comes, even
    # when the first closes are lost (see hide_by_closing) on a loaded machine.
    think_ms = 8000
    scenario = scenario_file([
        {"say": "Let me think about it.", "delay_ms": think_ms, "tool_calls": [
            {"name": "write_file", "arguments": {"path": "hello.txt", "content": "Hello\n"}}]},
        {"say": "Done."},
    ])
    # Notifications only when the window is in the background: the default.
    with App("hidden", scenario, {"ASKFIRST_NOTIFY": "unfocused"}) as app:
        before = len(notifications())
        started = time.monotonic()
        app.start_task("Please greet me in a file")
        hide_by_closing()
        took = time.monotonic() - started
        assert took < think_ms / 1000, f"hiding took {took:.1f}s: the card may have come while the window showed"
        seen = wait_for("two notifications", lambda: (lambda n: n if len(n) >= 2 else None)(notifications()[before:]))
        assert seen[0]["summary"] == "Ask First is still running", seen
        assert [n["app_name"] for n in seen[:2]] == ["Ask First", "Ask First"], seen
        assert "tray" in seen[0]["body"], seen
        assert seen[1]["summary"] == "Ask First needs your OK", seen
        assert seen[1]["body"] == "Create the file hello.txt (1 line)\nFolder: workspace", seen
        assert "default" in seen[1]["actions"], seen[1]
        # It stays until the request ends: never expires, and stays after a click.
        assert seen[1]["timeout"] == 0, seen[1]
        assert seen[1]["hints"] == {"resident": True, "urgency": 1}, seen[1]
        # The run went on while the window was hidden; the tray lists what waits.
        label = "Review: Create the file hello.txt (1 line)"
        menu = wait_for("the tray item", lambda: (lambda t: t if label in t.get("labels", []) else None)(tray()))
        assert "1 approval waiting" in menu["labels"], menu
        tray("click", label)
        wait_for("the window to come back", window_viewable)
        card = app.card()
        approval_id = card.id
        wait_for("the card to get the focus", lambda: app.wd.execute(
            "return document.activeElement && document.activeElement.getAttribute('data-approval-id')") == approval_id)
        app.wd.screenshot(os.path.join(ARTIFACTS, "back-from-tray.png"))
        # Hidden again, a click on the notification brings the window back at the card.
        hide_by_closing()
        app.wd.execute("document.activeElement && document.activeElement.blur()")
        click_notification(seen[1]["id"])
        wait_for("the window to come back", window_viewable)
        wait_for("the card to get the focus", lambda: app.wd.execute(
            "return document.activeElement && document.activeElement.getAttribute('data-approval-id')") == approval_id)
        app.press(card, "approve")
        assert app.wait_finished() == "completed"
        # Answered: its notification is closed, so nothing says it still needs an OK.
        wait_for("the notification to close", lambda: seen[1]["id"] in closed_notifications())
        with open(os.path.join(app.workspace, "hello.txt"), encoding="utf-8") as f:
            assert f.read() == "Hello\n"
        # Closing again (a third time) does not repeat the "still running" notice.
        count = len(notifications())
        hide_by_closing()
        time.sleep(1)
        assert len(notifications()) == count, notifications()[count:]


def desktop_view(path, menu, notes):
    """Saves a picture of what a desktop shows outside the window (desktop_view.py): the tray as
    `menu` (the probe's) has it, and the notifications `notes` still open."""
    spec = {"icon": menu.get("icon", ""), "label": menu.get("label", ""),
            "notifications": [{k: n.get(k) for k in ("summary", "body", "timeout", "hints")} for n in notes]}
    out = subprocess.run([PYTHON, os.path.join(HERE, "desktop_view.py"), path, json.dumps(spec)],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr


def test_closing_the_window_tells_what_already_waits_once_and_it_stays():
    # Notifications only when the window is in the background: the default.
    with App("waiting-hidden", "write-hello.json", {"ASKFIRST_NOTIFY": "unfocused"}) as app:
        before = len(notifications())
        app.start_task("Please greet me in a file")
        card = app.card()
        approval_id = card.id
        # The card came while the person looked at the window: no notification for it.
        time.sleep(1.5)
        asks = lambda: [n for n in notifications()[before:] if n["summary"] == "Ask First needs your OK"]
        assert asks() == [], asks()
        # The window is closed to the tray with the card in it: now it is told.
        hide_by_closing()
        told = wait_for("the notification of what waits", asks)
        assert len(told) == 1, told
        note = told[0]
        assert note["body"] == "Create the file hello.txt (2 lines)\nFolder: workspace", note
        assert "default" in note["actions"], note
        # It stays until the request ends: never expires, and stays after a click.
        assert note["timeout"] == 0, note
        assert note["hints"] == {"resident": True, "urgency": 1}, note
        still = [n for n in notifications()[before:] if n["summary"] == "Ask First is still running"]
        assert len(still) == 1 and still[0]["id"] < note["id"], notifications()[before:]
        menu = wait_for("the tray to count 1", lambda: (lambda t: t if "1 approval waiting" in t.get("labels", []) else None)(tray()))
        desktop_view(os.path.join(ARTIFACTS, "waiting-told-on-close.png"), menu, [note])
        # A click opens the window at the card; the notification stays (resident).
        click_notification(note["id"])
        wait_for("the window to come back", window_viewable)
        wait_for("the card to get the focus", lambda: app.wd.execute(
            "return document.activeElement && document.activeElement.getAttribute('data-approval-id')") == approval_id)
        assert note["id"] not in closed_notifications()
        # Hidden again: what was told is not told again.
        count = len(notifications())
        hide_by_closing()
        time.sleep(1.5)
        assert notifications()[count:] == [], notifications()[count:]
        # A second click still opens the window (the notification stayed).
        click_notification(note["id"])
        wait_for("the window to come back", window_viewable)
        app.press(card, "approve")
        assert app.wait_finished() == "completed"
        wait_for("the notification to close", lambda: note["id"] in closed_notifications())


def test_the_tray_icon_is_marked_and_says_how_many_wait_while_anything_waits():
    with App("tray-mark", "two-writes.json") as app:
        idle_menu = wait_for("the tray icon", lambda: (lambda t: t if tray_icon_pixels(t) else None)(tray()))
        idle = tray_icon_pixels(idle_menu)
        assert idle_menu["label"] == "Ask First", idle_menu
        app.start_task("Write two files")
        cards = wait_for("two cards", lambda: (lambda c: c if len(c) == 2 else None)(app.cards()))
        waiting = "Ask First — 2 requests waiting for your OK"
        menu = wait_for("the tray to say two wait",
                        lambda: (lambda t: t if t.get("label") == waiting and tray_icon_pixels(t) else None)(tray()))
        marked = tray_icon_pixels(menu)
        width, height, rows = marked
        assert (width, height) == idle[:2], (marked[:2], idle[:2])
        # The icon changed: a red mark in its top right corner, the rest as it was.
        r, g, b, a = rows[height // 4][width - 1 - width // 4]
        assert a == 255 and r > 180 and g < 100 and b < 100, rows[height // 4][width - 1 - width // 4]
        assert rows[height - 1 - height // 4][width // 4] == idle[2][height - 1 - height // 4][width // 4]
        desktop_view(os.path.join(ARTIFACTS, "tray-marked.png"), menu, [])
        app.press(cards[1], "deny")
        wait_for("the tray to say one waits", lambda: tray().get("label") == "Ask First — 1 request waiting for your OK")
        app.press(cards[0], "approve")
        assert app.wait_finished() == "completed"
        # Nothing waits: the icon and its label are as before.
        back = wait_for("the tray icon to change back",
                        lambda: (lambda t: t if t.get("label") == "Ask First" and tray_icon_pixels(t) == idle else None)(tray()))
        desktop_view(os.path.join(ARTIFACTS, "tray-idle.png"), back, [])


def test_a_second_launch_brings_the_window_back_and_leaves_the_waiting_card_alone():
    with App("second", "write-hello.json") as app:
        app.start_task("Please greet me in a file")
        card = app.card()
        approval_id = card.id
        hide_by_closing()
        sessions_before = sorted(os.listdir(os.path.join(app.data, "sessions")))
        env = dict(os.environ, ASKFIRST_DATA_DIR=app.data, ASKFIRST_WORKSPACE=app.workspace)
        second = subprocess.run([APP], env=env, capture_output=True, text=True, timeout=60)
        assert second.returncode == 0, second.stderr
        wait_for("the window to come back", window_viewable)
        # The second launch touched nothing: no new session, no record about the waiting card.
        assert sorted(os.listdir(os.path.join(app.data, "sessions"))) == sessions_before
        records = [json.loads(line) for name in log_names(app.data)
                   for line in open(os.path.join(app.data, "sessions", name), encoding="utf-8")]
        assert not [r for r in records if r["type"] == "approval_decided"], records
        app.press(card, "approve")
        assert app.wait_finished() == "completed"
        records = [json.loads(line) for name in log_names(app.data)
                   for line in open(os.path.join(app.data, "sessions", name), encoding="utf-8")]
        decided = [r["outcome"] for r in records
                   if r["type"] == "approval_decided" and r["approval_id"] == approval_id]
        assert decided == [{"kind": "approved", "scope": "once", "source": "user"}], decided
        assert os.path.exists(os.path.join(app.workspace, "hello.txt"))


def test_the_app_does_not_listen_to_keys_typed_in_other_windows():
    """The window framework's X11 backend (tao's `x11` feature, on by default in Tauri) opened a
    second connection to the X server and asked it for every key pressed and released anywhere
    on the desktop, without ever freeing what it read: about 0.2 KB kept in the app for each
    key a person typed in any program while Ask First ran, for days in the tray, with no use
    made of it. The app is built without it, so it holds only its window's own connection."""
    with App("x-connections", "write-hello.json") as app:
        app.start_task("Please greet me in a file")
        app.card()
        assert x_connections(app.pid) == 1, f"the app holds {x_connections(app.pid)} connections to the X server"


TESTS = [test_tray_lists_the_approval_opens_its_card_and_quit_records_shutdown,
         test_closed_to_the_tray_it_notifies_and_the_tray_item_brings_the_card_back,
         test_closing_the_window_tells_what_already_waits_once_and_it_stays,
         test_the_tray_icon_is_marked_and_says_how_many_wait_while_anything_waits,
         test_a_second_launch_brings_the_window_back_and_leaves_the_waiting_card_alone,
         test_the_app_does_not_listen_to_keys_typed_in_other_windows]
