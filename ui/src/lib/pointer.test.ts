import { afterEach, describe, expect, it, vi } from 'vitest';
import { pointerPosition, stillOver } from './pointer';

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

function moveTo(x: number, y: number): void {
  window.dispatchEvent(Object.assign(new Event('pointermove'), { clientX: x, clientY: y }));
}

describe('stillOver', () => {
  it('is true only while what the window shows under the pointer is in the element', () => {
    const card = document.createElement('article');
    const button = document.createElement('button');
    card.append(button);
    const taskBox = document.createElement('textarea');
    document.body.append(card, taskBox);
    // The card's box reaches down over the task box (cut off at the bottom of a scrolled list).
    vi.spyOn(card, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 500, 800, 400));
    pointerPosition();
    moveTo(100, 700);
    const from = pointerPosition();
    const under = vi.fn<(x: number, y: number) => Element | null>(() => taskBox);
    document.elementFromPoint = under;
    // Over the task box, inside the card's box: not over the card.
    expect(stillOver(card, from)).toBe(false);
    // Over the card's button.
    under.mockReturnValue(button);
    expect(stillOver(card, from)).toBe(true);
    // The pointer moved away since: no longer still.
    moveTo(140, 700);
    expect(stillOver(card, from)).toBe(false);
  });
});
