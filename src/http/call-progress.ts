// A call's progress notifications: the tool's own, and a heartbeat whenever the call goes quiet.
// MCP clients cancel a call after 60 s without progress by default, and a language server loading
// its project or a long cell can be silent for longer than that.

/** How long a call may go without a progress notification before a heartbeat is sent, unless its tool says otherwise. */
const HEARTBEAT_MS = 10_000;

interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export class CallProgress {
  private readonly started = Date.now();
  private last = { at: this.started, value: 0 };
  private describe: (() => string) | undefined;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly toolName: string,
    /** Sends one notification; undefined when the client asked for none. */
    private readonly notify: ((update: ProgressUpdate) => void) | undefined,
    private readonly signal: AbortSignal,
    private readonly heartbeatMs = HEARTBEAT_MS,
  ) {
    this.timer = setInterval(() => this.beatIfQuiet(), heartbeatMs / 2);
  }

  /** The tool's own progress. */
  send(update: ProgressUpdate): void {
    if (!this.notify || this.signal.aborted) return;
    this.last = { at: Date.now(), value: update.progress };
    this.notify(update);
  }

  /** What the heartbeat says from now on ("the python cell has run for 12 s"). */
  describeWork(describe: () => string): void {
    this.describe = describe;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * The value creeps up by a thousandth, so it always increases and stays below the tool's own
   * next whole step.
   */
  private beatIfQuiet(): void {
    if (Date.now() - this.last.at < this.heartbeatMs) return;
    const seconds = Math.round((Date.now() - this.started) / 1000);
    this.send({ progress: this.last.value + 0.001, message: this.describe?.() ?? `${this.toolName} is still working (${seconds} s)` });
  }
}
