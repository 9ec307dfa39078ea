"""Approving and denying in the real window: a card per risky call, the file written only after
Approve, Allow for this session, Refuse every change, parallel cards answered in any order,
timeouts and their extension, Stop, a click that comes too late, and double clicks that must
answer only the card they were aimed at."""
import json
import os
import time

from harness.a11y import audit
from harness.app import App, scenario_file
from harness.desktop import notifications, tray
from harness.env import ARTIFACTS
from harness.sessions import log_names
from harness.wait import fresh, wait_for


def test_approve_writes_the_file():
    before = len(notifications())
    with App("approve", "write-hello.json") as app:
        app.start_task("Please greet me in a file")
        card = app.card()
        approval_id = card.id
        summary = app.card_field(card, "approval-summary")
        assert summary == "Create the file hello.txt (2 lines)", summary
        assert app.card_field(card, "approval-tool") == "write_file"
        assert "needs your OK" in app.card_field(card, "approval-reason")
        args = app.card_field(card, "approval-args")
        assert '"path": "hello.txt"' in args, args
        diff = app.card_field(card, "approval-diff")
        assert "+Hello from Ask First!" in diff and "+Second line." in diff, diff
        assert not os.path.exists(os.path.join(app.workspace, "hello.txt")), "written before the click"

        # The notification names what is waiting, without the raw arguments.
        note = wait_for("the notification", lambda: notifications()[before:])[0]
        assert note["summary"] == "Ask First needs your OK", note
        # The summary, then the folder's name (the app's folder here is named "workspace").
        assert note["body"] == summary + "\nFolder: workspace", note
        assert "Hello from Ask First" not in note["body"]

        # The tray shows one approval waiting.
        menu = wait_for("the tray to count 1", lambda: (lambda t: t if "1 approval waiting" in t.get("labels", []) else None)(tray()))
        assert "Show Ask First" in menu["labels"] and "Quit" in menu["labels"], menu
        assert menu["title"] == "Ask First", menu

        app.wd.screenshot(os.path.join(ARTIFACTS, "approve-card.png"))
        audit(app, "a card")
        app.press(card, "approve")
        wait_for("the card to go", lambda: not app.wd.find_all(f'[data-approval-id="{approval_id}"]'))
        assert app.wait_finished() == "completed"
        with open(os.path.join(app.workspace, "hello.txt"), encoding="utf-8") as f:
            assert f.read() == "Hello from Ask First!\nSecond line.\n"
        wait_for("the tray to count 0", lambda: "No approvals waiting" in tray().get("labels", []))
        calls = app.wd.find_all('[data-testid="tool-call"]')
        assert [app.wd.attr(c, "data-state") for c in calls] == ["succeeded"]
        app.wd.screenshot(os.path.join(ARTIFACTS, "approve-done.png"))
        audit(app, "the transcript of an approved call")


def test_deny_leaves_no_file_and_the_run_finishes():
    with App("deny", "write-hello.json") as app:
        app.start_task("Please greet me in a file")
        card = app.card()
        approval_id = card.id
        app.press(card, "deny")
        wait_for("the card to go", lambda: not app.wd.find_all(f'[data-approval-id="{approval_id}"]'))
        assert app.wait_finished() == "completed"
        assert not os.path.exists(os.path.join(app.workspace, "hello.txt"))
        messages = [app.wd.text(m) for m in app.wd.find_all('[data-testid="assistant-message"]')]
        assert messages and messages[-1].endswith("That was all I had to do."), messages
        calls = app.wd.find_all('[data-testid="tool-call"]')
        assert [app.wd.attr(c, "data-state") for c in calls] == ["denied"]


def test_reload_keeps_the_card_and_the_transcript():
    with App("reload", "write-hello.json") as app:
        app.start_task("Please greet me in a file")
        approval_id = app.card().id
        for _ in range(3):
            app.wd.execute("location.reload()")
            wait_for("the page to reload", lambda: app.wd.execute("return document.readyState") == "complete"
                     and app.wd.find_all('[data-testid="approval-card"]'))
        assert [c.id for c in app.cards()] == [approval_id]
        # The reloaded page asks for the cards and for the transcript separately: the card can
        # be back before the transcript, which comes all at once (one list_run_events answer).
        status = wait_for("the transcript to be fetched again",
                          lambda: (lambda s: s if s != "idle" else None)(app.run_status()))
        assert status == "running", status
        assert len(app.wd.find_all('[data-testid="assistant-message"]')) == 1
        app.press(approval_id, "approve")
        assert app.wait_finished() == "completed"
        assert os.path.exists(os.path.join(app.workspace, "hello.txt"))


def test_allow_for_this_session_covers_exactly_the_same_call():
    with App("session", "write-twice.json") as app:
        app.start_task("Note the date")
        card = app.card()
        first = card.id
        app.wd.screenshot(os.path.join(ARTIFACTS, "session-card.png"))
        app.press(card, "approve-session")
        # The identical second write runs without a card; the different third one asks.
        card = wait_for("the card for other.txt", lambda: [c for c in app.cards() if c.id != first])[0]
        assert "other.txt" in app.card_field(card, "approval-summary")
        states = [app.wd.attr(c, "data-state") for c in app.wd.find_all('[data-testid="tool-call"]')]
        assert states == ["succeeded", "succeeded", "waiting"], states
        texts = [app.wd.text(c) for c in app.wd.find_all('[data-testid="tool-call"]')]
        assert "allowed in this conversation" in texts[1], texts
        # The grants are listed by a list_grants call of their own, made when the approval
        # for the session arrives: the next card can be shown before its answer.
        grants = wait_for("the grant to be listed", lambda: app.wd.find_all('[data-testid="grant"]'))
        assert len(grants) == 1 and "date.txt" in app.wd.text(grants[0]), grants
        app.wd.screenshot(os.path.join(ARTIFACTS, "session-granted.png"))
        audit(app, "a card beside a grant for this session")
        # Deny with a note: the note reaches the agent.
        app.press(card, "add-note")
        app.on_card(card, '[data-testid="deny-note"]', lambda note: app.wd.type(note, "Not that file, please"),
                    "the note box")
        app.press(card, "deny-with-note")
        assert app.wait_finished() == "completed"
        assert not os.path.exists(os.path.join(app.workspace, "other.txt"))
        texts = [app.wd.text(c) for c in app.wd.find_all('[data-testid="tool-call"]')]
        assert "Not that file, please" in texts[2], texts
        # The grant is also listed in Settings, and stopping it there ends it everywhere.
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        listed = wait_for("the grant in settings", lambda: app.wd.find_all('[data-testid="settings-grant"]'))
        assert len(listed) == 1 and "date.txt" in app.wd.text(listed[0]), listed
        app.wd.click(app.wd.find_all('[data-testid="settings-revoke-grant"]')[0])
        wait_for("the grant to go", lambda: not app.wd.find_all('[data-testid="grant"]')
                 and not app.wd.find_all('[data-testid="settings-grant"]'))
        assert app.wd.execute("return window.__TAURI_INTERNALS__.invoke('list_grants')") == []


def test_refuse_every_change_denies_without_a_card():
    with App("never", "write-hello.json") as app:
        app.wd.click(app.wd.find_all('[data-testid="refuse-all"]')[0])
        app.start_task("Please greet me in a file")
        assert app.wait_finished() == "completed"
        assert not app.wd.find_all('[data-testid="approval-card"]')
        assert not os.path.exists(os.path.join(app.workspace, "hello.txt"))
        calls = app.wd.find_all('[data-testid="tool-call"]')
        assert [app.wd.attr(c, "data-state") for c in calls] == ["denied"]
        assert "not to be asked" in app.wd.text(calls[0]), app.wd.text(calls[0])


def test_parallel_cards_answered_out_of_order():
    before = len(notifications())
    with App("parallel", "two-writes.json") as app:
        app.start_task("Write two files")
        cards = wait_for("two cards", lambda: (lambda c: c if len(c) == 2 else None)(app.cards()))
        summaries = [app.card_field(c, "approval-summary") for c in cards]
        assert summaries == ["Create the file one.txt (1 line)", "Create the file two.txt (1 line)"], summaries
        # One notification each, in the order the cards came.
        notes = wait_for("two notifications", lambda: (lambda n: n if len(n) >= 2 else None)(
            [n for n in notifications()[before:] if n.get("method", "Notify") == "Notify"]))
        assert [n["body"] for n in notes] == [s + "\nFolder: workspace" for s in summaries], notes
        app.wd.screenshot(os.path.join(ARTIFACTS, "parallel-cards.png"))
        second_id = cards[1].id
        app.press(cards[1], "deny")
        wait_for("the second card to go", lambda: not app.wd.find_all(f'[data-approval-id="{second_id}"]'))
        assert [c.id for c in app.cards()] == [cards[0].id]
        app.press(cards[0], "approve")
        assert app.wait_finished() == "completed"
        assert os.path.exists(os.path.join(app.workspace, "one.txt"))
        assert not os.path.exists(os.path.join(app.workspace, "two.txt"))
        states = [app.wd.attr(c, "data-state") for c in app.wd.find_all('[data-testid="tool-call"]')]
        assert states == ["succeeded", "denied"], states


def test_four_alike_moves_are_answered_together_each_its_own_decision():
    """The first hour (issue 41.5): four moves into month folders were four cards answered one
    by one. Alike cards of one task can be answered together: the list names each, "Approve
    these 4" answers exactly those, and each is logged as its own decision."""
    moves = [{"name": "move_path", "arguments": {"from": f"invoice-{i}.pdf", "to": f"2025-0{i}/invoice-{i}.pdf"}}
             for i in range(1, 5)]
    path = scenario_file([{"say": "Sorting.", "tool_calls": moves}, {"say": "Sorted."}])
    try:
        with App("alike", path) as app:
            for i in range(1, 5):
                with open(os.path.join(app.workspace, f"invoice-{i}.pdf"), "w") as f:
                    f.write("%PDF")
                os.makedirs(os.path.join(app.workspace, f"2025-0{i}"))
            app.start_task("Sort my invoices by month")
            cards = wait_for("four cards", lambda: (lambda c: c if len(c) == 4 else None)(app.cards()))
            group = wait_for("the alike group", lambda: app.wd.find_all('[data-testid="alike-group"]'))[0]
            assert app.wd.text(group).startswith("4 moves of this task wait for your OK."), app.wd.text(group)
            app.wd.click(app.wd.find_all('[data-testid="alike-review"]')[0])
            items = [app.wd.text(e) for e in wait_for(
                "the list", lambda: app.wd.find_all('[data-testid="alike-item"]'))]
            assert len(items) == 4 and all("invoice-" in i for i in items), items
            app.wd.screenshot(os.path.join(ARTIFACTS, "alike-moves.png"))
            app.wd.click(app.wd.find_all('[data-testid="alike-approve"]')[0])
            assert app.wait_finished() == "completed"
            for i in range(1, 5):
                assert os.path.exists(os.path.join(app.workspace, f"2025-0{i}", f"invoice-{i}.pdf")), i
            decisions = [r for r in app.session_records() if r["type"] == "approval_decided"]
            assert sorted(r["approval_id"] for r in decisions) == sorted(c.id for c in cards), decisions
            assert all(r["outcome"]["kind"] == "approved" for r in decisions), decisions
    finally:
        os.unlink(path)


def test_no_answer_times_out_and_stop_cancels_a_waiting_card():
    with App("timeout", "write-hello.json", {"ASKFIRST_APPROVAL_TIMEOUT_SECS": "2"}) as app:
        app.start_task("Please greet me in a file")
        app.card()
        wait_for("the card to time out", lambda: not app.wd.find_all('[data-testid="approval-card"]'), timeout=15)
        assert app.wait_finished() == "completed"
        calls = app.wd.find_all('[data-testid="tool-call"]')
        assert [app.wd.attr(c, "data-state") for c in calls] == ["denied"]
        assert "did not answer" in app.wd.text(calls[0]), app.wd.text(calls[0])
        assert not os.path.exists(os.path.join(app.workspace, "hello.txt"))
    with App("stop", "write-hello.json") as app:
        app.start_task("Please greet me in a file")
        app.card()
        app.wd.click(app.wd.find_all('[data-testid="cancel-run"]')[0])
        wait_for("the card to go", lambda: not app.wd.find_all('[data-testid="approval-card"]'))
        assert app.wait_finished() == "cancelled"
        assert not os.path.exists(os.path.join(app.workspace, "hello.txt"))


def test_answering_one_card_gives_a_card_running_late_more_time():
    with App("extend", "two-writes.json", {"ASKFIRST_APPROVAL_TIMEOUT_SECS": "10"}) as app:
        app.start_task("Write two files")
        cards = wait_for("two cards", lambda: (lambda c: c if len(c) == 2 else None)(app.cards()))
        shown_at = time.monotonic()
        first_id, second_id = (c.id for c in cards)
        expiry = lambda: app.wd.execute(
            "return [...document.querySelectorAll('[data-testid=\"approval-card\"]')]"
            ".find(c => c.dataset.approvalId === arguments[0])?.querySelector('.countdown')?.textContent.trim()",
            second_id)
        # Less than half of the 10 s left: answering the first card gives the second 10 s again.
        time.sleep(max(0.0, 5.6 - (time.monotonic() - shown_at)))
        app.press(cards[0], "approve")
        answered_at = time.monotonic()
        wait_for("the first card to go", lambda: not app.wd.find_all(f'[data-approval-id="{first_id}"]'))
        said = wait_for("the longer countdown", lambda: (lambda t: t if t and ("0:09" in t or "0:10" in t) else None)(expiry()))
        print(f"  second card after the answer: {said!r}", flush=True)
        # Past its first deadline (10 s after it appeared) it still waits…
        time.sleep(max(0.0, 11.0 - (time.monotonic() - shown_at)))
        assert app.wd.find_all(f'[data-approval-id="{second_id}"]'), "timed out at its first deadline"
        # …and times out a whole timeout after the answer.
        wait_for("the second card to time out", lambda: not app.wd.find_all(f'[data-approval-id="{second_id}"]'), timeout=15)
        figure_s = round(time.monotonic() - answered_at, 1)
        print(f"  timed out {figure_s} s after the answer", flush=True)
        assert figure_s >= 9, figure_s
        assert app.wait_finished() == "completed"
        states = [app.wd.attr(c, "data-state") for c in app.wd.find_all('[data-testid="tool-call"]')]
        assert states == ["succeeded", "denied"], states


def test_a_late_click_after_the_timeout_says_it_was_too_late():
    with App("late-click", "write-hello.json", {"ASKFIRST_APPROVAL_TIMEOUT_SECS": "3"}) as app:
        app.start_task("Please greet me in a file")
        card = app.card()
        wait_for("Approve to be armed", lambda: app.armed_button(card, "approve"))
        # The person clicks just after the deadline, while the timeout's approval-resolved is
        # still on its way: the page is kept busy past the deadline so the event waits behind
        # the click (the page runs one task at a time), as on a slow machine.
        app.wd.execute("""
            const id = arguments[0];
            return window.__TAURI_INTERNALS__.invoke('list_pending_approvals').then((pending) => {
              const expires = pending.find((p) => p.approval_id === id).expires_at;
              while (Date.now() < expires + 700) {}
              document.querySelector(`[data-testid="approval-card"][data-approval-id="${id}"] [data-testid="approve"]`)
                .click();
            });""", card.id)
        # The click's not_pending answer and the timeout's approval-resolved may come in
        # either order: the first gives a general notice, the second says exactly what ended it.
        text = wait_for("the card to say it had timed out", lambda: [
            n for n in app.card_texts(card, ".notice")
            if "Too late: this request had already timed out" in n])[0]
        assert "did not run" in text, text
        app.wd.screenshot(os.path.join(ARTIFACTS, "late-click.png"))
        wait_for("the card to go", lambda: not app.wd.find_all('[data-testid="approval-card"]'), timeout=10)
        assert app.wait_finished() == "completed"
        calls = app.wd.find_all('[data-testid="tool-call"]')
        assert [app.wd.attr(c, "data-state") for c in calls] == ["denied"]
        assert not os.path.exists(os.path.join(app.workspace, "hello.txt"))
        logs = [os.path.join(app.data, "sessions", f) for f in log_names(app.data)]
        records = [json.loads(line) for path in logs for line in open(path, encoding="utf-8") if line.strip()]
        decided = [r["outcome"] for r in records if r["type"] == "approval_decided"]
        assert decided == [{"kind": "denied", "source": "timeout"}], decided


def double_click_the_first_of_two_cards(name, second_below_the_fold, gap_ms=300):
    """Double-clicks Approve on the first of two cards (gap_ms between the clicks, the pointer
    still): only the first may be answered."""
    with App(name, "two-writes.json") as app:
        app.start_task("Write two files")
        cards = wait_for("two cards", lambda: (lambda c: c if len(c) == 2 else None)(app.cards()))
        first_id, second_id = (c.id for c in cards)
        wait_for("both cards to arm", lambda: all(app.armed_button(c, "approve") for c in cards))
        if second_below_the_fold:
            # Push the second card below the bottom of the window (as a tall first card would).
            below = app.wd.execute("""
                const card = (id) => document.querySelector(`[data-testid="approval-card"][data-approval-id="${id}"]`);
                const [first, second] = [...arguments].map(card);
                first.style.marginBottom = (window.innerHeight + 200) + 'px';
                return second.getBoundingClientRect().top > window.innerHeight;""", first_id, second_id)
            assert below, "the second card should start off screen"
            time.sleep(0.3)  # let the page note that it is off screen
        # The second click comes after the first card has gone and the second slid up under
        # the pointer: it must find that card not armed yet. (The button is found afresh; the
        # two clicks are one action, at the spot where it is now.)
        fresh("Approve of the first card", lambda: app.armed_button(first_id, "approve"),
              lambda button: app.wd.click_twice(button, gap_ms))
        wait_for("one.txt", lambda: os.path.exists(os.path.join(app.workspace, "one.txt")))
        # The file is written after the approval's approval-resolved left, but the page may
        # take it in later (a loaded machine): wait for the first card to go.
        wait_for("the first card to go", lambda: not app.wd.find_all(f'[data-approval-id="{first_id}"]'))
        time.sleep(1)
        assert [c.id for c in app.cards()] == [second_id], "the second card was answered"
        assert not os.path.exists(os.path.join(app.workspace, "two.txt"))
        app.press(second_id, "deny")
        assert app.wait_finished() == "completed"
        # However late a stray second click would have landed, the deny is what answered it.
        assert not os.path.exists(os.path.join(app.workspace, "two.txt"))
        records = [json.loads(line) for name in log_names(app.data)
                   for line in open(os.path.join(app.data, "sessions", name), encoding="utf-8") if line.strip()]
        decided = [r["outcome"] for r in records if r["type"] == "approval_decided" and r["approval_id"] == second_id]
        assert decided == [{"kind": "denied", "source": "user"}], decided


def test_a_double_click_answers_only_the_card_it_was_aimed_at():
    double_click_the_first_of_two_cards("double-click", second_below_the_fold=False)


def test_a_slow_double_click_answers_only_the_card_it_was_aimed_at():
    # 900 ms between the clicks: longer than the usual arming delay (600 ms), as some people
    # double-click; the pointer has not moved, so the card that slid under it waits longer.
    double_click_the_first_of_two_cards("slow-double-click", second_below_the_fold=False, gap_ms=900)


def test_a_card_sliding_up_from_below_the_fold_is_not_armed_either():
    # Cards off screen do not re-arm when they move (so answering the top one of 1,000 stays
    # cheap); one that comes onto the screen because it moved must still re-arm.
    double_click_the_first_of_two_cards("double-click-fold", second_below_the_fold=True)


TESTS = [test_approve_writes_the_file,
         test_deny_leaves_no_file_and_the_run_finishes,
         test_reload_keeps_the_card_and_the_transcript,
         test_allow_for_this_session_covers_exactly_the_same_call,
         test_refuse_every_change_denies_without_a_card,
         test_parallel_cards_answered_out_of_order,
         test_four_alike_moves_are_answered_together_each_its_own_decision,
         test_no_answer_times_out_and_stop_cancels_a_waiting_card,
         test_answering_one_card_gives_a_card_running_late_more_time,
         test_a_late_click_after_the_timeout_says_it_was_too_late,
         test_a_double_click_answers_only_the_card_it_was_aimed_at,
         test_a_slow_double_click_answers_only_the_card_it_was_aimed_at,
         test_a_card_sliding_up_from_below_the_fold_is_not_armed_either]
