// The virtualised list of cards (ApprovalsList.svelte over ../virtual/VirtualList.svelte) with
// 1,000 cards: only those in view are drawn, the count and the screen reader's "n of 1,000" are
// right, the tray's and the link's card is drawn and focused wherever it is, the focused card
// and its neighbours stay drawn when scrolled away (Tab goes on to the next card), and the
// focus moves to the next card when the focused one is answered.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import type { ApprovalRequest } from '../bindings/ApprovalRequest';

vi.mock('../ipc', () => {
  class IpcError extends Error {}
  return {
    IpcError,
    resolveApproval: vi.fn(async () => {}),
    listPendingApprovals: vi.fn(async () => []),
    onApprovalRequired: vi.fn(),
    onApprovalResolved: vi.fn(),
  };
});

import ApprovalsList from './ApprovalsList.svelte';
import { Approvals } from '../approvals.svelte';
import { focusCard } from './focus';

function request(n: number): ApprovalRequest {
  return {
    approval_id: `a${n}`,
    run_id: 'run-1',
    tool_call_id: `call_${n}`,
    tool_name: 'write_file',
    arguments_json: `{"path":"file${n}.txt","content":"hi"}`,
    arguments_sha256: '00',
    summary: `Create the file file${n}.txt (1 line)`,
    reason: 'needs your OK',
    risk: 'medium',
    policy_layer: 'tool_default',
    expires_at: Date.now() + 3_600_000,
    resumed: false,
  };
}

/** Waits until the cards of a burst have joined the list (frames or their fallback timers). */
const frames = (ms = 400) => new Promise((done) => setTimeout(done, ms));

let main: HTMLElement;
let app: ReturnType<typeof mount>;
/** Where the view is scrolled to: jsdom lays nothing out, so scrolling moves the list's box. */
let scrollTop = 0;

function drawnIds(): string[] {
  return [...main.querySelectorAll('[data-testid="approval-card"]')].map(
    (c) => c.getAttribute('data-approval-id') ?? '',
  );
}
const cardOf = (id: string) =>
  main.querySelector<HTMLElement>(`[data-approval-id="${id}"]`) as HTMLElement;

async function showCards(count: number): Promise<Approvals> {
  const approvals = new Approvals();
  for (let n = 1; n <= count; n++) approvals.add(request(n));
  // The first card is shown at once, the rest 100 per frame: wait until all have joined (a
  // fixed wait was too short on a busy machine).
  await vi.waitFor(() => expect(approvals.cards.length).toBe(count), {
    timeout: 20_000,
    interval: 20,
  });
  app = mount(ApprovalsList, { target: main, props: { approvals, onnocard: () => {} } });
  flushSync();
  // The list's box follows the scroll (its top moves up as the view scrolls down).
  const list = main.querySelector<HTMLElement>('.virtual') as HTMLElement;
  list.getBoundingClientRect = () =>
    ({ top: 40 - scrollTop, bottom: 0, height: 0, left: 0, right: 0, width: 0 }) as DOMRect;
  return approvals;
}

async function scrollTo(top: number): Promise<void> {
  main.scrollTop = top;
  main.dispatchEvent(new Event('scroll'));
  await frames(50);
  flushSync();
}

beforeEach(() => {
  scrollTop = 0;
  main = document.createElement('main');
  main.style.overflowY = 'auto';
  Object.defineProperty(main, 'scrollTop', {
    get: () => scrollTop,
    set: (v: number) => (scrollTop = Math.max(0, v)),
  });
  Object.defineProperty(main, 'clientHeight', { get: () => 700 });
  main.getBoundingClientRect = () =>
    ({ top: 0, bottom: 700, height: 700, left: 0, right: 0, width: 0 }) as DOMRect;
  document.body.append(main);
});
afterEach(() => {
  unmount(app);
  document.body.replaceChildren();
});

describe('the list of 1,000 cards', () => {
  it('draws only the cards in view, and counts and numbers all of them', async () => {
    await showCards(1000);
    const drawn = drawnIds();
    expect(drawn[0]).toBe('a1');
    // 700 px of view and 800 px of margin below, at an estimated 313 px a card.
    expect(drawn.length).toBeGreaterThan(2);
    expect(drawn.length).toBeLessThan(12);
    expect(main.querySelector('.count')?.textContent).toBe('1000');
    const first = cardOf('a1');
    expect(first.getAttribute('aria-posinset')).toBe('1');
    expect(first.getAttribute('aria-setsize')).toBe('1000');
    // The list is as tall as all the cards, so the scroll bar is right.
    const spacers = [...main.querySelectorAll<HTMLElement>('.virtual > .spacer')];
    const height = spacers.reduce((sum, s) => sum + parseFloat(s.style.height), 0);
    expect(height).toBeGreaterThan((1000 - drawn.length) * 300);
  });

  it('numbers the first cards of a burst among all of it while the rest are still joining', async () => {
    const approvals = new Approvals();
    app = mount(ApprovalsList, { target: main, props: { approvals, onnocard: () => {} } });
    for (let n = 1; n <= 64; n++) approvals.add(request(n));
    flushSync();
    // Only the first card is in the list yet; the other 63 join after it is painted.
    expect(approvals.cards.length).toBeLessThan(64);
    expect(main.querySelector('.count')?.textContent).toBe('64');
    expect(cardOf('a1').getAttribute('aria-posinset')).toBe('1');
    expect(cardOf('a1').getAttribute('aria-setsize')).toBe('64');
  });

  it('draws the cards further down when scrolled there, and card 900 can be approved', async () => {
    const approvals = await showCards(1000);
    await scrollTo(899 * 313);
    const drawn = drawnIds();
    expect(drawn).toContain('a900');
    expect(drawn).not.toContain('a1');
    expect(cardOf('a900').getAttribute('aria-posinset')).toBe('900');
    await approvals.decide('a900', { kind: 'approve' });
    flushSync();
    expect(approvals.cards.find((c) => c.request.approval_id === 'a900')?.phase).toBe('sending');
    approvals.resolved({
      approval_id: 'a900',
      run_id: 'run-1',
      tool_call_id: 'call_900',
      outcome: { kind: 'approved', scope: 'once', source: 'user' },
    });
    await frames(20);
    flushSync();
    expect(main.querySelector('.count')?.textContent).toBe('999');
    expect(drawnIds()).not.toContain('a900');
    expect(drawnIds()).toContain('a901');
  });

  it('draws and focuses a card that was not drawn when the tray or the link asks for it', async () => {
    await showCards(1000);
    expect(drawnIds()).not.toContain('a750');
    focusCard('a750');
    await frames(50);
    flushSync();
    expect(document.activeElement).toBe(cardOf('a750'));
    expect(scrollTop).toBeGreaterThan(700 * 300);
  });

  it('keeps the focused card and its neighbours drawn when they scroll away, so Tab goes on', async () => {
    await showCards(1000);
    const button = cardOf('a2').querySelector<HTMLButtonElement>('[data-testid="approve"]');
    button?.focus();
    flushSync();
    await scrollTo(500 * 313);
    const drawn = drawnIds();
    expect(drawn).toContain('a500');
    // Still in the page, in list order, so the focus stays and Tab reaches card 3.
    expect(drawn.slice(0, 3)).toEqual(['a1', 'a2', 'a3']);
    expect(document.activeElement).toBe(button);
    const order = [...main.querySelectorAll('[data-testid="approval-card"]')];
    expect(order.indexOf(cardOf('a3'))).toBe(order.indexOf(cardOf('a2')) + 1);
  });

  it('gives the focus to the next card when the focused one is answered far down the list', async () => {
    const approvals = await showCards(1000);
    focusCard('a600');
    await frames(50);
    flushSync();
    expect(document.activeElement).toBe(cardOf('a600'));
    cardOf('a600').querySelector<HTMLButtonElement>('[data-testid="deny"]')?.focus();
    // The person scrolls away; the card is answered (by the tray) and leaves.
    await scrollTo(100 * 313);
    approvals.resolved({
      approval_id: 'a600',
      run_id: 'run-1',
      tool_call_id: 'call_600',
      outcome: { kind: 'denied', source: 'user' },
    });
    await frames(20);
    flushSync();
    await tick();
    expect(document.activeElement).toBe(cardOf('a601'));
  });
});
