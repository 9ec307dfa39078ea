import { afterEach, describe, expect, it, vi } from 'vitest';
import { rehearse } from './rehearsal';

afterEach(() => {
  document.body.replaceChildren();
  vi.useRealTimers();
});

describe('the card rehearsed at start', () => {
  it('leaves nothing behind: no card, no host, no timer ticking', () => {
    vi.useFakeTimers();
    const observer = new MutationObserver(() => {});
    observer.observe(document.body, { childList: true, subtree: true });
    rehearse();
    // It was drawn (a card with its buttons, hidden from screen readers and the keyboard) …
    const added = observer
      .takeRecords()
      .flatMap((r) => [...r.addedNodes])
      .filter((n): n is HTMLElement => n instanceof HTMLElement);
    const host = added[0];
    const card = added.find((n) => n.matches('[data-testid="approval-card"]'));
    expect(card?.querySelector('[data-testid="approve"]')).not.toBeNull();
    expect(host?.getAttribute('aria-hidden')).toBe('true');
    expect(host?.inert).toBe(true);
    // … and is gone, within the same task.
    expect(document.body.children.length).toBe(0);
    expect(document.querySelector('[data-testid="approval-card"]')).toBeNull();
    // The countdown's shared clock and the arming timer were stopped with it (what is left is
    // the sample list's wait for a frame, which then finds nothing to do).
    vi.advanceTimersByTime(2_000);
    expect(vi.getTimerCount()).toBe(0);
    observer.disconnect();
  });

  it('does nothing once a real card is drawn', () => {
    const card = document.createElement('article');
    card.setAttribute('data-testid', 'approval-card');
    document.body.append(card);
    const added = vi.spyOn(document.body, 'append');
    rehearse();
    expect(added).not.toHaveBeenCalled();
    expect(document.body.children.length).toBe(1);
  });
});
