// A language server's work-done progress as the client sees it: which tokens run (the server is
// busy, often indexing), and how many ever began, so a query can tell that work began and ended
// while it was in flight.

/**
 * A progress token the server created counts as running from that moment, so an answer that
 * overtakes the token's "begin" is not taken as final; past this without a "begin" it is dropped.
 */
export const CREATED_PROGRESS_GRACE_MS = 5_000;

/**
 * A token that has sent a "report" and then says nothing for this long no longer counts as
 * running: a server that reports its work's progress reports as the work advances. pyright, after
 * a file it had open was deleted, begins "2 files to analyze" and never ends it while it goes on
 * answering every request; every query waited out the indexing bound twice (about 120 s) behind
 * it. A token that never reported (gopls "Loading packages": begin, then end) still counts until
 * it ends, as a query cannot tell its silence from loading.
 */
export const SILENT_PROGRESS_MS = 10_000;

export class WorkProgress {
  /** Tokens created or begun, not ended, and not silent past SILENT_PROGRESS_MS after a report, with what they said. */
  readonly active = new Map<string | number, string>();
  /** Tokens that reported, then fell silent: not waited on, named where an answer may be affected. */
  readonly silent = new Map<string | number, string>();
  /** How many tokens began running, ever. */
  starts = 0;
  /** Timers per token: a created token's grace, or a reporting token's silence. */
  private readonly timers = new Map<string | number, ReturnType<typeof setTimeout>>();
  private readonly titles = new Map<string | number, string>();

  /** `changed` hears every change of the running set that happens later, on its own (a grace or a silence running out). */
  constructor(private readonly changed: () => void) {}

  began(token: string | number, title: string): void {
    if (!this.running(token)) this.starts += 1;
    this.titles.set(token, title);
    this.silent.delete(token);
    this.active.set(token, title || "working");
    this.forgetTimer(token);
  }

  /** A "report": the work goes on, and its silence is timed from now. */
  reported(token: string | number, message: string | undefined): void {
    if (!this.running(token)) return; // an ended or unknown token
    const title = this.titles.get(token) ?? "";
    const said = [title, message].filter(Boolean).join(": ") || "working";
    this.silent.delete(token);
    this.active.set(token, said);
    this.arm(token, SILENT_PROGRESS_MS, () => {
      this.active.delete(token);
      this.silent.set(token, said);
    });
  }

  /** What runs, and what fell silent (not waited on), in words; empty when nothing does. */
  words(): string {
    const quote = (said: Iterable<string>) => [...said].map((words) => `"${words}"`).join(", ");
    return [
      this.active.size ? `working: ${quote(this.active.values())}` : "",
      this.silent.size ? `reported ${quote(this.silent.values())}, never ended it and has said nothing of it for over ${SILENT_PROGRESS_MS / 1000} s; queries no longer wait for it` : "",
    ]
      .filter(Boolean)
      .join("; ");
  }

  ended(token: string | number): void {
    this.active.delete(token);
    this.silent.delete(token);
    this.titles.delete(token);
    this.forgetTimer(token);
  }

  /**
   * window/workDoneProgress/create: between it and the token's "begin" lies the reply's round trip,
   * and an answer to a query can arrive within it, so the creation is already the start.
   */
  created(token: string | number): void {
    this.began(token, "work announced");
    this.arm(token, CREATED_PROGRESS_GRACE_MS, () => this.ended(token));
  }

  /** Begun (or created) and not ended, whether it still reports or fell silent. */
  private running(token: string | number): boolean {
    return this.active.has(token) || this.silent.has(token);
  }

  /** `lapse` runs when the timer fires: a "begin", "report" or "end" in between clears it first. */
  private arm(token: string | number, ms: number, lapse: () => void): void {
    this.forgetTimer(token);
    const timer = setTimeout(() => {
      this.timers.delete(token);
      lapse();
      this.changed();
    }, ms);
    timer.unref?.();
    this.timers.set(token, timer);
  }

  private forgetTimer(token: string | number): void {
    clearTimeout(this.timers.get(token));
    this.timers.delete(token);
  }
}
