// What a run owns and must release on shutdown: services, children, timers — stopped in reverse order.

type Closer = () => Promise<void> | void;

/** Collects shutdown steps; `close()` runs each once, newest first, and never throws. */
export class Lifecycle {
  private readonly closers: { name: string; close: Closer }[] = [];
  private closing: Promise<void> | undefined;
  private readonly servingTasks: (() => void)[] = [];
  private isServing = false;

  /**
   * Runs `task` once the run serves (its ready line is out), never before: background work a
   * service starts for later (a probe that spawns processes) must not slow the start, nor run at
   * all for commands that only list the tools.
   */
  afterServing(task: () => void): void {
    if (this.isServing) this.startSoon(task);
    else this.servingTasks.push(task);
  }

  /** The run serves: the tasks kept by afterServing start, after the current turn (the ready line). */
  serving(): void {
    if (this.isServing) return;
    this.isServing = true;
    for (const task of this.servingTasks.splice(0)) this.startSoon(task);
  }

  /** After the current turn, unless the run began closing meanwhile (nothing is started into a shutdown). */
  private startSoon(task: () => void): void {
    setImmediate(() => this.closing === undefined && task());
  }

  add(name: string, close: Closer): void {
    this.closers.push({ name, close });
  }

  get isClosing(): boolean {
    return this.closing !== undefined;
  }

  close(log: (line: string) => void = () => {}): Promise<void> {
    this.closing ??= (async () => {
      for (const { name, close } of this.closers.reverse()) {
        try {
          await close();
        } catch (error) {
          log(`shutdown: ${name} failed to close: ${(error as Error).message}`);
        }
      }
    })();
    return this.closing;
  }
}
