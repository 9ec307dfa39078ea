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
  /** Payload: the ApprovalId the person picked in the tray or a notification. */
  focusApproval: 'focus-approval',
  /** No payload: closing the window only minimised it (no tray on this desktop). */
  closeKept: 'close-kept',
} as const;

/** One of the backend's event names. */
export type EventName = (typeof EVENT_NAMES)[keyof typeof EVENT_NAMES];

/** Deliveries waiting for the next frame, in the order the events arrived (all kinds together). */
const queued: (() => void)[] = [];
let flushDue = false;

function flush(): void {
  flushDue = false;
  // What a handler queues while this runs (none should) waits for the next frame.
  const now = queued.splice(0);
  for (const deliver of now) {
    try {
      deliver();
    } catch (error) {
      console.error('an event handler failed', error);
    }
  }
}

/**
 * Wraps an event handler so that events arriving in a burst are handled together, once per
 * frame, in the order they arrived across every wrapped kind: each backend event is its own
 * task in the page, and handled one by one, 3,000 events (1,000 cards at once) made the window
 * update 3,000 times (BENCHMARKS.md, "1,000 approvals at once"); together they make one update
 * per frame. A window that draws no frames (hidden in the tray) is served within `fallbackMs`.
 */
export function inFrames<A>(handler: (arg: A) => void, fallbackMs = 32): (arg: A) => void {
  return (arg: A) => {
    queued.push(() => handler(arg));
    if (flushDue) return;
    flushDue = true;
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      flush();
    };
    const timer = setTimeout(once, fallbackMs);
    globalThis.requestAnimationFrame?.(once);
  };
}
