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
