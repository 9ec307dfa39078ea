"""What a card shows, whatever the model sends: hostile arguments as text (nothing runs in the
page), every diff line whatever it starts with, and a 5 MB argument that keeps the card usable."""
import os
import time

from harness.a11y import audit
from harness.app import App, card_css, scenario_file
from harness.env import ARTIFACTS
from harness.wait import wait_for


def test_hostile_arguments_are_shown_as_text_and_nothing_runs_in_the_page():
    payloads = [
        '<img src=x onerror="window.__pwned=1">',
        '<script>window.__pwned=2</script>',
        '"><svg onload="window.__pwned=3">',
        'invoice\u202Etxt.exe',
        'zero\u200bwidth',
    ]
    content = "\n".join(payloads)
    path = scenario_file([
        {"say": "<b>bold?</b> <img src=x onerror=\"window.__pwned=4\">",
         "tool_calls": [{"name": "write_file", "arguments": {"path": "<i>x</i>.txt", "content": content}}]},
        {"say": "ok"},
    ])
    try:
        with App("hostile", path) as app:
            app.start_task("x")
            card = app.card()
            args = app.card_field(card, "approval-args")
            assert '<img src=x onerror=\\"window.__pwned=1\\">' in args, args
            assert "\\u202E" in args and "\\u200B" in args, args
            summary = app.card_field(card, "approval-summary")
            assert summary == "Create the file <i>x</i>.txt (5 lines)", summary
            said = app.wd.text(app.wd.find_all('[data-testid="assistant-message"]')[0])
            assert "<b>bold?</b>" in said, said
            assert app.wd.execute("return window.__pwned === undefined") is True
            assert not app.wd.find_all("img, svg, script:not([src])"), "no element made from model text"
            app.wd.screenshot(os.path.join(ARTIFACTS, "hostile-card.png"))
            audit(app, "a card with hostile arguments")
            # Folding the object hides its lines only with a count, and unfolding brings them back.
            app.on_card(card, '[data-testid="json-toggle"]', app.wd.click)
            folded = app.card_field(card, "approval-args")
            assert folded == "{ … 2 lines folded … }", folded
            app.on_card(card, '[data-testid="json-toggle"]', app.wd.click)
            assert app.card_field(card, "approval-args") == args
            app.press(card, "deny")
            assert app.wait_finished() == "completed"
    finally:
        os.unlink(path)


def diff_lines(app, card):
    """Each line of a card's diff box as a person sees it: (kind, text), kind one of add, del,
    same, hunk, note, cut, other. Read in one step, the card found by its approval id."""
    return app.wd.execute(
        "const kinds = ['add', 'del', 'same', 'hunk', 'note', 'cut', 'other'];"
        "return [...document.querySelectorAll(arguments[0])]"
        ".map(el => [kinds.find(k => el.classList.contains(k)) || '?', el.innerText]);",
        card_css(card, '[data-testid="approval-diff"] .line'))


def test_every_diff_line_shows_whatever_it_starts_with():
    # A hostile model hides a line in a diff by making it look like diff syntax: each of these
    # is a line of the file and must show as an added (or removed) line on the card.
    tricky = ["print('hi')", "+", "-", "++__import__('os').system('echo pwned')", "--",
              "+++ b/elsewhere.txt", "--- a/elsewhere.txt", "@@ -1,2 +1,2 @@",
              "\\ No newline at end of file", "[… 3 lines not shown: 3 added, 0 removed …]",
              "last line"]
    content = "\n".join(tricky) + "\n"
    old_sql = "create table t (id int);\n-- drop the old table first\n--- a/not-a-header\nselect 1;\n"
    path = scenario_file([
        {"say": "Writing the script.",
         "tool_calls": [{"name": "write_file", "arguments": {"path": "run.py", "content": content}}]},
        {"say": "Tidying the SQL.",
         "tool_calls": [{"name": "edit_file", "arguments": {
             "path": "schema.sql",
             "old_text": "-- drop the old table first\n--- a/not-a-header\n", "new_text": ""}}]},
        {"say": "Done."},
    ])
    try:
        with App("tricky-diff", path) as app:
            with open(os.path.join(app.workspace, "schema.sql"), "w", encoding="utf-8") as f:
                f.write(old_sql)
            app.start_task("x")
            card = app.card()
            assert app.card_field(card, "approval-tool") == "write_file"
            shown = diff_lines(app, card)
            assert shown == [["add", "+" + line] for line in tricky], shown
            # The whole change is shown: no sentence says part of it is not.
            assert not app.in_card(card, '[data-testid="approval-diff-cut"]')
            time.sleep(1)  # WebKit's screenshot can lag the DOM by a frame or two
            app.wd.screenshot(os.path.join(ARTIFACTS, "tricky-diff-card.png"))
            audit(app, "a card with a diff")
            app.press(card, "approve")
            write = card.id
            card = wait_for("the edit's card", lambda: [c for c in app.cards() if c.id != write])[0]
            assert app.card_field(card, "approval-tool") == "edit_file"
            shown = diff_lines(app, card)
            assert shown == [["same", " create table t (id int);"],
                             ["del", "--- drop the old table first"],
                             ["del", "---- a/not-a-header"],
                             ["same", " select 1;"]], shown
            time.sleep(1)
            app.wd.screenshot(os.path.join(ARTIFACTS, "tricky-edit-card.png"))
            app.press(card, "approve")
            assert app.wait_finished() == "completed"
            with open(os.path.join(app.workspace, "run.py"), encoding="utf-8", newline="") as f:
                assert f.read() == content
            with open(os.path.join(app.workspace, "schema.sql"), encoding="utf-8", newline="") as f:
                assert f.read() == "create table t (id int);\nselect 1;\n"
    finally:
        os.unlink(path)


def test_a_5_mb_argument_keeps_the_card_usable():
    path = scenario_file([
        {"tool_calls": [{"name": "write_file", "arguments": {"path": "big.txt", "content": "x" * 5_000_000}}]},
        {"say": "ok"},
    ])
    try:
        with App("big", path) as app:
            app.start_task("x")
            card = app.card()
            args = app.card_field(card, "approval-args")
            assert "4,999,200 more characters hidden" in args, args[:300]
            assert len(args) < 20_000
            assert app.in_card(card, '[data-testid="show-all"]')
            app.wd.screenshot(os.path.join(ARTIFACTS, "big-card.png"))
            app.press(card, "approve")
            assert app.wait_finished() == "completed"
            assert os.path.getsize(os.path.join(app.workspace, "big.txt")) == 5_000_000
    finally:
        os.unlink(path)


TESTS = [test_hostile_arguments_are_shown_as_text_and_nothing_runs_in_the_page,
         test_every_diff_line_shows_whatever_it_starts_with,
         test_a_5_mb_argument_keeps_the_card_usable]
