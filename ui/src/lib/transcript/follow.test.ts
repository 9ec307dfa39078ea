// The view follows the newest entry until the person scrolls up themselves; then it stays and
// counts what is new below; a waiting card is never scrolled away from.
import { describe, expect, it } from 'vitest';
import { Follow, USER_SCROLL_MS } from './follow.svelte';

/** A scroll area 400 px high over `height` px of content, scrolled to `top`. */
function area(height: number) {
  const el = document.createElement('main');
  let top = 0;
  Object.defineProperty(el, 'clientHeight', { get: () => 400 });
  Object.defineProperty(el, 'scrollHeight', { get: () => height });
  Object.defineProperty(el, 'scrollTop', {
    get: () => top,
    set: (v: number) => (top = Math.max(0, Math.min(v, height - 400))),
  });
  return {
    el,
    grow: (by: number) => (height += by),
    scroll(to: number) {
      el.scrollTop = to;
      el.dispatchEvent(new Event('scroll'));
    },
  };
}

describe('the view follows the conversation', () => {
  it('keeps the newest entry in view until the person scrolls up, then counts what is new', () => {
    let now = 0;
    const follow = new Follow(() => now);
    const a = area(2000);
    follow.attach(a.el);
    follow.changed(1, false);
    expect(a.el.scrollTop).toBe(1600);
    // The window scrolls itself (a card brought into view): still following.
    a.scroll(0);
    expect(follow.following).toBe(true);
    follow.changed(1, false);
    expect(a.el.scrollTop).toBe(1600);
    // The person turns the wheel up.
    a.el.dispatchEvent(new Event('wheel'));
    a.scroll(800);
    expect(follow.following).toBe(false);
    a.grow(300);
    follow.changed(2, false);
    expect(a.el.scrollTop).toBe(800);
    expect(follow.unseen).toBe(2);
    // "New: 2 messages" brings the newest back and follows again.
    follow.jump();
    expect(a.el.scrollTop).toBe(1900);
    expect([follow.following, follow.unseen]).toEqual([true, 0]);
    // Scrolling back down by hand follows again too.
    now += USER_SCROLL_MS + 1;
    a.el.dispatchEvent(new Event('keydown'));
    a.scroll(100);
    expect(follow.following).toBe(false);
    a.el.dispatchEvent(new Event('wheel'));
    a.scroll(1900);
    expect(follow.following).toBe(true);
  });

  it('does not scroll away from a card waiting for an answer, and goes down once it is answered', () => {
    const follow = new Follow(() => 0);
    const a = area(2000);
    follow.attach(a.el);
    follow.changed(1, true);
    expect(a.el.scrollTop).toBe(0);
    follow.changed(0, false);
    expect(a.el.scrollTop).toBe(1600);
  });

  it('does not scroll a card that arrived meanwhile away with a scroll already on its way', async () => {
    const follow = new Follow(() => 0);
    const a = area(2000);
    follow.attach(a.el);
    // Text arrives: the view goes down now and again after the next frames…
    follow.changed(1, false);
    expect(a.el.scrollTop).toBe(1600);
    // …but a card comes first, and the window brings it into view at the top.
    a.el.scrollTop = 0;
    follow.changed(0, true);
    await new Promise((done) => setTimeout(done, 100));
    expect(a.el.scrollTop).toBe(0);
  });
});
