// Keyboard focus around the approval cards.
//
// After answering, the answered card leaves with the button that had the focus, which would
// drop it to the page and send the next Tab back to the top. `CardFocus` remembers which card
// (and where in the list) held the focus, and once that card has left, gives the focus to the
// card that took its place (or the last one), or to a fallback (the task box) when none is left.
// A tray item, a notification or the "Waiting for your OK" link brings one card into view and
// focus with `focusCard`; a new card comes into view by itself (not focused) with
// `revealNewCard`.

/** Every approval card (ApprovalCard's root element). */
export const CARD_SELECTOR = '[data-testid="approval-card"]';

/** The card of `approvalId` in `root`, if shown. */
export function cardElement(approvalId: string, root: ParentNode = document): HTMLElement | null {
  // Compared as an attribute value, not put into a selector: nothing to escape.
  for (const card of root.querySelectorAll<HTMLElement>(CARD_SELECTOR)) {
    if (card.getAttribute('data-approval-id') === approvalId) return card;
  }
  return null;
}

/** Scrolls the card of `approvalId` into the middle of the view and focuses it, if shown. */
export function focusCard(approvalId: string, root: ParentNode = document): void {
  const card = cardElement(approvalId, root);
  card?.scrollIntoView?.({ block: 'center' });
  card?.focus();
}

/**
 * Brings the new card of `approvalId` into view (`block: 'nearest'`) when no part of the
 * cards' `list` is on screen (the person is reading the conversation further down), without
 * focusing it: nothing they type or click goes to it, and its arming delay stays. Returns
 * whether it scrolled (then the caller re-arms the cards, see arming.svelte.ts
 * `windowScrolls`). While any part of the list shows, nothing moves under the person.
 */
export function revealNewCard(approvalId: string, list: HTMLElement): boolean {
  const view = list.closest('main')?.getBoundingClientRect() ?? {
    top: 0,
    bottom: window.innerHeight,
  };
  const rect = list.getBoundingClientRect();
  const seen = rect.height > 0 && rect.bottom > view.top && rect.top < view.bottom;
  if (seen) return false;
  const card = cardElement(approvalId, list);
  if (!card || typeof card.scrollIntoView !== 'function') return false;
  card.scrollIntoView({ block: 'nearest' });
  return true;
}

/** Where the focus was among the cards: which card, at which index. */
interface Held {
  id: string;
  index: number;
}

/** Follows the focus within the cards' list and puts it back when its card leaves. */
export class CardFocus {
  #held: Held | null = null;
  #root: ParentNode;

  constructor(root: ParentNode = document) {
    this.#root = root;
  }

  /** For `focusin` on the list: the focus is now inside one card. */
  focusIn(event: FocusEvent): void {
    const card = (event.target as Element | null)?.closest?.(CARD_SELECTOR);
    if (!card) return;
    const cards = [...this.#root.querySelectorAll(CARD_SELECTOR)];
    this.#held = { id: card.getAttribute('data-approval-id') ?? '', index: cards.indexOf(card) };
  }

  /** For `focusout` on the list: focus moved somewhere else on purpose (not lost with its card). */
  focusOut(event: FocusEvent): void {
    const to = event.relatedTarget as Element | null;
    if (to && !to.closest(CARD_SELECTOR)) this.#held = null;
  }

  /**
   * After the list changed: when the card that held the focus has left and the focus is lost
   * (on the page's body), focuses the card now at its index (or the last one), or calls
   * `fallback` when no card is left. Does nothing while the focus is somewhere.
   */
  restore(fallback: () => void): void {
    const held = this.#held;
    if (!held) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    if (cardElement(held.id, this.#root)) return;
    const cards = this.#root.querySelectorAll<HTMLElement>(CARD_SELECTOR);
    const next = cards[Math.min(held.index, cards.length - 1)];
    this.#held = null;
    if (next) next.focus();
    else fallback();
  }
}
