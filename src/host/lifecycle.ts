// What a run owns and must release on shutdown: services, children, timers — stopped in reverse order.

type Closer = () => Promise<void> | void;

/** Collects shutdown steps; `close()` runs each once, newest first, and never throws. */
export class Lifecycle {
  private readonly closers: { name: string; close: Closer }[] = [];
  private closing: Promise<void> | undefined;
  private readonly servingTasks: (() => void)[] = [];
  private isServing = false;
  /** How a kept task is started once the run serves: after the current turn, unless serving() was given a gate. */
  private startWhen: (start: () => void) => void = (start) => setImmediate(start);

  /**
   * Runs `task` once the run serves (its ready line is out), never before: background work a
   * service starts for later (a probe that spawns processes) must not slow the start, nor run at
   * all for commands that only list the tools. With the gate serving() was given, it also waits for
   * the run to be quiet: such work must not take the CPU from a call the agent is waiting for.
   */
  afterServing(task: () => void): void {
    if (this.isServing) this.startSoon(task);
    else this.servingTasks.push(task);
  }

  /**
   * The run serves: the tasks kept by afterServing start, after the current turn (the ready line),
   * or when `whenQuiet` starts them (the run's: once no call has been working for a moment).
   */
  serving(whenQuiet?: (start: () => void) => void): void {
    if (this.isServing) return;
    this.isServing = true;
    if (whenQuiet) this.startWhen = whenQuiet;
    for (const task of this.servingTasks.splice(0)) this.startSoon(task);
  }

  /** When the gate opens (by default after the current turn), unless the run began closing meanwhile (nothing is started into a shutdown). */
  private startSoon(task: () => void): void {
    this.startWhen(() => this.closing === undefined && task());
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
