// The conversation's view follows what is new, as chat apps do: while the person is at the
// bottom of the window's scroll area, each new entry (and each piece of text streaming into
// the last one) keeps the newest entry in view; once the person scrolls up themselves (the
// wheel, a touch, a key, the scroll bar), the view stays where they put it and a "New: 2
// messages" button counts what came since and brings them back to the newest. A card waiting
// for an answer is never scrolled away from: while one waits, the view does not move.

/** How close to the bottom still counts as at the bottom, in px (one short line). */
export const AT_BOTTOM_PX = 48;
/** How long after the person's wheel, touch, key or pointer a scroll counts as theirs, in ms. */
export const USER_SCROLL_MS = 800;

/** Whether `el` is scrolled to (within AT_BOTTOM_PX of) its bottom. */
export function atBottom(el: Pick<HTMLElement, 'scrollTop' | 'scrollHeight' | 'clientHeight'>) {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= AT_BOTTOM_PX;
}

export class Follow {
  /** Whether the view follows the newest entry (the person has not scrolled up). */
  following = $state(true);
  /** Entries that arrived while the person was scrolled up. */
  unseen = $state(0);
  #el: HTMLElement | null = null;
  #userAt = -Infinity;
  /** Whether a card waits now: the view then stays (also for a scroll already on its way). */
  #cardWaiting = false;
  #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Watches the person's scrolling of `el` (the window's scroll area); returns the undo. */
  attach(el: HTMLElement): () => void {
    this.#el = el;
    const mark = () => (this.#userAt = this.#now());
    const scrolled = () => {
      // Only the person's own scrolling decides; the window's (a card brought into view, the
      // list measuring its entries) does not.
      if (this.#now() - this.#userAt > USER_SCROLL_MS) return;
      this.following = atBottom(el);
      if (this.following) this.unseen = 0;
    };
    const user = ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const;
    for (const type of user) el.addEventListener(type, mark, { passive: true });
    el.addEventListener('scroll', scrolled, { passive: true });
    return () => {
      for (const type of user) el.removeEventListener(type, mark);
      el.removeEventListener('scroll', scrolled);
      if (this.#el === el) this.#el = null;
    };
  }

  /**
   * The conversation changed: `added` entries are new (0 when text streamed into the last
   * one). While following, and no card waits, the view goes to the newest (after the page is
   * drawn, twice: the list measures what it drew and may grow); otherwise new entries count.
   */
  changed(added: number, cardWaiting: boolean): void {
    this.#cardWaiting = cardWaiting;
    if (!this.following) {
      this.unseen += added;
      return;
    }
    if (cardWaiting) return;
    this.#toBottomSoon();
  }

  /** Goes to the newest entry and follows again ("New: 2 messages"). */
  jump(): void {
    this.following = true;
    this.unseen = 0;
    this.#toBottomSoon();
  }

  #toBottomSoon(): void {
    const el = this.#el;
    if (!el) return;
    // Each step checks again: a card that arrived meanwhile was brought into view, and the
    // view stays with it (found by CI: the second step scrolled a new card away).
    const down = () => {
      if (this.following && !this.#cardWaiting) el.scrollTop = el.scrollHeight;
    };
    down();
    requestAnimationFrame(() => {
      down();
      requestAnimationFrame(down);
    });
  }
}
