"""Many cards at once in the virtualised list (ui/src/lib/virtual/VirtualList.svelte): only the
cards in view are in the page, the count says how many wait, a card far down can be scrolled to
and approved as a person would (its buttons arm once it is shown), the count then says one
fewer, the keyboard focus moves to the card that took its place and Tab reaches that card's
buttons, and the screen reader's announcement counts every waiting card. 64 is the most one
model turn may ask at once (agent MAX_TOOL_CALLS_PER_TURN); 1,000 cards are tested in
ui/src/lib/approvals/virtual.test.ts."""
import os

from harness.app import CARD, App, card_css, scenario_file
from harness.env import ARTIFACTS
from harness.wait import wait_for
from harness.webdriver import TAB

COUNT = 64  # the core's limit per model turn
FAR = 60  # the card scrolled to

# Scrolls the window's view down until the card at place `n` (aria-posinset, from 1) is drawn,
# then brings it to the middle; returns whether it was found.
SCROLL_TO = """
const n = String(arguments[0]);
const done = arguments[arguments.length - 1];
const main = document.querySelector('main');
let tries = 0;
const step = () => {
  const card = document.querySelector(`[data-testid="approval-card"][aria-posinset="${n}"]`);
  if (card) { card.scrollIntoView({ block: 'center' }); return done(true); }
  if (tries++ > 2000) return done(false);
  main.scrollTop += 1500;
  requestAnimationFrame(() => requestAnimationFrame(step));
};
step();"""


def count(app):
    return app.text(".approvals .count")


# The summary of every card now in the page, read in one step.
SUMMARIES = f"""return [...document.querySelectorAll('{CARD}')]
  .map(c => c.querySelector('[data-testid="approval-summary"]').innerText);"""


def test_many_cards_scroll_to_a_card_far_down_and_approve_it():
    path = scenario_file([
        {"say": f"I will write {COUNT} files.",
         "tool_calls": [{"name": "write_file", "arguments": {"path": f"p{k}.txt", "content": f"{k}\n"}}
                        for k in range(1, COUNT + 1)]},
        {"say": "All handled."}])
    try:
        with App("many", path, env={"ASKFIRST_APPROVAL_TIMEOUT_SECS": "3600"}) as app:
            app.start_task(f"Write {COUNT} files")
            app.card()
            wait_for(f"the count to say {COUNT}", lambda: count(app) == str(COUNT), timeout=60)
            drawn = len(app.cards())
            assert 0 < drawn < 16, f"{drawn} cards in the page; only those in view should be"
            first = app.cards()[0]
            assert app.on(card_css(first), lambda c: app.wd.attr(c, "aria-setsize")) == str(COUNT)
            # (read as a screen reader does: the text of the live region, which is not on screen)
            announced = wait_for("the announcement", lambda: app.wd.execute(
                "return document.querySelector('[data-testid=\"approval-announcer\"]').textContent.trim()"))
            assert announced.startswith(f"Ask First needs your OK ({COUNT} waiting): Create the file p{COUNT}.txt"), announced

            assert app.wd.s("POST", "/execute/async", {"script": SCROLL_TO, "args": [FAR]}) is True
            # The card is named by its approval id from here on: the list redraws its element.
            far_id = app.on(f'{CARD}[aria-posinset="{FAR}"]', lambda c: app.wd.attr(c, "data-approval-id"),
                            f"card {FAR}")
            summary = app.card_field(far_id, "approval-summary")
            assert summary.startswith(f"Create the file p{FAR}.txt"), summary
            assert not any(s.startswith("Create the file p1.txt ") for s in app.wd.execute(SUMMARIES)), \
                "the first card is not drawn far down the list"
            assert len(app.cards()) < 16, "scrolling draws the cards in view, not all before them"
            app.wd.screenshot(os.path.join(ARTIFACTS, "many-card-far.png"))
            app.press(far_id, "approve")
            wait_for(f"the count to say {COUNT - 1}", lambda: count(app) == str(COUNT - 1), timeout=30)
            # The core recorded exactly this card's approval (its tool runs in its turn, after
            # the calls before it).
            decided = wait_for("the decision recorded", lambda: [
                (r["approval_id"], r["outcome"]["kind"]) for r in app.session_records()
                if r["type"] == "approval_decided"])
            assert decided == [(far_id, "approved")], decided
            # The focus went to the card that took its place, and Tab from it reaches its buttons.
            focused = app.wd.execute(
                "const c = document.activeElement && document.activeElement.closest('[data-testid=\"approval-card\"]');"
                "return c && c.querySelector('[data-testid=\"approval-summary\"]').textContent")
            assert focused and focused.startswith(f"Create the file p{FAR + 1}.txt"), focused
            # Tab from the card goes through its details to its buttons, in this card.
            tabbed = None
            for _ in range(8):
                app.wd.key(TAB)
                tabbed = app.wd.execute(
                    "const a = document.activeElement; const c = a.closest('[data-testid=\"approval-card\"]');"
                    "return [a.getAttribute('data-testid'), c && c.getAttribute('aria-posinset')]")
                if tabbed[0] in ("deny", "approve-session", "approve"):
                    break
            assert tabbed and tabbed[0] in ("deny", "approve-session", "approve") and tabbed[1] == str(FAR), tabbed
    finally:
        os.unlink(path)


RUNS = 6  # of 64 entries each: the first is older than the newest 300 the page holds
CALLS = 60  # list_directory calls a run (read only: no card)

# Records, from now on, whether the page drew a stand-in for an entry it let go of
# (window.__standIns counts them); the stand-in is drawn before the run is read back.
WATCH_STAND_INS = """
window.__standIns = 0;
new MutationObserver((changes) => {
  for (const c of changes) for (const n of c.addedNodes)
    if (n.nodeType === 1 && (n.matches('[data-testid="unloaded-entry"]') || n.querySelector('[data-testid="unloaded-entry"]')))
      window.__standIns++;
}).observe(document.querySelector('.transcript'), { childList: true, subtree: true });"""


def runs_ended(app):
    """How many runs the session log records the end of."""
    return sum(1 for rec in app.session_records()
               if rec["type"] == "event" and rec["event"]["type"] == "run_finished")


TOP_TEXTS = """return [...document.querySelectorAll('.transcript .row')].slice(0, 8).map(r => r.innerText.trim());"""


def test_a_long_conversation_lets_old_runs_go_and_reads_them_back():
    turns = []
    for r in range(1, RUNS + 1):
        turns.append({"say": f"Looking around, round {r}.",
                      "tool_calls": [{"name": "list_directory", "arguments": {"path": "."}}
                                     for _ in range(CALLS)]})
        turns.append({"say": f"Round {r} done."})
    path = scenario_file(turns)
    try:
        with App("long-conversation", path) as app:
            for r in range(1, RUNS + 1):
                app.start_task(f"Look around, round {r}")
                # The status of this run, not the one before (still shown right after Start): the
                # session log holds this run's end. (Not the last task drawn: once the conversation
                # is virtualised, over 300 entries, a run's task is out of view at the end.)
                status = wait_for(f"round {r} to finish", lambda: (lambda ended, status: status if
                                  ended == r and status in ("completed", "failed", "cancelled")
                                  else None)(runs_ended(app), app.run_status()))
                assert status == "completed", (r, status)
            rows = lambda: app.wd.execute("return document.querySelectorAll('.transcript .row').length")
            assert rows() < 200, f"{rows()} entries drawn: a conversation over 300 is virtualised"
            app.wd.execute("document.querySelector('main').scrollTop = 1e9;")
            app.wd.execute(WATCH_STAND_INS)
            # At the top: run 1 was let go of (a stand-in is drawn first) and is read back.
            app.wd.execute("document.querySelector('main').scrollTop = 0;")
            top = wait_for("the first run drawn again", lambda: (lambda t: t if t and "Look around, round 1" in t[0]
                           and not any("Loading this part" in x for x in t) else None)(app.wd.execute(TOP_TEXTS)),
                           timeout=30)
            assert app.wd.execute("return window.__standIns") > 0, "run 1 was never let go of"
            assert "Looking around, round 1." in top[1], top
            assert top[2].startswith("Look at the list of files in your workspace folder\nDone"), top
            app.wd.screenshot(os.path.join(ARTIFACTS, "long-conversation-top.png"))
            unloaded = app.wd.execute(
                "return [...document.querySelectorAll('[data-testid=\"unloaded-entry\"]')].map(e => e.textContent.trim())")
            assert not any("cannot be shown" in u for u in unloaded), unloaded
    finally:
        os.unlink(path)


TESTS = [test_many_cards_scroll_to_a_card_far_down_and_approve_it,
         test_a_long_conversation_lets_old_runs_go_and_reads_them_back]
