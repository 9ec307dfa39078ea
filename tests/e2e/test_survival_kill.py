"""Survival: kill -9 with approvals waiting, and start again on the same data. Nothing written
before the kill is lost or rewritten, the waiting approvals are recorded as cancelled by the
closing (never acted on), the task goes on where it was with those calls asked again as new
cards, the session goes on after it, and a torn last line (a power cut) counts for nothing."""
import os
import shutil
import signal
import tempfile
import time

from harness.app import App
from harness.sessions import decided, parse_log, session_logs
from harness.survival import figure, replayed, scenario_path, shot, write_call
from harness.wait import wait_for


def test_kill_9_with_two_cards_waiting_then_start_again():
    first = scenario_path("kill-first", [
        {"say": "First a note.", "tool_calls": [write_call("first.txt", "kept\n")]},
        {"say": "Now two more files.", "tool_calls": [write_call("one.txt", "1\n"), write_call("two.txt", "2\n")]},
        {"say": "Both handled."},
    ])
    # Played by the app after the restart, from the turn after the last one its conversation
    # holds: the resumed task (two turns so far) gets the third, a new task the first.
    second = scenario_path("kill-second", [
        {"say": "Writing after the restart.", "tool_calls": [write_call("after.txt", "after the kill\n")]},
        {"say": "Done after the restart."},
        {"say": "Both handled."},
    ])
    keep = tempfile.mkdtemp(prefix="askfirst-survival-kill-")
    data, workspace = os.path.join(keep, "data"), os.path.join(keep, "workspace")
    try:
        app = App("kill", first, data=data, workspace=workspace, prefix="survival")
        with app:
            app.start_task("Write three files")
            first_card = app.card()
            first_id = first_card.id
            app.press(first_card, "approve")
            # The approved card leaves when its resolution arrives, maybe after the next ones.
            waiting = wait_for("the two next cards", lambda: (lambda c: c if len(c) == 2 else None)(
                [c for c in app.cards() if c.id != first_id]))
            ids = [c.id for c in waiting]
            assert os.path.exists(os.path.join(workspace, "first.txt"))
            shot(app, "kill-before")
            before = session_logs(data)
            assert len(before) == 1, before.keys()
            pid = app.pid
            killed_at = time.monotonic()
            os.kill(pid, signal.SIGKILL)
            wait_for("the app to die", lambda: not app.running(), timeout=10)
            after_kill = session_logs(data)
        # Nothing was lost by the kill itself, and nothing half-written: every line parses.
        assert after_kill == before, "the log changed between the snapshot and the kill"
        (name, raw_before), = before.items()
        records, damaged = parse_log(raw_before)
        assert not damaged, damaged
        asked = [r["approval_id"] for r in records if r["type"] == "approval_asked"]
        assert set(ids) <= set(asked), (ids, asked)
        assert all(decided(records, i) == [] for i in ids), ("the waiting ones had no decision yet", [decided(records, i) for i in ids])
        figure("kill_log_lines_before", raw_before.count(b"\n"))
        figure("kill_log_bytes_before", len(raw_before))
        app = App("kill-again", second, data=data, workspace=workspace, prefix="survival")
        with app:
            # The task goes on where it was: its conversation opens by itself, and the two
            # calls that waited are asked again, as new cards that say so.
            again = wait_for("the two cards asked again", lambda: (lambda c: c if len(c) == 2 else None)(app.cards()))
            figure("kill_restart_to_cards_again_s", round(time.monotonic() - killed_at, 2))
            assert not {c.id for c in again} & set(ids), "an old card came back instead of a new one"
            for card in again:
                said = app.card_texts(card, '[data-testid="resume-card"]')
                assert said and "Nothing of it has been done" in said[0], said
            resumed = app.wd.find_all('[data-testid="run-resumed"]')
            assert resumed and "in the middle of this task" in app.wd.text(resumed[0])
            now = session_logs(data)
            raw_now = now[name]
            # Every byte written before the kill is still there, in place; the torn line is
            # ended before anything new is written, so nothing is glued to it.
            assert raw_now.startswith(raw_before), "the old log was rewritten"
            records, damaged = parse_log(raw_now)
            assert not damaged, damaged
            # The cards from before the kill are closed for good: an answer to them does nothing.
            for i in ids:
                assert decided(records, i) == [{"kind": "cancelled", "cause": "app_shutdown"}], (i, decided(records, i))
            assert not os.path.exists(os.path.join(workspace, "one.txt"))
            shot(app, "kill-asked-again")
            for card in again:
                app.press(card, "approve")
            assert app.wait_finished() == "completed"
            for file, content in (("one.txt", "1\n"), ("two.txt", "2\n")):
                with open(os.path.join(workspace, file), encoding="utf-8") as f:
                    assert f.read() == content
            # The model went on with the same conversation: its next turn, not its first.
            transcript = app.wd.text(app.wd.find_all('section.transcript')[0])
            assert "Both handled." in transcript, transcript
            assert "Ask First was closed while the agent was working." in transcript, transcript
            shot(app, "kill-went-on")
            # The session goes on: a new task, a card, approve, the file is written.
            app.start_task("Write one more file")
            card = app.card()
            assert not app.card_texts(card, '[data-testid="resume-card"]')
            app.press(card, "approve")
            assert app.wait_finished() == "completed"
            with open(os.path.join(workspace, "after.txt"), encoding="utf-8") as f:
                assert f.read() == "after the kill\n"
            # …in the same session log, which still starts with what was there before the kill.
            raw_end = session_logs(data)[name]
            assert raw_end.startswith(raw_now)
            records, damaged = parse_log(raw_end)
            assert not damaged, damaged
            # The conversation continued: the task after the kill is in the same log, and the
            # resumed task was not asked of the model twice.
            tasks = [r["message"].get("text") for r in records if r["type"] == "message" and r["message"].get("role") == "user"]
            assert tasks == ["Write three files", "Write one more file"], tasks
            # Each call of the first task has exactly one result in the conversation (the
            # last task's call comes after, its id may repeat one of another task's).
            results = [r["message"].get("tool_call_id") for r in records
                       if r["type"] == "message" and r["message"].get("role") == "tool_result"]
            assert len(results) == 4 and len(set(results[:3])) == 3, results
            shot(app, "kill-continued")
            assert "panicked" not in app.stderr()
        # Nothing is offered again at the next start once the task has ended.
        assert not [n for n in os.listdir(os.path.join(data, "sessions")) if n.endswith(".interrupted.json")]
        # kill -9 cannot tear a record (each is one write(2)); a power cut can. Add the torn
        # start of an *approving* decision for the first card, with no newline, as one would
        # look: it must count for nothing, nothing may be glued to it, and the reopened session
        # no longer claims to be the whole story.
        run_id = next(r["run_id"] for r in records if r["type"] == "approval_asked" and r["approval_id"] == ids[0])
        torn = ('{"type":"approval_decided","approval_id":"%s","run_id":"%s","outcome":{"kind":"appro'
                % (ids[0], run_id)).encode()
        with open(os.path.join(data, "sessions", name), "ab") as f:
            f.write(torn)
        app = App("kill-torn", second, data=data, workspace=workspace, prefix="survival")
        with app:
            app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
            opener = wait_for("the old session", lambda: app.wd.find_all('[data-testid="open-session"]'))[0]
            app.wd.click(opener)
            # The first run's three calls, the two asked again after the kill, the last task's.
            states = replayed(app, 6)
            assert len(states) == 6, states
            raw_torn = session_logs(data)[name]
            assert raw_torn == raw_end + torn + b"\n", raw_torn[len(raw_end):]
            records, damaged = parse_log(raw_torn)
            assert [line for _, line in damaged] == [torn], damaged
            for i in ids:
                assert decided(records, i) == [{"kind": "cancelled", "cause": "app_shutdown"}], decided(records, i)
            texts = [app.wd.text(c) for _, c in app.tool_calls()]
            assert all("This action was not performed." in t for t in texts[1:3]), texts
            transcript = app.wd.text(app.wd.find_all('section.transcript')[0])
            assert "Part of this task could not be saved" in transcript, transcript
            # The killed run ends where the next one starts; the last one completed.
            assert transcript.index("could not be saved") < transcript.index("Write one more file"), transcript
            assert app.run_status() == "completed", app.run_status()
            assert not app.cards()
            shot(app, "kill-torn-reopened")
            assert "panicked" not in app.stderr()
    finally:
        shutil.rmtree(keep, ignore_errors=True)


TESTS = [test_kill_9_with_two_cards_waiting_then_start_again]
