// When a card's buttons may answer it: a short arming delay after the card appears, so that a
// click or keystroke meant for something else (typing, a double click) cannot answer it.
//
// It starts again whenever the card moves in the list (a card above it was answered or ended)
// while it is on screen, or comes onto the screen soon after moving: the second click of a
// double click on the card above must not land on this one's button as it slides up. Cards off
// screen are left alone, so that answering the top one of 1,000 does not re-arm the 999 below
// it. When the pointer rests on the card and has not moved since, the buttons wait longer (a
// slow double click; the tested gap reaches 900 ms).
//
// While the card arms, ApprovalCard marks its buttons aria-disabled (they ignore clicks and
// keys but stay in the Tab order); `armed` is what it reads.

import { watchOnScreen } from '../onscreen';
import { pointerPosition, stillOver, type Point } from '../pointer';

/** How long a card waits before its buttons work, in milliseconds. */
export const ARM_MS = 600;
/** How long at most while the pointer rests, unmoved, on the card, in milliseconds. */
export const STILL_POINTER_ARM_MS = 1200;
/** How often a card under a resting pointer looks again, in milliseconds. */
const RECHECK_MS = 100;

/**
 * How many times the window scrolled the cards by itself (to bring a new card into view, see
 * focus.ts `revealNewCard`). Every card re-arms when it changes: the scroll moved the cards on
 * screen without moving them in the list, and a click already on its way must not land on
 * whichever button slid under the pointer.
 */
export const windowScrolls = $state({ count: 0 });

/** What arming reads from the page; tests give their own. */
export interface ArmingPage {
  /** A monotonic clock in milliseconds. */
  now: () => number;
  /** The pointer's last position (see pointer.ts). */
  pointer: () => Point | null;
  /** Whether the pointer is still where it was, over the element (see pointer.ts). */
  stillOver: (element: Element, from: Point | null) => boolean;
  /** Calls back when the element comes onto or leaves the screen (see onscreen.ts). */
  watchOnScreen: (element: Element, watch: (onScreen: boolean) => void) => () => void;
}

const page: ArmingPage = {
  now: () => performance.now(),
  pointer: pointerPosition,
  stillOver,
  watchOnScreen,
};

/** The arming state of one card. */
export class Arming {
  /** Whether the card's buttons may answer it now. */
  armed = $state(false);
  #page: ArmingPage;
  #element: Element | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #onScreen = true;
  #movedAt = -Infinity;
  #position: number | undefined;

  constructor(page_: ArmingPage = page) {
    this.#page = page_;
  }

  /**
   * Watches `element` (the card) coming onto and leaving the screen; returns the function that
   * stops watching and any pending timer (use it as an `$effect`'s cleanup).
   */
  attach(element: Element): () => void {
    this.#element = element;
    const stop = this.#page.watchOnScreen(element, (visible) => {
      const entered = visible && !this.#onScreen;
      this.#onScreen = visible;
      if (entered && this.#page.now() - this.#movedAt < ARM_MS) this.rearm();
    });
    return () => {
      stop();
      clearTimeout(this.#timer);
      this.#element = null;
    };
  }

  /** The card is at `position` in the list: arms it the first time, re-arms it on a move. */
  at(position: number): void {
    if (this.#position === undefined) {
      this.rearm();
    } else if (position !== this.#position) {
      this.#movedAt = this.#page.now();
      if (this.#onScreen) this.rearm();
    }
    this.#position = position;
  }

  /**
   * The card moved on screen but not in the list (the window scrolled): re-arms it when it is
   * on screen, and when it comes onto the screen within the delay.
   */
  moved(): void {
    this.#movedAt = this.#page.now();
    if (this.#onScreen) this.rearm();
  }

  /** Disarms the buttons and arms them again after the delay. */
  rearm(): void {
    this.armed = false;
    clearTimeout(this.#timer);
    const since = this.#page.now();
    const pointer = this.#page.pointer();
    const check = () => {
      const waited = this.#page.now() - since;
      const element = this.#element;
      if (waited >= STILL_POINTER_ARM_MS || !element || !this.#page.stillOver(element, pointer)) {
        this.armed = true;
      } else {
        this.#timer = setTimeout(check, RECHECK_MS);
      }
    };
    this.#timer = setTimeout(check, ARM_MS);
  }
}
