"""Survival: a full and a read-only data folder (small tmpfs mounts: needs root or
CAP_SYS_ADMIN, else the tests say they were skipped). Nothing runs whose approval could not be
recorded, the window says plainly that it cannot save, and the log goes on once it can."""
import os
import signal
import subprocess
import tempfile
import time

from harness.a11y import audit
from harness.app import App
from harness.errors import open_details
from harness.sessions import decided, newest_log, parse_log, session_logs
from harness.survival import (FIGURES, UNDECIDED, error_text_shown, figure, replayed, scenario_path,
                              shot, write_call)
from harness.wait import wait_for


def can_mount():
    d = tempfile.mkdtemp(prefix="askfirst-mount-probe-")
    try:
        ok = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", d], capture_output=True).returncode == 0
        if ok:
            subprocess.run(["umount", d], check=False)
        return ok
    finally:
        os.rmdir(d)


class Tmpfs:
    """A small tmpfs mounted for a test; always unmounted (lazily if busy) on exit."""

    def __init__(self, size):
        self.size = size
        self.path = tempfile.mkdtemp(prefix="askfirst-survival-tmpfs-")

    def __enter__(self):
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={self.size},mode=0755", "tmpfs", self.path], check=True)
        return self

    def remount(self, options):
        subprocess.run(["mount", "-o", f"remount,{options}", self.path], check=True)

    def __exit__(self, *exc):
        if subprocess.run(["umount", self.path], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", self.path], check=False)
        os.rmdir(self.path)


def fill(folder):
    """Fills the file system of `folder` to the last byte; returns the filler's path."""
    filler = os.path.join(folder, "filler.bin")
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        for chunk in (65536, 1):
            try:
                while os.write(fd, b"\0" * chunk):
                    pass
            except OSError:
                pass
    finally:
        os.close(fd)
    return filler


def pad_log_page(log, room):
    """tmpfs keeps room in a file's last page after the disk is full: pad the session log with
    blank lines (which every reader skips) until only `room` bytes of that page are left, so the
    next record the app writes fails after `room` bytes, as on a real full disk."""
    page = 4096
    size = os.path.getsize(log)
    want = (size // page) * page + page - room
    if want < size:
        want += page
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, b"\n" * (want - size))
    except OSError:
        pass
    finally:
        os.close(fd)


def test_full_data_folder():
    if not can_mount():
        print("  SKIPPED: cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN)", flush=True)
        FIGURES["full_skipped"] = True
        return
    path = scenario_path("full", [
        {"say": "Writing.", "tool_calls": [write_call("full.txt", "must not be written\n")]},
        {"say": "Finished."},
    ])
    with Tmpfs("2m") as fs:
        data = os.path.join(fs.path, "data")
        app = App("full", path, data=data, prefix="survival")
        with app:
            # (a) Full between the question and the answer: the answer cannot be recorded.
            app.start_task("Write a file on a full disk")
            card = app.card()
            approval_id = card.id
            log = newest_log(data)
            # The mark that lets this task go on after a restart is removed when the task ends,
            # which would free a page of the full disk and let the log write again; this test
            # is about a disk that stays full.
            sessions = os.path.join(data, "sessions")
            for name in os.listdir(sessions):
                if name.endswith(".interrupted.json"):
                    os.unlink(os.path.join(sessions, name))
            filler = fill(fs.path)
            pad_log_page(log, room=100)
            started = time.monotonic()
            app.press(card, "approve")
            wait_for("the card to go", lambda: not app.wd.find_all(f'[data-approval-id="{approval_id}"]'))
            figure("full_click_to_card_gone_s", round(time.monotonic() - started, 2))
            assert app.wait_finished() in ("completed", "failed")
            assert not os.path.exists(os.path.join(app.workspace, "full.txt")), "ran although its approval was not recorded"
            states = [s for s, _ in app.tool_calls()]
            assert states == ["denied"], states
            shown = error_text_shown(app)
            # The call's line says it in words; the disk's own words are behind Details.
            assert "nothing was run" in shown and "os error" not in shown, shown
            # The window says plainly that it cannot save, not only under the call.
            banner = wait_for("the message that Ask First cannot save",
                              lambda: app.wd.find_all('[data-testid="storage-error"]'), timeout=10)[0]
            said = app.wd.text(banner)
            figure("full_banner", " ".join(said.split()))
            assert "cannot save" in said, said
            # What the disk said, one click away.
            assert "No space left on device" in open_details(app, banner), said
            shot(app, "full-approve-unrecorded")
            audit(app, "the banner that Ask First cannot save")
            # (b) Still full: a new task. The question cannot be recorded, so nobody is asked.
            app.start_task("Try again on the full disk")
            wait_for("the run to end", lambda: app.run_status() in ("completed", "failed", "cancelled")
                     and len(app.tool_calls()) == 2 and app.tool_calls()[1][0] not in UNDECIDED, timeout=30)
            assert not app.cards(), "a card was shown for a question that was not recorded"
            assert [s for s, _ in app.tool_calls()] == ["denied", "denied"], app.tool_calls()
            assert not os.path.exists(os.path.join(app.workspace, "full.txt"))
            shown = error_text_shown(app)
            assert "No space left on device" in shown, shown
            shot(app, "full-second-task")
            # The app still answers.
            started = time.monotonic()
            assert app.wd.execute("return 1 + 1") == 2
            figure("full_script_round_trip_ms", round((time.monotonic() - started) * 1000, 1))
            assert "panicked" not in app.stderr(), app.stderr()[-2000:]
            # (c) Space again: the log goes on; nothing torn is presented as a record.
            os.unlink(filler)
            app.wd.click(app.wd.find_all('[data-testid="refuse-all"]')[0])  # writes one record
            app.wd.click(app.wd.find_all('[data-testid="refuse-all"]')[0])
            wait_for("the message to go once saving works",
                     lambda: not app.wd.find_all('[data-testid="storage-error"]'), timeout=10)
            shot(app, "full-space-again")
        with open(log, "rb") as f:
            raw = f.read()
        records, damaged = parse_log(raw)
        figure("full_torn_lines", len(damaged))
        figure("full_torn_line_lengths", [len(line) for _, line in damaged])
        assert decided(records, approval_id) in ([], [{"kind": "cancelled", "cause": "app_shutdown"}]) or all(
            o["kind"] != "approved" for o in decided(records, approval_id)), decided(records, approval_id)
        # After the space came back, records are whole lines again, and the gap is marked.
        assert records[-1]["type"] == "session_policy_changed", records[-1]
        gaps = [r for r in records if r["type"] == "unrecorded"]
        assert len(gaps) == 1 and "No space left on device" in gaps[0]["problem"], gaps
        # Start again on the same data: the torn line is skipped, the session reopens and the
        # call does not show as done.
        app = App("full-again", path, data=data, prefix="survival")
        with app:
            app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
            opener = wait_for("the old session", lambda: app.wd.find_all('[data-testid="open-session"]'))[0]
            app.wd.click(opener)
            states = replayed(app, 1)
            assert states == ["cancelled"], states
            said = app.wd.text(app.wd.find_all('section.transcript')[0])
            figure("full_reopened_transcript", " | ".join(said.splitlines()))
            assert "This action was not performed." in said, said
            assert "Part of this task could not be saved" in said, said
            shot(app, "full-reopened")
            assert "panicked" not in app.stderr()


def test_read_only_data_folder():
    if not can_mount():
        print("  SKIPPED: cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN)", flush=True)
        FIGURES["read_only_skipped"] = True
        return
    path = scenario_path("ro", [
        {"say": "Writing.", "tool_calls": [write_call("ro.txt", "must not be written\n")]},
        {"say": "Finished."},
    ])
    with Tmpfs("4m") as fs:
        data = os.path.join(fs.path, "data")
        # A data folder with history: a session whose card was waiting when the app was killed.
        app = App("ro-before", path, data=data, prefix="survival")
        with app:
            app.start_task("Write a file")
            app.card()
            os.kill(app.pid, signal.SIGKILL)
            wait_for("the app to die", lambda: not app.running(), timeout=10)
        before = session_logs(data)
        # The folder turns read-only (a remount needs no open writer: the app is gone).
        fs.remount("ro")
        try:
            app = App("ro-start", path, data=data, prefix="survival")
            with app:
                banner = wait_for("a message about the data folder",
                                  lambda: app.wd.find_all('[data-testid="storage-error"]'), timeout=10)
                shown_at_start = app.wd.text(banner[0])
                figure("ro_message_at_start", " ".join(shown_at_start.split()))
                assert "cannot save" in shown_at_start, shown_at_start
                assert "Read-only file system" in open_details(app, banner[0]), shown_at_start
                shot(app, "ro-start")
                audit(app, "the banner about a read-only data folder")
                app.start_task("Write a file")
                wait_for("the run to end", lambda: app.run_status() in ("completed", "failed", "cancelled"), timeout=30)
                assert not app.cards(), "a card was shown for a question that could not be recorded"
                assert not os.path.exists(os.path.join(app.workspace, "ro.txt"))
                assert [s for s, _ in app.tool_calls()] == ["denied"], app.tool_calls()
                shown = error_text_shown(app)
                assert "Read-only file system" in shown, shown
                shot(app, "ro-start-task")
                # The old session cannot be continued here; the window says why.
                app.wd.click(app.wd.find_all('[data-testid="sessions"]')[0])
                openers = wait_for("the old session", lambda: app.wd.find_all('[data-testid="open-session"]'))
                app.wd.click(openers[0])
                alert = wait_for("why the session cannot be opened",
                                 lambda: app.wd.find_all('[data-testid="sessions-panel"] [role="alert"]'))[0]
                figure("ro_open_session_message", app.wd.text(alert))
                assert "Read-only file system" in open_details(app, alert), app.wd.text(alert)
                # Saving the settings fails with a message, and nothing crashes.
                app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
                save = wait_for("the settings", lambda: app.wd.find_all('[data-testid="settings-save"]'))[0]
                app.wd.click(save)
                alert = wait_for("why the settings were not saved", lambda: [
                    a for a in app.wd.find_all('[role="alert"]') if "settings" in app.wd.text(a)])[0]
                figure("ro_settings_message", app.wd.text(alert))
                assert "Read-only file system" in open_details(app, alert), app.wd.text(alert)
                shot(app, "ro-settings")
                shot(app, "ro-open-session")
                err = app.stderr()
                assert "panicked" not in err, err[-3000:]
            # Nothing was changed in the read-only folder, of course, and the old log is whole.
            assert session_logs(data) == before
            for raw in before.values():
                assert not parse_log(raw)[1]
        finally:
            fs.remount("rw")


TESTS = [test_full_data_folder,
         test_read_only_data_folder]
