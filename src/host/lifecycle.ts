// What a run owns and must release on shutdown: services, children, timers — stopped in reverse order.

export type Closer = () => Promise<void> | void;

/** Collects shutdown steps; `close()` runs each once, newest first, and never throws. */
export class Lifecycle {
  private readonly closers: { name: string; close: Closer }[] = [];
  private closing: Promise<void> | undefined;

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
