// The cell's inactivity budget: output resets it, pending bridged tool calls suspend it.

export class InactivityBudget {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private suspended = 0;
  private stopped = false;

  constructor(
    private readonly budgetMs: number,
    private readonly onExpired: () => void,
  ) {
    this.arm();
  }

  /** Something happened (output, a tool answer): the full budget starts again. */
  touch(): void {
    if (this.suspended === 0) this.arm();
  }

  /** A bridged call is pending: the cell is waiting on the harness, not idle. */
  suspend(): void {
    this.suspended++;
    this.clear();
  }

  resume(): void {
    this.suspended = Math.max(0, this.suspended - 1);
    if (this.suspended === 0) this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private arm(): void {
    this.clear();
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped && this.suspended === 0) this.onExpired();
    }, this.budgetMs);
  }

  private clear(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
