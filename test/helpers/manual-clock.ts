// Timers that fire only when the test advances the clock: time-based behaviour without the scheduler.

export class ManualClock {
  private now = 0;
  private nextHandle = 1;
  private readonly pending = new Map<number, { at: number; run: () => void }>();

  setTimeout = (run: () => void, ms: number): unknown => {
    const handle = this.nextHandle++;
    this.pending.set(handle, { at: this.now + ms, run });
    return handle;
  };

  clearTimeout = (handle: unknown): void => {
    this.pending.delete(handle as number);
  };

  /** Moves time forward by `ms`, running every timer that falls due, in order of its time. */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.pending].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.now = due[1].at;
      due[1].run();
    }
    this.now = until;
  }
}
