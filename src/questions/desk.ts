// The ask flow of one run: one open question per space, skip memory, the timeout, progress while waiting.
import { randomUUID } from "node:crypto";
import { readAnswer, type CardKind, type CardOption, type PortOutcome, type QuestionCard, type QuestionPort, type QuestionVia } from "./card.ts";

/** How often a waiting call reports progress, so MCP clients never time it out (the SDK default is 60 s). */
export const PROGRESS_INTERVAL_MS = 5_000;
/** How long a question waits for an answer unless the run config says otherwise. */
const DEFAULT_QUESTION_TIMEOUT_SECONDS = 600;

interface AskRequest {
  /** The surface whose call asks (shown on the card). */
  surface: string;
  question: string;
  context: string | null;
  options: { label: string; description: string | null }[];
  allowFreeText: boolean;
  multiSelect: boolean;
}

/** Every outcome of a question that went somewhere names the way it went (`via`). */
export type AskResult =
  | { outcome: "answered"; questionId: string; via: QuestionVia; selected: string[]; text: string | null }
  | { outcome: "skipped"; questionId: string; via: QuestionVia; remembered: false }
  | { outcome: "skipped"; questionId: string; remembered: true }
  | { outcome: "timeout"; questionId: string; via: QuestionVia; limitSeconds: number; byPort: boolean }
  | { outcome: "no_human"; questionId: string; via: QuestionVia; reason: string }
  | { outcome: "port_failed"; questionId: string; via: QuestionVia; reason: string }
  | { outcome: "busy"; openQuestion: string; openSince: number }
  /** Withdrawn because the call was cancelled, or (`dismissed`) closed by the person without an answer. */
  | { outcome: "cancelled"; questionId: string; via: QuestionVia; dismissed: boolean };

interface WaitHooks {
  signal: AbortSignal;
  progress(update: { progress: number; total?: number; message?: string }): void;
}

interface AskHooks extends WaitHooks {
  /** The calling client, when it can ask its person itself: used unless the harness has its own port. */
  client?: QuestionPort;
}

interface OpenQuestion {
  question: string;
  since: number;
}

export class QuestionDesk {
  private readonly open = new Map<string, OpenQuestion>();
  /** Questions the operator skipped, by space and normalised wording: asked again, they return the skip at once. */
  private readonly skipped = new Map<string, string>();
  private cardCount = 0;

  constructor(
    readonly port: QuestionPort,
    private readonly timeoutSeconds: number = DEFAULT_QUESTION_TIMEOUT_SECONDS,
  ) {}

  /**
   * Asks the operator in `space`; never throws for an outcome, only returns it. The way: the
   * harness's question port when it has one, else the calling client when it can ask, else the page.
   */
  async ask(space: string, request: AskRequest, hooks: AskHooks): Promise<AskResult> {
    const key = `${space}\n${normalise(request.question)}`;
    const skippedId = this.skipped.get(key);
    if (skippedId !== undefined) return { outcome: "skipped", questionId: skippedId, remembered: true };
    const busy = this.open.get(space);
    if (busy) return { outcome: "busy", openQuestion: busy.question, openSince: busy.since };

    const options = request.options.map((o, i) => ({ id: `o${i + 1}`, label: o.label, description: o.description }));
    const card = this.card("question", space, request.surface, request.question, request.context, options, request.allowFreeText, request.multiSelect);
    const mine: OpenQuestion = { question: request.question, since: Date.now() };
    this.open.set(space, mine);
    // A cancelled call frees its space at once: the caller may ask again while the withdrawal is in flight.
    const release = () => {
      if (this.open.get(space) === mine) this.open.delete(space);
    };
    hooks.signal.addEventListener("abort", release, { once: true });
    try {
      const port = this.port.via === "port" ? this.port : (hooks.client ?? this.port);
      const outcome = await this.wait(port, card, hooks);
      if (outcome.outcome === "skipped") this.skipped.set(key, card.id);
      return outcome;
    } finally {
      hooks.signal.removeEventListener("abort", release);
      release();
    }
  }

  /** A yes/no permission prompt rendered as the same card; not limited to one per space, never remembered. */
  async permission(space: string, question: string, context: string | null, hooks: WaitHooks): Promise<AskResult> {
    const options: CardOption[] = [
      { id: "allow", label: "Allow", description: null },
      { id: "deny", label: "Deny", description: null },
    ];
    return this.wait(this.port, this.card("permission", space, null, question, context, options, false, false), hooks);
  }

  private card(
    kind: CardKind,
    space: string,
    surface: string | null,
    question: string,
    context: string | null,
    options: CardOption[],
    allowFreeText: boolean,
    multiSelect: boolean,
  ): QuestionCard {
    return {
      id: randomUUID(),
      number: ++this.cardCount,
      kind,
      space,
      surface,
      question,
      context,
      options,
      allow_free_text: allowFreeText,
      multi_select: multiSelect,
      expires_at: new Date(Date.now() + this.timeoutSeconds * 1000).toISOString(),
    };
  }

  private async wait(port: QuestionPort, card: QuestionCard, hooks: WaitHooks): Promise<AskResult> {
    const started = Date.now();
    const withdraw = new AbortController();
    const timer = setTimeout(() => withdraw.abort("timeout"), this.timeoutSeconds * 1000);
    const cancel = () => withdraw.abort("cancelled");
    hooks.signal.addEventListener("abort", cancel, { once: true });
    if (hooks.signal.aborted) cancel();
    const elapsed = () => Math.round((Date.now() - started) / 1000);
    const report = () =>
      hooks.progress({
        progress: elapsed(),
        total: this.timeoutSeconds,
        message: `Question ${card.number} is waiting for the operator (${elapsed()} s of ${this.timeoutSeconds} s).`,
      });
    report();
    const heartbeat = setInterval(report, PROGRESS_INTERVAL_MS);
    let outcome: PortOutcome;
    try {
      outcome = await port.ask(card, withdraw.signal);
    } catch (error) {
      outcome = { outcome: "failed", reason: (error as Error).message };
    } finally {
      clearTimeout(timer);
      clearInterval(heartbeat);
      hooks.signal.removeEventListener("abort", cancel);
    }
    return this.settle(port, card, outcome, withdraw.signal);
  }

  private settle(port: QuestionPort, card: QuestionCard, outcome: PortOutcome, withdraw: AbortSignal): AskResult {
    const asked = { questionId: card.id, via: port.via };
    switch (outcome.outcome) {
      case "answered": {
        const answer = readAnswer(card, outcome.option_ids, outcome.text);
        if ("problem" in answer) {
          return { outcome: "port_failed", ...asked, reason: `${port.name} sent an answer the card does not allow: ${answer.problem}` };
        }
        return { outcome: "answered", ...asked, selected: answer.labels, text: answer.text };
      }
      case "skipped":
        return { outcome: "skipped", ...asked, remembered: false };
      case "timeout":
        return { outcome: "timeout", ...asked, limitSeconds: this.timeoutSeconds, byPort: true };
      case "no_human":
        return { outcome: "no_human", ...asked, reason: outcome.reason };
      case "failed":
        return { outcome: "port_failed", ...asked, reason: outcome.reason };
      case "dismissed":
        return { outcome: "cancelled", ...asked, dismissed: true };
      case "withdrawn":
        return withdraw.reason === "timeout"
          ? { outcome: "timeout", ...asked, limitSeconds: this.timeoutSeconds, byPort: false }
          : { outcome: "cancelled", ...asked, dismissed: false };
    }
  }
}

/** "Which DB?" and "which  db ?" are the same question for skip memory. */
function normalise(question: string): string {
  return question.trim().replace(/\s+/g, " ").replace(/\s+([?.!])$/, "$1").toLowerCase();
}
