// The calls still working, so that a run shutting down lets each send its answer (`cancelled`)
// before the listener closes: cut off, a client saw a dropped connection instead of a code.
import type { CallActivity } from "../http/tool-call.ts";

/** How long a shutdown waits for aborted calls to answer; a call that ignores its signal is not waited out. */
const SHUTDOWN_ANSWER_MS = 2_000;
/** After the last call ended: the answer is handed to the transport a few turns of the loop later. */
const ANSWER_FLUSH_MS = 50;

export class CallsInFlight implements CallActivity {
  private running = 0;
  private readonly idle = new Set<() => void>();
  /** When the last call ended (performance.now()). */
  private lastEnded = 0;

  callStarted(): void {
    this.running += 1;
  }

  callEnded(): void {
    this.running -= 1;
    if (this.running > 0) return;
    this.lastEnded = performance.now();
    for (const wake of [...this.idle]) wake();
  }

  /**
   * Calls `start` once no call has been working for `quietMs`, counted from now or from the last
   * call's end, whichever is later. For background work nobody waits on: a call that comes meanwhile
   * (an agent's first comes a few ms after the ready line) has the CPU to itself.
   */
  whenQuiet(quietMs: number, start: () => void): void {
    const from = performance.now();
    const check = () => {
      const quietFor = this.running > 0 ? 0 : performance.now() - Math.max(from, this.lastEnded);
      if (quietFor >= quietMs) start();
      else setTimeout(check, quietMs - quietFor).unref?.();
    };
    setTimeout(check, quietMs).unref?.();
  }

  /** Resolves once no call is working (and its answer had time to leave), or after `boundMs`. */
  async answered(boundMs = SHUTDOWN_ANSWER_MS): Promise<void> {
    if (this.running === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let wake = () => {};
    await new Promise<void>((resolve) => {
      wake = resolve;
      this.idle.add(wake);
      timer = setTimeout(resolve, boundMs);
    });
    this.idle.delete(wake);
    clearTimeout(timer);
    await new Promise((resolve) => setTimeout(resolve, ANSWER_FLUSH_MS));
  }
}
