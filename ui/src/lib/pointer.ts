// Where the mouse pointer was last seen in the window, from one listener shared by every card.
// A card that appears or moves under a pointer that has not moved since waits longer before
// its buttons work: the second click of a slow double click (up to a second for some people)
// lands there without the pointer moving.

export interface Point {
  x: number;
  y: number;
}

let last: Point | null = null;
let listening = false;

function seen(event: PointerEvent): void {
  last = { x: event.clientX, y: event.clientY };
}

/** The pointer's last position in the viewport (CSS pixels), or null before it was seen. */
export function pointerPosition(): Point | null {
  if (!listening && typeof window !== 'undefined') {
    listening = true;
    const options = { capture: true, passive: true };
    window.addEventListener('pointermove', seen, options);
    window.addEventListener('pointerdown', seen, options);
  }
  return last;
}

/**
 * Whether the pointer is still within `tolerance` pixels of `from`, over `element`: over what
 * the window shows of it there, not only within its box (a card cut off at the bottom of the
 * scrolled list has a box that reaches over the task box below, where the pointer rests after
 * clicking Start; that card is not under the pointer).
 */
export function stillOver(element: Element, from: Point | null, tolerance = 4): boolean {
  const now = pointerPosition();
  if (!now || !from || Math.hypot(now.x - from.x, now.y - from.y) > tolerance) return false;
  if (typeof document.elementFromPoint === 'function') {
    const under = document.elementFromPoint(now.x, now.y);
    return under !== null && element.contains(under);
  }
  const box = element.getBoundingClientRect();
  return now.x >= box.left && now.x <= box.right && now.y >= box.top && now.y <= box.bottom;
}
