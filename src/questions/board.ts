// The operator page's side of the question port: pending cards, their history, and who is attached.
import { readAnswer, withdrawReason, type PortOutcome, type QuestionCard, type QuestionPort } from "./card.ts";

/** After the last page disconnects, how long pending cards wait for a page to come back (a reload). */
export const PAGE_DETACH_GRACE_MS = 10_000;
/** Settled cards kept for the history list. */
const HISTORY_LIMIT = 50;

type HistoryOutcome = "answered" | "skipped" | "timeout" | "cancelled" | "no_human";

interface HistoryEntry {
  card: QuestionCard;
  outcome: HistoryOutcome;
  selected: string[];
  text: string | null;
  at: string;
}

export interface BoardSnapshot {
  pending: QuestionCard[];
  history: HistoryEntry[];
  /** Settled cards in all, of which `history` holds the newest HISTORY_LIMIT. */
  settledCount: number;
  attached: number;
}

interface PendingCard {
  card: QuestionCard;
  resolve(outcome: PortOutcome): void;
}

export class OperatorBoard implements QuestionPort {
  readonly name = "the operator page";
  readonly via = "page";
  private readonly pending = new Map<string, PendingCard>();
  private readonly history: HistoryEntry[] = [];
  private settledCount = 0;
  private pages = 0;
  private closed = false;
  private detachTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<() => void>();

  /** A page opened its live event stream: a human is attached. Returns the detach function. */
  attach(): () => void {
    this.pages++;
    clearTimeout(this.detachTimer);
    this.detachTimer = undefined;
    this.changed();
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      this.pages--;
      if (this.pages === 0 && this.pending.size > 0) this.detachTimer = setTimeout(() => this.abandon(), PAGE_DETACH_GRACE_MS);
      this.changed();
    };
  }

  get attached(): number {
    return this.pages;
  }

  ask(card: QuestionCard, signal: AbortSignal): Promise<PortOutcome> {
    if (this.pages === 0) {
      this.record(card, "no_human", [], null);
      return Promise.resolve({ outcome: "no_human", reason: "no operator page is open, so nobody can answer" });
    }
    return new Promise((resolve) => {
      const withdraw = () => {
        if (!this.pending.delete(card.id)) return;
        this.record(card, withdrawReason(signal), [], null);
        resolve({ outcome: "withdrawn" });
      };
      this.pending.set(card.id, {
        card,
        resolve: (outcome) => {
          signal.removeEventListener("abort", withdraw);
          resolve(outcome);
        },
      });
      signal.addEventListener("abort", withdraw, { once: true });
      this.changed();
      if (signal.aborted) withdraw();
    });
  }

  /** The operator answered a card; returns a sentence when the answer does not fit the card. */
  answer(id: string, optionIds: readonly string[], text: string | null): { status: 200 | 400 | 404; problem?: string } {
    const entry = this.pending.get(id);
    if (!entry) return { status: 404, problem: "This card is no longer pending: it was answered, withdrawn or timed out." };
    const answer = readAnswer(entry.card, optionIds, text);
    if ("problem" in answer) return { status: 400, problem: `The answer does not fit the card: ${answer.problem}.` };
    this.settle(entry, { outcome: "answered", option_ids: [...optionIds], text: answer.text }, "answered", answer.labels, answer.text);
    return { status: 200 };
  }

  skip(id: string): { status: 200 | 400 | 404; problem?: string } {
    const entry = this.pending.get(id);
    if (!entry) return { status: 404, problem: "This card is no longer pending: it was answered, withdrawn or timed out." };
    // A permission is allowed or denied; the harness has no outcome for a skipped one.
    if (entry.card.kind === "permission") return { status: 400, problem: "A permission card cannot be skipped: choose Allow or Deny." };
    this.settle(entry, { outcome: "skipped" }, "skipped", [], null);
    return { status: 200 };
  }

  snapshot(): BoardSnapshot {
    return {
      pending: [...this.pending.values()].map((p) => p.card),
      history: [...this.history],
      settledCount: this.settledCount,
      attached: this.pages,
    };
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** True once the run shut down; page streams end when they see it. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Ends every pending card and tells the pages' streams to end: the run is shutting down. */
  close(): void {
    this.closed = true;
    clearTimeout(this.detachTimer);
    for (const entry of [...this.pending.values()]) {
      this.settle(entry, { outcome: "no_human", reason: "the sidecar is shutting down" }, "no_human", [], null);
    }
    this.changed();
  }

  /** The last page stayed away past the grace period: nobody is attached any more (fail-closed). */
  private abandon(): void {
    this.detachTimer = undefined;
    if (this.pages > 0) return;
    for (const entry of [...this.pending.values()]) {
      this.settle(entry, { outcome: "no_human", reason: "the operator page was closed while the question waited" }, "no_human", [], null);
    }
  }

  private settle(entry: PendingCard, outcome: PortOutcome, recorded: HistoryOutcome, selected: string[], text: string | null): void {
    this.pending.delete(entry.card.id);
    this.record(entry.card, recorded, selected, text);
    entry.resolve(outcome);
  }

  private record(card: QuestionCard, outcome: HistoryOutcome, selected: string[], text: string | null): void {
    this.settledCount++;
    this.history.unshift({ card, outcome, selected, text, at: new Date().toISOString() });
    if (this.history.length > HISTORY_LIMIT) this.history.length = HISTORY_LIMIT;
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
