// The names of the events the backend emits to the window, in one place (ipc.ts listens to
// them). They are those of askfirst-protocol's `event_names` and of the shell's tray and
// notifications (`focus-approval`); events.test.ts fails when the two sides drift apart.

/** The backend's event names, by what each carries. */
export const EVENT_NAMES = {
  /** Payload: an ApprovalRequest. */
  approvalRequired: 'approval-required',
  /** Payload: an ApprovalResolvedEvent. */
  approvalResolved: 'approval-resolved',
  /** Payload: a SequencedEvent (the transcript's numbered stream). */
  runEvent: 'run-event',
  /**
   * Payload: SequencedEvent[], in order (the approval events inside are what
   * approval-required and approval-resolved carry). The backend no longer emits these four: the
   * window takes its events with the `wait_run_events` long poll (ipc.ts); they are still
   * taken from whatever emits them (the benchmark's fed events).
   */
  runEvents: 'run-events',
  /** Payload: the ApprovalId the person picked in the tray or a notification. */
  focusApproval: 'focus-approval',
  /** No payload: closing the window only minimised it (no tray on this desktop). */
  closeKept: 'close-kept',
} as const;

/** One of the backend's event names. */
export type EventName = (typeof EVENT_NAMES)[keyof typeof EVENT_NAMES];

/** Deliveries waiting for the next frame, in the order the events arrived (all kinds together). */
const queued: (() => void)[] = [];
/** Deliveries of the kinds that come first ([`inFramesFirst`]: new cards), in arrival order. */
const first: (() => void)[] = [];
/** Whether the last frame left `queued` alone because it showed something of `first`. */
let deferred = false;
let flushDue = false;
/**
 * Whether a card was handled at once, outside a frame, and the frame that paints it has not
 * been painted yet: until then nothing else is handled (see [`inFramesFirst`]).
 */
let holding = false;

/**
 * The most time one frame spends handling queued events, in milliseconds; what is left waits
 * for the next frame. A reopened conversation of 10,000 entries arrives as ~20,000 events in
 * one burst: handled in one go they kept the page from painting for 5 s on the benchmark
 * machine (BENCHMARKS.md, "A 10,000-entry conversation"); in slices the window keeps painting
 * and answering while they are applied, in the same order.
 */
export const FRAME_BUDGET_MS = 12;

/**
 * How long what waits for a card's frame to be painted waits at most when no frame comes (a
 * window hidden in the tray draws none), in milliseconds. Not shorter: on the benchmark machine
 * the frame that painted the first card of a burst came up to ~170 ms after the card was drawn
 * (the page first ran the backend's events that had queued up meanwhile), and what a shorter
 * wait let in made that frame longer (BENCHMARKS.md, "The first card of a burst").
 */
export const NO_FRAME_MS = 250;

/** Runs the deliveries of `list` from its start for at most the rest of the budget; removes them. */
function drain(list: (() => void)[], start: number): void {
  let handled = 0;
  // What a handler queues while this runs (none should) comes after what was queued before.
  while (handled < list.length) {
    const deliver = list[handled++];
    try {
      deliver?.();
    } catch (error) {
      console.error('an event handler failed', error);
    }
    if (performance.now() - start >= FRAME_BUDGET_MS) break;
  }
  list.splice(0, handled);
}

function flush(fallbackMs: number): void {
  flushDue = false;
  // The frame that paints a card handled at once has nothing else to do; after its paint,
  // the release flushes.
  if (holding) return;
  const start = performance.now();
  const urgent = first.length > 0;
  drain(first, start);
  // A frame that shows new cards shows only them (the first card of a burst is painted before
  // the transcript's lines for the whole burst are laid out: BENCHMARKS.md, "The burst: where
  // the events wait"); the rest waits until that frame has been painted, one frame at most.
  if (urgent && !deferred && queued.length > 0) {
    deferred = true;
  } else {
    deferred = false;
    if (performance.now() - start < FRAME_BUDGET_MS) drain(queued, start);
  }
  if (queued.length > 0 || first.length > 0) schedule(fallbackMs, deferred);
}

/**
 * Calls `fn` once, in a task after the next frame has been painted (a task queued from a
 * frame's callback runs after that frame's paint), or after `fallbackMs` milliseconds if no
 * frame comes first (a window hidden in the tray draws no frames).
 */
export function afterNextPaint(fn: () => void, fallbackMs: number): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    fn();
  };
  const timer = setTimeout(once, fallbackMs);
  globalThis.requestAnimationFrame?.(() => setTimeout(once, 0));
}

/**
 * Flushes at the next frame, or after `fallbackMs` when the window draws no frames. With
 * `afterPaint`, in a task after the next frame has been painted instead: the next frame is the
 * one that paints the cards this flush showed, and the events left for later must not be
 * handled in it. While a card handled at once waits for its paint, the release flushes.
 */
function schedule(fallbackMs: number, afterPaint = false): void {
  if (flushDue || holding) return;
  flushDue = true;
  if (afterPaint) {
    afterNextPaint(() => flush(fallbackMs), fallbackMs);
    return;
  }
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    flush(fallbackMs);
  };
  const timer = setTimeout(once, fallbackMs);
  globalThis.requestAnimationFrame?.(once);
}

/**
 * Wraps an event handler so that events arriving in a burst are handled together, once per
 * frame, in the order they arrived across every wrapped kind: each backend event is its own
 * task in the page, and handled one by one, 3,000 events (1,000 cards at once) made the window
 * update 3,000 times (BENCHMARKS.md, "1,000 approvals at once"); together they make one update
 * per frame. A frame handles events for at most [`FRAME_BUDGET_MS`]; the rest wait for the
 * next. A window that draws no frames (hidden in the tray) is served within `fallbackMs`.
 */
export function inFrames<A>(handler: (arg: A) => void, fallbackMs = 32): (arg: A) => void {
  return (arg: A) => {
    queued.push(() => handler(arg));
    schedule(fallbackMs);
  };
}

/**
 * [`inFrames`] for the events a person waits for (a new card). The first of a burst (one that
 * comes while no other card waits to be handled or painted) is handled at once, in the task it
 * arrived in, and everything else (the rest of the burst, the other
 * kinds, even those that arrived before it) waits until the frame that paints it has been
 * painted: that frame has only the card to draw. On the benchmark machine a burst's first
 * frame otherwise also drew the cards and transcript lines that came with it, and the first
 * card was painted hundreds of milliseconds after its event arrived (BENCHMARKS.md, "The first
 * card of a burst"). The ones after it are handled before the others at the next flush, in
 * their own arrival order, and a frame that handles some leaves the others for after its paint
 * (one frame at most).
 */
export function inFramesFirst<A>(handler: (arg: A) => void, fallbackMs = 32): (arg: A) => void {
  return (arg: A) => {
    if (holding || deferred || first.length > 0) {
      first.push(() => handler(arg));
      schedule(fallbackMs);
      return;
    }
    try {
      handler(arg);
    } catch (error) {
      console.error('an event handler failed', error);
    }
    holding = true;
    afterNextPaint(() => {
      holding = false;
      // What came meanwhile: more cards first, the rest after their paint (see `flush`).
      if (first.length > 0 || queued.length > 0) flush(fallbackMs);
    }, NO_FRAME_MS);
  };
}
