"""Activity and Undo (issue 14) in the real window: an approved overwrite undone from
Activity (the file byte-identical and with the same mode as before), an undo after the app
was started again, a whole task of five changes undone, and every state of an entry, looked
at in a screenshot."""
import json
import os
import shutil
import tempfile
import time

from harness.app import App, scenario_file
from harness.env import ARTIFACTS
from harness.wait import wait_for
from harness.webdriver import ELEMENT


def _fresh_card(app, seen):
    """The first card on screen not answered yet, with its approval id, or None. The list redraws
    cards as they come and go (it is virtualised), so a card found a moment ago may be gone: it is
    looked for again rather than read through a stale reference."""
    for card in app.cards():
        try:
            approval = app.wd.attr(card, "data-approval-id")
        except RuntimeError:  # the card left the page between the find and the read
            return None
        if approval not in seen:
            return card, approval
    return None


def _approve_all(app):
    """Approves every card as it comes, until the run ends; returns the effects lines of each card."""
    said = []
    seen = set()
    while True:
        status = app.run_status()
        if status in ("completed", "failed", "cancelled"):
            return status, said
        fresh = _fresh_card(app, seen)
        if fresh is None:
            wait_for("a card or the end", lambda: app.run_status() in ("completed", "failed", "cancelled")
                     or _fresh_card(app, seen), timeout=30)
            continue
        card, approval = fresh
        seen.add(approval)
        said.append([app.wd.text(e) for e in app.wd.find_in(card, '[data-testid="approval-effects"] li')])
        app.press(card, "approve")


def _open_activity(app):
    app.wd.click(app.wd.find_all('[data-testid="activity-open"]')[0])
    return wait_for("the Activity panel", lambda: app.wd.find_all('[data-testid="activity"]'))[0]


def _entries(app):
    return wait_for("Activity's entries", lambda: app.wd.find_all('[data-testid="activity-entry"]'))


def _states(app):
    return [app.wd.attr(e, "data-state") for e in app.wd.find_all('[data-testid="activity-entry"]')]


def _result(app):
    return app.wd.text(wait_for("the undo's answer", lambda: app.wd.find_all('[data-testid="undo-result"]'))[0])


def _trash_home():
    """A trash of the test's own (XDG_DATA_HOME), so no test touches the machine's trash."""
    return tempfile.mkdtemp(prefix="askfirst-e2e-trash-")


BEFORE = bytes(range(256)) + b"\r\nthe person's own words\n"


def test_undo_an_approved_overwrite_from_activity():
    share = _trash_home()
    scenario = scenario_file([
        {"say": "I will rewrite your notes.", "tool_calls": [
            {"name": "write_file", "arguments": {"path": "notes.txt", "content": "Rewritten by the agent\n"}}]},
        {"say": "Done."}])
    try:
        app = App("undo-overwrite", scenario, {"XDG_DATA_HOME": share})
        path = os.path.join(app.workspace, "notes.txt")
        with open(path, "wb") as f:
            f.write(BEFORE)
        os.chmod(path, 0o640)
        with app:
            app.start_task("Rewrite my notes")
            assert _approve_all(app)[0] == "completed"
            with open(path, "rb") as f:
                assert f.read() == b"Rewritten by the agent\n"
            _open_activity(app)
            entry = _entries(app)[0]
            assert "Replace everything in notes.txt" in app.wd.text(entry), app.wd.text(entry)
            assert "You approved it" in app.wd.text(entry)
            app.wd.click(app.wd.find_in(entry, '[data-testid="undo"]')[0])
            assert _result(app) == "Undone: Replace everything in notes.txt with new text (1 line)."
            with open(path, "rb") as f:
                assert f.read() == BEFORE, "not byte-identical"
            assert os.stat(path).st_mode & 0o7777 == 0o640
            wait_for("the entry marked undone", lambda: _states(app) == ["undone"])
            assert not app.wd.find_all('[data-testid="undo"]'), "an undone change offers no second undo"
            kinds = [r["type"] for r in app.session_records()]
            assert kinds.count("undo_requested") == 1 and kinds.count("undo_done") == 1, kinds
    finally:
        os.unlink(scenario)
        shutil.rmtree(share, ignore_errors=True)


def test_undo_after_the_app_started_again():
    share = _trash_home()
    root = tempfile.mkdtemp(prefix="askfirst-e2e-restart-")
    data, workspace = os.path.join(root, "data"), os.path.join(root, "workspace")
    os.makedirs(workspace)
    path = os.path.join(workspace, "letter.txt")
    with open(path, "wb") as f:
        f.write(b"Dear Ann,\n")
    scenario = scenario_file([
        {"say": "Rewriting.", "tool_calls": [
            {"name": "write_file", "arguments": {"path": "letter.txt", "content": "Dear Bob,\n"}}]},
        {"say": "Done."}])
    try:
        with App("undo-restart-1", scenario, {"XDG_DATA_HOME": share}, data=data, workspace=workspace) as app:
            app.start_task("Change the letter")
            assert _approve_all(app)[0] == "completed"
        with App("undo-restart-2", scenario, {"XDG_DATA_HOME": share}, data=data, workspace=workspace) as app:
            _open_activity(app)
            entry = _entries(app)[0]
            assert app.wd.attr(entry, "data-state") == "done"
            app.wd.click(app.wd.find_in(entry, '[data-testid="undo"]')[0])
            _result(app)
            with open(path, "rb") as f:
                assert f.read() == b"Dear Ann,\n"
    finally:
        os.unlink(scenario)
        shutil.rmtree(share, ignore_errors=True)
        shutil.rmtree(root, ignore_errors=True)


def test_undo_a_whole_task_of_five_changes():
    share = _trash_home()
    scenario = scenario_file([
        {"say": "1", "tool_calls": [{"name": "write_file", "arguments": {"path": "a.txt", "content": "a1\n"}}]},
        {"say": "2", "tool_calls": [{"name": "edit_file", "arguments": {"path": "a.txt", "old_text": "a1", "new_text": "a2"}}]},
        {"say": "3", "tool_calls": [{"name": "move_path", "arguments": {"from": "b.txt", "to": "Old/b.txt"}}]},
        {"say": "4", "tool_calls": [{"name": "write_file", "arguments": {"path": "new.txt", "content": "new\n"}}]},
        {"say": "5", "tool_calls": [{"name": "delete_path", "arguments": {"path": "c.txt"}}]},
        {"say": "All five done."}])
    try:
        app = App("undo-task", scenario, {"XDG_DATA_HOME": share})
        ws = app.workspace
        for name, text in (("a.txt", "a0\n"), ("b.txt", "b0\n"), ("c.txt", "c0\n")):
            with open(os.path.join(ws, name), "w", encoding="utf-8") as f:
                f.write(text)
        with app:
            app.start_task("Tidy up")
            assert _approve_all(app)[0] == "completed"
            assert not os.path.exists(os.path.join(ws, "c.txt"))
            _open_activity(app)
            wait_for("five entries", lambda: len(_entries(app)) == 5)
            task = wait_for("one Undo this task", lambda: (lambda t: t if len(t) == 1 else None)(
                app.wd.find_all('[data-testid="undo-task"]')))
            app.wd.click(task[0])
            assert _result(app) == "Undid the task's 5 changes, newest first."
            wait_for("every entry undone", lambda: _states(app) == ["undone"] * 5)
            found = {}
            for name in sorted(os.listdir(ws)):
                with open(os.path.join(ws, name), encoding="utf-8") as f:
                    found[name] = f.read()
            assert found == {"a.txt": "a0\n", "b.txt": "b0\n", "c.txt": "c0\n"}, found
    finally:
        os.unlink(scenario)
        shutil.rmtree(share, ignore_errors=True)


def test_activity_shows_every_state_and_asks_before_losing_a_later_change():
    share = _trash_home()
    names = ["1.txt", "2.txt", "3.txt", "4.txt", "5.txt"]
    turns = [{"say": f"Writing {n}.", "tool_calls": [{"name": "write_file", "arguments": {"path": n, "content": "x\n"}}]}
             for n in names]
    turns.append({"say": "And the big one.", "tool_calls": [
        {"name": "write_file", "arguments": {"path": "big.txt", "content": "x\n"}}]})
    turns.append({"say": "And a command.", "tool_calls": [
        {"name": "run_command", "arguments": {"command": "echo hello > hello.txt"}}]})
    turns.append({"say": "Done."})
    scenario = scenario_file(turns)
    try:
        app = App("activity-states", scenario, {"XDG_DATA_HOME": share})
        os.makedirs(app.data, exist_ok=True)
        # Copies may take 40 bytes in all (10 bytes a file): the oldest goes, big.txt is not kept.
        with open(os.path.join(app.data, "settings.json"), "w", encoding="utf-8") as f:
            json.dump({"undo_cap_bytes": 40, "welcome_done": True}, f)
        for i, name in enumerate(names):
            with open(os.path.join(app.workspace, name), "w", encoding="utf-8") as f:
                f.write(f"version {i}")
        with open(os.path.join(app.workspace, "big.txt"), "w", encoding="utf-8") as f:
            f.write("eleven byte")
        with app:
            app.start_task("Write the five notes, the big one, and say hello")
            status, said = _approve_all(app)
            assert status == "completed", status
            assert ("This change cannot be undone: the file is 11 bytes, too large for Ask First "
                    "to keep a copy of.") in said[5], said
            _open_activity(app)
            wait_for("seven entries", lambda: len(_entries(app)) == 7)
            # Someone changes 5.txt after the agent: undoing asks first, and says what is lost.
            with open(os.path.join(app.workspace, "5.txt"), "w", encoding="utf-8") as f:
                f.write("the person's later words")
            five = [e for e in _entries(app) if "5.txt" in app.wd.text(e)][0]
            app.wd.click(app.wd.find_in(five, '[data-testid="undo"]')[0])
            confirm = wait_for("the question", lambda: app.wd.find_all('[data-testid="undo-confirm"]'))[0]
            assert "5.txt was changed after the agent's change" in app.wd.text(confirm), app.wd.text(confirm)
            with open(os.path.join(app.workspace, "5.txt"), encoding="utf-8") as f:
                assert f.read() == "the person's later words", "nothing before the OK"
            app.wd.screenshot(os.path.join(ARTIFACTS, "activity-undo-confirm.png"))
            app.wd.click(app.wd.find_all('[data-testid="undo-confirm-yes"]')[0])
            _result(app)
            wait_for("the question to go", lambda: not app.wd.find_all('[data-testid="undo-confirm"]'))
            with open(os.path.join(app.workspace, "5.txt"), encoding="utf-8") as f:
                assert f.read() == "version 4"
            states = wait_for("the states", lambda: (lambda s: s if "undone" in s else None)(_states(app)))
            assert sorted(states) == sorted(["cannot_undo", "cannot_undo", "undone", "done", "done", "done", "too_old"]), states
            command = [e for e in _entries(app) if app.wd.attr(e, "data-state") == "cannot_undo"
                       and "Commands cannot be undone" in app.wd.text(e)]
            assert command, "the command is listed as cannot be undone"
            app.wd.screenshot(os.path.join(ARTIFACTS, "activity-states.png"))
            entries = app.wd.find_all('[data-testid="activity-entry"]')
            app.wd.execute("arguments[0].scrollIntoView({block: 'end'});", {ELEMENT: entries[-1]})
            time.sleep(0.5)  # the scroll painted before the screenshot
            app.wd.screenshot(os.path.join(ARTIFACTS, "activity-states-older.png"))
            search = app.wd.find_all('[data-testid="activity-search"]')[0]
            app.wd.type(search, "big.txt")
            wait_for("the search", lambda: len(app.wd.find_all('[data-testid="activity-entry"]')) == 1)
    finally:
        os.unlink(scenario)
        shutil.rmtree(share, ignore_errors=True)


TESTS = [
    test_undo_an_approved_overwrite_from_activity,
    test_undo_after_the_app_started_again,
    test_undo_a_whole_task_of_five_changes,
    test_activity_shows_every_state_and_asks_before_losing_a_later_change,
]
