// One clock for every countdown in the window: a single timer that ticks once a second while
// something shows a countdown. One timer per card made 1,000 waiting cards run 1,000 timers,
// each its own update, every second (BENCHMARKS.md, "1,000 approvals at once").

class Clock {
  /** Unix time in milliseconds, updated once a second while the clock is in use. */
  now = $state(Date.now());
  #users = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  /** Keeps the clock ticking until the returned function is called (use it in an $effect). */
  use(): () => void {
    if (this.#users++ === 0) {
      this.now = Date.now();
      this.#timer = setInterval(() => (this.now = Date.now()), 1000);
    }
    return () => {
      if (--this.#users === 0) {
        clearInterval(this.#timer);
        this.#timer = undefined;
      }
    };
  }
}

export const clock = new Clock();
