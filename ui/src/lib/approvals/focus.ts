// Keyboard focus around the approval cards.
//
// After answering, the answered card leaves with the button that had the focus, which would
// drop it to the page and send the next Tab back to the top. `CardFocus` remembers which card
// (and where in the list) held the focus, and once that card has left, gives the focus to the
// card that took its place (or the last one), or to a fallback (the task box) when none is left.
// A tray item, a notification or the "Waiting for your OK" link brings one card into view and
// focus with `focusCard`; a new card comes into view by itself (not focused) with
// `revealNewCard`. Only the cards on screen are drawn (ApprovalsList.svelte): a card that is
// not is found through the list's locator (`locateCards`), which scrolls to it and draws it.

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

/**
 * Scrolls the list to a card that is not drawn and draws it; resolves to its element, or null
 * when the list has no such card.
 */
export type CardLocator = (
  approvalId: string,
  block: 'center' | 'nearest',
) => Promise<HTMLElement | null>;

let locator: CardLocator | undefined;

/**
 * The list of cards says how to find its cards; returns the function that takes it back (and
 * gives the place back to the list that had it before: the sample list drawn once at start,
 * rehearsal.ts, comes and goes while the window's list stays).
 */
export function locateCards(locate: CardLocator): () => void {
  const before = locator;
  locator = locate;
  return () => {
    if (locator === locate) locator = before;
  };
}

/**
 * Scrolls the card of `approvalId` into the middle of the view and focuses it, if it is in the
 * list (drawn, or drawn now through the list's locator).
 */
export function focusCard(approvalId: string, root: ParentNode = document): void {
  const show = (card: HTMLElement | null) => {
    card?.scrollIntoView?.({ block: 'center' });
    card?.focus();
  };
  const card = cardElement(approvalId, root);
  if (card || !locator) show(card);
  else void locator(approvalId, 'center').then(show);
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
  if (!card && locator) {
    // Not drawn: the list scrolls to it at once, then brings it wholly in once it is drawn.
    void locator(approvalId, 'nearest').then((drawn) => drawn?.scrollIntoView?.({ block: 'nearest' }));
    return true;
  }
  if (!card || typeof card.scrollIntoView !== 'function') return false;
  card.scrollIntoView({ block: 'nearest' });
  return true;
}

/** Where the focus was among the cards: which card, at which index. */
interface Held {
  id: string;
  index: number;
}

/**
 * Where a card is in the whole list, when not every card is drawn: `indexOf` gives a drawn
 * card's place (-1 if unknown), `cardAt` the drawn card at a place (clamped to the last).
 * Without them, the drawn cards in document order are the list.
 */
export interface CardPlaces {
  indexOf: (card: Element) => number;
  cardAt: (index: number) => HTMLElement | null;
}

/** Follows the focus within the cards' list and puts it back when its card leaves. */
export class CardFocus {
  #held: Held | null = null;
  #root: ParentNode;
  #places: CardPlaces;

  constructor(root: ParentNode = document, places?: CardPlaces) {
    this.#root = root;
    this.#places = places ?? {
      indexOf: (card) => [...this.#root.querySelectorAll(CARD_SELECTOR)].indexOf(card),
      cardAt: (index) => {
        const cards = this.#root.querySelectorAll<HTMLElement>(CARD_SELECTOR);
        return cards[Math.min(index, cards.length - 1)] ?? null;
      },
    };
  }

  /** For `focusin` on the list: the focus is now inside one card. */
  focusIn(event: FocusEvent): void {
    const card = (event.target as Element | null)?.closest?.(CARD_SELECTOR);
    if (!card) return;
    this.#held = {
      id: card.getAttribute('data-approval-id') ?? '',
      index: this.#places.indexOf(card),
    };
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
    const next = held.index < 0 ? null : this.#places.cardAt(held.index);
    this.#held = null;
    if (next) next.focus();
    else fallback();
  }
}
