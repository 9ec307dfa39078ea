import { afterEach, describe, expect, it, vi } from 'vitest';
import { CardFocus, focusCard, revealNewCard } from './focus';

function cards(...ids: string[]): HTMLElement {
  const list = document.createElement('section');
  for (const id of ids) {
    const card = document.createElement('article');
    card.dataset.testid = 'approval-card';
    card.dataset.approvalId = id;
    card.tabIndex = -1;
    const button = document.createElement('button');
    button.textContent = `Approve ${id}`;
    card.append(button);
    list.append(card);
  }
  document.body.append(list);
  return list;
}

const card = (id: string) =>
  document.querySelector<HTMLElement>(`[data-approval-id="${id}"]`) as HTMLElement;

/** Focuses the button of card `id` (the list's focusin tells `CardFocus`). */
function focusButton(_focus: CardFocus, id: string) {
  (card(id).querySelector('button') as HTMLButtonElement).focus();
}

afterEach(() => document.body.replaceChildren());

describe('CardFocus', () => {
  it('gives the focus to the card that took the answered one’s place', () => {
    const list = cards('a', 'b', 'c');
    const focus = new CardFocus();
    list.addEventListener('focusin', (e) => focus.focusIn(e));
    focusButton(focus, 'b');
    card('b').remove(); // its focused button leaves with it
    focus.restore(() => {});
    expect(document.activeElement).toBe(card('c'));
  });

  it('gives it to the last card when the answered one was last, then to the fallback', () => {
    const list = cards('a', 'b');
    const focus = new CardFocus();
    list.addEventListener('focusin', (e) => focus.focusIn(e));
    focusButton(focus, 'b');
    card('b').remove();
    const fallback = vi.fn();
    focus.restore(fallback);
    expect(document.activeElement).toBe(card('a'));
    expect(fallback).not.toHaveBeenCalled();

    focusButton(focus, 'a');
    card('a').remove();
    focus.restore(fallback);
    expect(fallback).toHaveBeenCalledOnce();
  });

  it('leaves the focus alone when the person moved it elsewhere or the card is still there', () => {
    const list = cards('a', 'b');
    const outside = document.createElement('textarea');
    document.body.append(outside);
    const focus = new CardFocus();
    list.addEventListener('focusin', (e) => focus.focusIn(e));
    list.addEventListener('focusout', (e) => focus.focusOut(e));
    focusButton(focus, 'a');
    focus.restore(() => {});
    expect(document.activeElement).toBe(card('a').querySelector('button'));

    outside.focus();
    card('a').remove();
    outside.blur();
    const fallback = vi.fn();
    focus.restore(fallback);
    expect(document.activeElement).toBe(document.body);
    expect(fallback).not.toHaveBeenCalled();
  });

  it('focuses the card the tray asked for', () => {
    cards('a', 'b');
    focusCard('b');
    expect(document.activeElement).toBe(card('b'));
    focusCard('gone');
    expect(document.activeElement).toBe(card('b'));
  });
});

describe('revealNewCard', () => {
  /** Gives `element` a fixed box on screen (jsdom lays nothing out). */
  function box(element: Element, top: number, height: number) {
    element.getBoundingClientRect = () =>
      ({ top, bottom: top + height, height, left: 0, right: 100, width: 100 }) as DOMRect;
  }

  it('scrolls a new card into view, unfocused, only when the list is scrolled away', () => {
    const main = document.createElement('main');
    document.body.append(main);
    const list = cards('a', 'b');
    main.append(list);
    box(main, 0, 600);
    const scrolled: string[] = [];
    for (const el of list.querySelectorAll<HTMLElement>('[data-testid="approval-card"]')) {
      el.scrollIntoView = (arg?: boolean | ScrollIntoViewOptions) => {
        expect(arg).toEqual({ block: 'nearest' });
        scrolled.push(el.dataset.approvalId ?? '');
      };
    }
    const outside = document.createElement('textarea');
    main.append(outside);
    outside.focus();
    // The person reads further down: the list is above the view.
    box(list, -900, 400);
    expect(revealNewCard('b', list)).toBe(true);
    expect(scrolled).toEqual(['b']);
    // The keyboard stays where the person had it.
    expect(document.activeElement).toBe(outside);
    // Part of the list shows: nothing moves.
    box(list, 500, 400);
    expect(revealNewCard('b', list)).toBe(false);
    expect(scrolled).toEqual(['b']);
  });
});
