// A language server's work-done progress as the client sees it: which tokens run (the server is
// busy, often indexing), and how many ever began, so a query can tell that work began and ended
// while it was in flight.

/**
 * A progress token the server created counts as running from that moment, so an answer that
 * overtakes the token's "begin" is not taken as final; past this without a "begin" it is dropped.
 */
export const CREATED_PROGRESS_GRACE_MS = 5_000;

export class WorkProgress {
  /** Tokens created or begun and not yet ended, with their titles. */
  readonly active = new Map<string | number, string>();
  /** How many tokens began running, ever. */
  starts = 0;
  /** Tokens created with no "begin" yet: each is dropped after CREATED_PROGRESS_GRACE_MS. */
  private readonly unbegun = new Map<string | number, ReturnType<typeof setTimeout>>();

  /** `changed` hears every change of the running set that happens later, on its own (a grace running out). */
  constructor(private readonly changed: () => void) {}

  began(token: string | number, title: string): void {
    if (!this.active.has(token)) this.starts += 1;
    this.active.set(token, title);
    this.forgetUnbegun(token);
  }

  ended(token: string | number): void {
    this.active.delete(token);
    this.forgetUnbegun(token);
  }

  /**
   * window/workDoneProgress/create: between it and the token's "begin" lies the reply's round trip,
   * and an answer to a query can arrive within it, so the creation is already the start.
   */
  created(token: string | number): void {
    this.began(token, "work announced");
    // A "begin" or "end" clears this timer, so when it fires the token is still unbegun.
    const timer = setTimeout(() => {
      this.ended(token);
      this.changed();
    }, CREATED_PROGRESS_GRACE_MS);
    timer.unref?.();
    this.unbegun.set(token, timer);
  }

  private forgetUnbegun(token: string | number): void {
    clearTimeout(this.unbegun.get(token));
    this.unbegun.delete(token);
  }
}
