"""A thousand cards at once in the virtualised list (ui/src/lib/virtual/VirtualList.svelte): only
the cards in view are in the page, the count says 1000, a card far down can be scrolled to and
approved as a person would (its buttons arm once it is shown), the count then says 999, the
keyboard focus moves to the card that took its place and Tab reaches that card's buttons, and
the screen reader's announcement still names the newest waiting card."""
import os

from harness.app import App, armed, scenario_file
from harness.env import ARTIFACTS
from harness.wait import wait_for
from harness.webdriver import TAB

COUNT = 1000

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
    return app.wd.text(app.wd.find_all(".approvals .count")[0])


def test_a_thousand_cards_scroll_to_card_900_and_approve_it():
    path = scenario_file([
        {"say": f"I will write {COUNT} files.",
         "tool_calls": [{"name": "write_file", "arguments": {"path": f"p{k}.txt", "content": f"{k}\n"}}
                        for k in range(1, COUNT + 1)]},
        {"say": "All handled."}])
    try:
        with App("many", path, env={"ASKFIRST_APPROVAL_TIMEOUT_SECS": "3600"}) as app:
            app.start_task(f"Write {COUNT} files")
            app.card()
            wait_for("the count to say 1000", lambda: count(app) == str(COUNT), timeout=60)
            drawn = len(app.cards())
            assert 0 < drawn < 40, f"{drawn} cards in the page; only those in view should be"
            first = app.cards()[0]
            assert app.wd.attr(first, "aria-setsize") == str(COUNT)
            announced = app.wd.text(app.wd.find_all('[data-testid="approval-announcer"]')[0])
            assert f"({COUNT} waiting)" in announced, announced

            assert app.wd.s("POST", "/execute/async", {"script": SCROLL_TO, "args": [900]}) is True
            card = wait_for("card 900", lambda: app.wd.find_all(
                '[data-testid="approval-card"][aria-posinset="900"]'))[0]
            summary = app.card_field(card, "approval-summary")
            assert summary.startswith("Create the file p900.txt"), summary
            assert len(app.cards()) < 40, "scrolling draws the cards in view, not all before them"
            app.wd.screenshot(os.path.join(ARTIFACTS, "many-card-900.png"))
            approve = app.wd.find_in(card, '[data-testid="approve"]')[0]
            wait_for("card 900 to arm", lambda: armed(app.wd, approve))
            app.wd.click(approve)
            wait_for("the count to say 999", lambda: count(app) == str(COUNT - 1), timeout=30)
            wait_for("p900.txt written", lambda: os.path.exists(os.path.join(app.workspace, "p900.txt")))
            assert not os.path.exists(os.path.join(app.workspace, "p901.txt"))
            # The focus went to the card that took card 900's place (p901.txt), and Tab from it
            # reaches its buttons.
            focused = app.wd.execute(
                "const c = document.activeElement && document.activeElement.closest('[data-testid=\"approval-card\"]');"
                "return c && c.querySelector('[data-testid=\"approval-summary\"]').textContent")
            assert focused and focused.startswith("Create the file p901.txt"), focused
            # Tab from the card goes through its details to its buttons, in this card.
            tabbed = None
            for _ in range(8):
                app.wd.key(TAB)
                tabbed = app.wd.execute(
                    "const a = document.activeElement; const c = a.closest('[data-testid=\"approval-card\"]');"
                    "return [a.getAttribute('data-testid'), c && c.getAttribute('aria-posinset')]")
                if tabbed[0] in ("deny", "approve-session", "approve"):
                    break
            assert tabbed and tabbed[0] in ("deny", "approve-session", "approve") and tabbed[1] == "900", tabbed
    finally:
        os.unlink(path)


TESTS = [test_a_thousand_cards_scroll_to_card_900_and_approve_it]
