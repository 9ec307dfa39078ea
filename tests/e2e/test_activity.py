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
from harness.wait import fresh, wait_for


def _new_card(app, seen):
    """The first card on screen whose approval id is not in `seen`, or None."""
    return next((card for card in app.cards() if card.id not in seen), None)


def _approve_all(app):
    """Approves every card as it comes, until the run ends; returns the effects lines of each card."""
    said = []
    seen = set()
    while True:
        status = app.run_status()
        if status in ("completed", "failed", "cancelled"):
            return status, said
        card = _new_card(app, seen)
        if card is None:
            wait_for("a card or the end", lambda: app.run_status() in ("completed", "failed", "cancelled")
                     or _new_card(app, seen), timeout=30)
            continue
        seen.add(card.id)
        said.append(app.card_texts(card, '[data-testid="approval-effects"] li'))
        app.press(card, "approve")


def _open_activity(app):
    app.click('[data-testid="activity-open"]')
    return wait_for("the Activity panel", lambda: app.wd.find_all('[data-testid="activity"]'))[0]


def _entries(app):
    return wait_for("Activity's entries", lambda: app.wd.find_all('[data-testid="activity-entry"]'))


# Every entry of Activity now shown, read in one step: [{state, text}], newest first.
ENTRIES = """return [...document.querySelectorAll('[data-testid="activity-entry"]')]
  .map(e => ({state: e.getAttribute('data-state'), text: e.innerText}));"""


def _shown(app):
    return app.wd.execute(ENTRIES)


def _states(app):
    return [e["state"] for e in _shown(app)]


def _entry(app, has):
    """The first entry of Activity whose text has `has`, found now, or None."""
    return next((e for e in app.wd.find_all('[data-testid="activity-entry"]') if has in app.wd.text(e)), None)


def _undo(app, has=""):
    """Clicks Undo on the first entry whose text has `has`, the entry found afresh."""
    fresh(f"the entry with {has!r}", lambda: _entry(app, has),
          lambda entry: app.wd.click(app.wd.find_in(entry, '[data-testid="undo"]')[0]))


def _result(app):
    return app.text('[data-testid="undo-result"]', "the undo's answer")


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
            entry = app.text('[data-testid="activity-entry"]')
            assert "Replace everything in notes.txt" in entry, entry
            assert "You approved it" in entry
            _undo(app)
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
            _entries(app)
            assert _states(app)[0] == "done"
            _undo(app)
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
            wait_for("one Undo this task", lambda: len(app.wd.find_all('[data-testid="undo-task"]')) == 1)
            app.click('[data-testid="undo-task"]')
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
            _undo(app, "5.txt")
            confirm = app.text('[data-testid="undo-confirm"]', "the question")
            assert "5.txt was changed after the agent's change" in confirm, confirm
            with open(os.path.join(app.workspace, "5.txt"), encoding="utf-8") as f:
                assert f.read() == "the person's later words", "nothing before the OK"
            app.wd.screenshot(os.path.join(ARTIFACTS, "activity-undo-confirm.png"))
            app.click('[data-testid="undo-confirm-yes"]')
            _result(app)
            wait_for("the question to go", lambda: not app.wd.find_all('[data-testid="undo-confirm"]'))
            with open(os.path.join(app.workspace, "5.txt"), encoding="utf-8") as f:
                assert f.read() == "version 4"
            states = wait_for("the states", lambda: (lambda s: s if "undone" in s else None)(_states(app)))
            assert sorted(states) == sorted(["cannot_undo", "undone", "done", "done", "done", "done", "too_old"]), states
            # A command is tried on a copy first and its changes applied from there, so it can
            # be undone as a whole (test_try_first undoes one).
            command = [e for e in _shown(app) if e["state"] == "done"
                       and "echo hello > hello.txt" in e["text"] and "Undo" in e["text"]]
            assert command, f"the command is listed with its Undo: {_shown(app)}"
            app.wd.screenshot(os.path.join(ARTIFACTS, "activity-states.png"))
            app.wd.execute("[...document.querySelectorAll('[data-testid=\"activity-entry\"]')].at(-1)"
                           ".scrollIntoView({block: 'end'});")
            time.sleep(0.5)  # the scroll painted before the screenshot
            app.wd.screenshot(os.path.join(ARTIFACTS, "activity-states-older.png"))
            app.on('[data-testid="activity-search"]', lambda search: app.wd.type(search, "big.txt"))
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
