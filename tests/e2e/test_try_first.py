"""Try first, in the real window: a command is run on a copy-on-write copy of the folder before
anything happens to the person's files. A command that changes nothing runs with no card; a
command that changes files gets its card after the try, listing what it actually did (Approve
applies exactly that, Deny throws it away, Undo in Activity takes the whole command back); a
"never" rule that forbids one of its changes refuses the whole set, with no card."""
import io
import os
import shutil
import tarfile
import tempfile
import time

from harness.app import App, card_css, scenario_file
from harness.env import ARTIFACTS
from harness.wait import fresh, wait_for

# Every change a card lists, read in one step: [[data-change, data-path], …] in page order.
CHANGES = """return [...document.querySelectorAll(arguments[0])]
  .map(c => [c.getAttribute('data-change'), c.getAttribute('data-path')]);"""


def changes_on(app, card):
    """The changes `card` lists now: [(kind, path), …]."""
    return [tuple(c) for c in app.wd.execute(CHANGES, card_css(card, '[data-testid="approval-change"]'))]


def changes_card(app, seen=()):
    """The first card (not in `seen`) that lists what a tried command changed, once there is one."""
    return wait_for("a card with the command's changes", lambda: [
        c for c in app.cards() if c.id not in seen
        and app.in_card(c, '[data-testid="approval-tried"]')], timeout=60)[0]


def approvals_asked(app):
    """Every approval the session log says a card was shown for."""
    return [r for r in app.session_records()
            if r.get("type") == "event" and r["event"].get("type") == "approval_required"]


def listing(folder):
    """Every file under `folder` (relative paths) and its content."""
    found = {}
    for root, _dirs, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, folder)] = f.read()
    return found


def scroll_into_view(app, css):
    app.wd.execute("document.querySelector(arguments[0])?.scrollIntoView({block: 'start'});", css)
    time.sleep(0.4)  # the scroll painted before the screenshot


def _trash_home():
    """A trash of the test's own (XDG_DATA_HOME), so no test touches the machine's trash."""
    return tempfile.mkdtemp(prefix="askfirst-e2e-trash-")


def _open_activity(app):
    app.click('[data-testid="activity-open"]')
    return wait_for("the Activity panel", lambda: app.wd.find_all('[data-testid="activity"]'))[0]


ENTRIES = """return [...document.querySelectorAll('[data-testid="activity-entry"]')]
  .map(e => ({state: e.getAttribute('data-state'), text: e.innerText}));"""


SCRIPT = 'rm a.tmp b.tmp; echo "3 invoices" > summary.txt\n'


def test_a_script_the_agent_wrote_is_tried_first_and_its_changes_are_applied_and_undone():
    share = _trash_home()
    scenario = scenario_file([
        {"say": "I will write a small tidy-up script.", "tool_calls": [
            {"name": "write_file", "arguments": {"path": "tidy.sh", "content": SCRIPT}}]},
        {"say": "Now I run it.", "tool_calls": [
            {"name": "run_command", "arguments": {"command": "sh ./tidy.sh"}}]},
        {"say": "Done."}])
    try:
        app = App("try-first-script", scenario, {"XDG_DATA_HOME": share})
        ws = app.workspace
        for name, text in (("a.tmp", b"draft a\n"), ("b.tmp", b"draft b\n"), ("keep.txt", b"mine\n")):
            with open(os.path.join(ws, name), "wb") as f:
                f.write(text)
        with app:
            app.start_task("Tidy up my folder")
            script_card = app.card()
            assert app.card_field(script_card, "approval-tool") == "write_file"
            app.press(script_card, "approve")
            wait_for("tidy.sh written", lambda: os.path.exists(os.path.join(ws, "tidy.sh")))
            before = listing(ws)
            card = changes_card(app, {script_card.id})
            assert app.card_field(card, "approval-tool") == "run_command"
            changes = wait_for("the three changes", lambda: (lambda c: c if len(c) == 3 else None)(changes_on(app, card)))
            assert sorted(changes) == [("created", "summary.txt"), ("deleted", "a.tmp"), ("deleted", "b.tmp")], changes
            # Tried on a copy: the person's folder is still as it was while the card waits.
            assert listing(ws) == before, listing(ws)
            assert before["a.tmp"] == b"draft a\n" and "summary.txt" not in before
            text = app.wd.text(card)
            print(f"  the card:\n    " + text.replace("\n", "\n    "), flush=True)
            wait_for("the card to arm", lambda: app.armed_button(card, "approve"))
            scroll_into_view(app, card_css(card))
            app.wd.screenshot(os.path.join(ARTIFACTS, "try-first-script-card.png"))
            app.press(card, "approve")
            assert app.wait_finished() == "completed"
            after = listing(ws)
            assert "a.tmp" not in after and "b.tmp" not in after, after
            assert after["summary.txt"] == b"3 invoices\n", after
            assert after["keep.txt"] == b"mine\n" and after["tidy.sh"] == SCRIPT.encode()
            # Activity lists the command as one entry; Undo takes the whole command back.
            _open_activity(app)
            entries = wait_for("two entries", lambda: (lambda e: e if len(e) == 2 else None)(app.wd.execute(ENTRIES)))
            print(f"  Activity: {entries}", flush=True)
            command = entries[0]  # newest first
            assert command["state"] == "done", entries
            assert "tidy.sh" in command["text"], entries
            app.wd.screenshot(os.path.join(ARTIFACTS, "try-first-activity-undo.png"))
            fresh("the command's Undo", lambda: app.first('[data-testid="activity-entry"] [data-testid="undo"]'),
                  app.wd.click)
            # Undo asks first only when something would be lost; answer it if it asks.
            answered = wait_for("the undo's answer or its question", lambda: app.first(
                '[data-testid="undo-result"], [data-testid="undo-confirm"], [data-testid="undo-error"]'))
            if app.wd.attr(answered, "data-testid") == "undo-confirm":
                print(f"  Undo asked: {app.wd.text(answered)}", flush=True)
                app.click('[data-testid="undo-confirm-yes"]')
            result = app.text('[data-testid="undo-result"]', "the undo's answer")
            print(f"  Undo said: {result}", flush=True)
            restored = listing(ws)
            assert restored == before, restored
            states = wait_for("the command marked undone", lambda: (lambda s: s if s[0] == "undone" else None)(
                [e["state"] for e in app.wd.execute(ENTRIES)]))
            assert states == ["undone", "done"], states
    finally:
        os.unlink(scenario)
        shutil.rmtree(share, ignore_errors=True)


def _tar(path, members):
    with tarfile.open(path, "w") as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 1_700_000_000
            tar.addfile(info, io.BytesIO(data))


def test_a_command_that_makes_a_pdf_under_never_write_pdf_is_refused_with_no_card():
    scenario = scenario_file([
        {"say": "Unpacking the archive.", "tool_calls": [
            {"name": "run_command", "arguments": {"command": "tar xf archive.tar"}}]},
        {"say": "Done."}])
    try:
        app = App("try-first-pdf", scenario)
        _tar(os.path.join(app.workspace, "archive.tar"),
             [("Invoices/march.pdf", b"%PDF-1.4 march\n"), ("Invoices/readme.txt", b"read me\n")])
        os.makedirs(app.data)
        with open(os.path.join(app.data, "rules.toml"), "w", encoding="utf-8") as f:
            f.write('[[deny]]\ntool = "write_file"\nmatch = "**/*.pdf"\n')
        before = listing(app.workspace)
        with app:
            app.start_task("Unpack the archive")
            assert app.wait_finished() == "completed"
            assert not app.cards(), "a card was shown"
            assert approvals_asked(app) == [], approvals_asked(app)
            # Nothing it did was applied: no PDF, nor the other file it unpacked.
            assert listing(app.workspace) == before, listing(app.workspace)
            states = [s for s, _ in app.tool_calls()]
            assert states == ["denied"], states
            shown = app.tool_call_texts()[0]
            print(f"  the transcript's row:\n    " + shown.replace("\n", "\n    "), flush=True)
            assert "march.pdf" in shown, shown
            # The rule is named as Settings lists it.
            assert "your rule \u201cNever write files matching \u201c**/*.pdf\u201d\u201d forbids" in shown, shown
            assert "nothing it did was put into your folder" in shown, shown
            scroll_into_view(app, '[data-testid="tool-call"]')
            app.wd.screenshot(os.path.join(ARTIFACTS, "try-first-pdf-refused.png"))
    finally:
        os.unlink(scenario)


def test_a_command_that_changes_nothing_runs_with_no_card():
    scenario = scenario_file([
        {"say": "Looking.", "tool_calls": [{"name": "run_command", "arguments": {"command": "ls"}}]},
        {"say": "Done."}])
    try:
        app = App("try-first-ls", scenario)
        with open(os.path.join(app.workspace, "letter-to-ann.txt"), "w", encoding="utf-8") as f:
            f.write("Dear Ann\n")
        before = listing(app.workspace)
        with app:
            app.start_task("What is in my folder?")
            assert app.wait_finished() == "completed"
            assert not app.cards(), "a card was shown"
            assert approvals_asked(app) == [], approvals_asked(app)
            assert [s for s, _ in app.tool_calls()] == ["succeeded"]
            # Its output went to the model.
            results = [r["message"]["content"] for r in app.session_records()
                       if r.get("type") == "message" and r["message"].get("role") == "tool_result"]
            assert any("letter-to-ann.txt" in str(r) for r in results), results
            assert listing(app.workspace) == before
    finally:
        os.unlink(scenario)


def test_a_card_of_500_deleted_files_opens_quickly_and_shows_all_of_them():
    scenario = scenario_file([
        {"say": "Removing the temporary files.", "tool_calls": [
            {"name": "run_command", "arguments": {"command": "rm -f *.tmp"}}]},
        {"say": "Done."}])
    try:
        app = App("try-first-500", scenario)
        names = [f"scan-{i:03d}.tmp" for i in range(500)]
        for name in names:
            with open(os.path.join(app.workspace, name), "w", encoding="utf-8") as f:
                f.write("tmp\n")
        with app:
            app.start_task("Remove the temporary files")
            card = changes_card(app)
            # The card opens with the first few and a "Show all" link, at once.
            started = time.monotonic()
            first = wait_for("the first changes", lambda: changes_on(app, card))
            print(f"  first drawn: {len(first)} changes", flush=True)
            assert 0 < len(first) < 500, len(first)
            assert all(kind == "deleted" for kind, _ in first), first
            heading = app.card_texts(card, '[data-testid="approval-change-group"] h4')
            print(f"  heading: {heading}", flush=True)
            assert any("500" in h for h in heading), heading
            assert all(os.path.exists(os.path.join(app.workspace, n)) for n in names), "applied before Approve"
            wait_for("the card to arm", lambda: app.armed_button(card, "approve"))
            # The list's heading at the top: the first changes and "Show all 500" in view.
            scroll_into_view(app, card_css(card, '[data-testid="approval-tried"]'))
            app.wd.screenshot(os.path.join(ARTIFACTS, "try-first-500-deleted.png"))
            # (and the card's buttons, below the list)
            app.wd.execute("document.querySelector(arguments[0]).scrollIntoView({block: 'end'});",
                           card_css(card, "footer"))
            time.sleep(0.4)
            app.wd.screenshot(os.path.join(ARTIFACTS, "try-first-500-deleted-buttons.png"))
            show_all = app.on_card(card, '[data-testid="approval-changes-show-all"]', lambda e: e)
            assert "500" in app.wd.text(show_all), app.wd.text(show_all)
            started = time.monotonic()
            app.on_card(card, '[data-testid="approval-changes-show-all"]', app.wd.click)
            everything = wait_for("all 500 changes", lambda: (lambda c: c if len(c) == 500 else None)(changes_on(app, card)),
                                  timeout=20)
            took = time.monotonic() - started
            print(f"  Show all drew all 500 in {took:.2f}s", flush=True)
            assert took < 5, took
            assert sorted(path for _, path in everything) == names
            assert not app.in_card(card, '[data-testid="approval-changes-show-all"]')
            # The window still answers at once with 500 drawn.
            t0 = time.monotonic()
            app.wd.execute("return document.querySelectorAll('[data-testid=\"approval-change\"]').length")
            assert time.monotonic() - t0 < 1.0
            app.wd.screenshot(os.path.join(ARTIFACTS, "try-first-500-deleted-all.png"))
            app.press(card, "deny")
            assert app.wait_finished() == "completed"
            # Deny threw the changes away: every file is still there.
            assert sorted(n for n in os.listdir(app.workspace)) == names
    finally:
        os.unlink(scenario)


TESTS = [
    test_a_command_that_changes_nothing_runs_with_no_card,
    test_a_script_the_agent_wrote_is_tried_first_and_its_changes_are_applied_and_undone,
    test_a_command_that_makes_a_pdf_under_never_write_pdf_is_refused_with_no_card,
    test_a_card_of_500_deleted_files_opens_quickly_and_shows_all_of_them,
]
