// One kernel runs one cell at a time; later cells wait their turn in arrival order, as a Jupyter
// kernel queues execute requests, instead of bouncing back a "busy" answer the model must retry.
import { ToolFailure } from "../answer/failure.ts";

/** Cells waiting behind a running one; past this the call is refused rather than held. */
export const MAX_WAITING_CELLS = 100;

/** Why a cell did not get its turn: the queue is full, or the call was cancelled while waiting. */
export class CellQueueRefusal extends ToolFailure {}

interface Waiter {
  admit(): void;
  signal: AbortSignal;
}

export class CellQueue {
  private running = false;
  private readonly waiters: Waiter[] = [];
  /** When the running cell started (ms since epoch); undefined while idle. */
  runningSince?: number;

  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Resolves when it is this cell's turn; call the returned release when the cell is done.
   * `onWait` is told once if the cell has to wait, so the caller can say so.
   */
  async turn(signal: AbortSignal, onWait: (ahead: number) => void = () => {}): Promise<() => void> {
    if (signal.aborted) throw new CellQueueRefusal("The call was cancelled before its cell started.", { code: "cancelled" });
    if (this.running) {
      if (this.waiters.length >= MAX_WAITING_CELLS) {
        throw new CellQueueRefusal(
          `${MAX_WAITING_CELLS} cells are already waiting for this kernel; it runs one cell at a time. Wait for earlier calls to return, then call eval again.`,
          { code: "busy" },
        );
      }
      onWait(this.waiters.length + 1);
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          signal,
          admit: () => {
            signal.removeEventListener("abort", onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          reject(new CellQueueRefusal("The call was cancelled while its cell waited for the previous one; it never ran.", { code: "cancelled" }));
        };
        signal.addEventListener("abort", onAbort, { once: true });
        this.waiters.push(waiter);
      });
    }
    this.running = true;
    this.runningSince = Date.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) {
        this.runningSince = Date.now();
        next.admit(); // the turn passes straight on, so no newcomer can slip in between
      } else {
        this.running = false;
        this.runningSince = undefined;
      }
    };
  }
}
