// Timestamps for the app benchmark (tests/bench/app_bench.py), recorded only while a benchmark
// has put a log object on `window.__askfirstBench` over WebDriver. Without it every function
// here returns at its first line, so the normal path pays one property read per card.
//
// Times are `Date.now()` (Unix milliseconds, the clock the backend stamps its audit log with),
// so the benchmark can subtract the core's `approval_asked.at` from them.

/** What one card went through, each a Unix time in milliseconds. */
export interface BenchCard {
  /** The `approval-required` event reached the page (its listener ran), before any frame. */
  arrived?: number;
  /** The `approval-required` event reached the card list. */
  received?: number;
  /** The card was in the DOM and a frame with it had been painted. */
  painted?: number;
  /** Its buttons were enabled (armed) and painted. */
  armed?: number;
  /** The person clicked one of its answers. */
  clicked?: number;
}

/** The object a benchmark installs: `window.__askfirstBench = { cards: {} }`. */
export interface BenchLog {
  cards: Record<string, BenchCard>;
}

function benchLog(): BenchLog | undefined {
  return (globalThis as { __askfirstBench?: BenchLog }).__askfirstBench;
}

/** Records `what` happened to approval `id` now. */
export function benchMark(id: string, what: keyof BenchCard): void {
  const log = benchLog();
  if (!log) return;
  const card = (log.cards[id] ??= {});
  card[what] ??= Date.now();
}

/**
 * Records `what` once the frame that shows the current DOM has been painted: a
 * requestAnimationFrame callback runs just before the paint, and a task queued from it runs
 * after that paint.
 */
export function benchMarkAfterPaint(id: string, what: keyof BenchCard): void {
  if (!benchLog()) return;
  requestAnimationFrame(() => setTimeout(() => benchMark(id, what), 0));
}
