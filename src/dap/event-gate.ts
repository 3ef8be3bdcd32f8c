// A one-time event to wait for (the adapter's `initialized`), bounded when a bound is given.

export class EventGate {
  private opened = false;
  private waiters: (() => void)[] = [];

  constructor(private readonly name: string) {}

  open(): void {
    this.opened = true;
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Resolves once the event came; with `timeoutMs`, rejects saying the adapter never sent it. */
  wait(timeoutMs?: number): Promise<void> {
    if (this.opened) return Promise.resolve();
    const came = new Promise<void>((resolve) => this.waiters.push(resolve));
    if (timeoutMs === undefined) return came;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stuck = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the adapter accepted the request but sent no ${this.name} event within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([came, stuck]).finally(() => clearTimeout(timer));
  }
}
