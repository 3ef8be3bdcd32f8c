// A question card as every port sees it, the outcomes a port reports, and how an answer is checked.

export type CardKind = "question" | "permission";

export interface CardOption {
  /** Stable id the answer refers to ("o1"… for questions, "allow"/"deny" for permission prompts). */
  id: string;
  label: string;
  description: string | null;
}

/** What the sidecar hands to a question port (JSON field names are the wire names). */
export interface QuestionCard {
  id: string;
  /** 1, 2, 3… in the order cards were raised in this run; the number the operator sees. */
  number: number;
  kind: CardKind;
  space: string;
  /** The MCP surface whose ask_user call raised the card; null for the harness's permission prompts. */
  surface: string | null;
  question: string;
  context: string | null;
  options: CardOption[];
  allow_free_text: boolean;
  multi_select: boolean;
  /** ISO time after which the sidecar stops waiting and withdraws the card. */
  expires_at: string;
}

/** What a port reports for a card; "withdrawn" is the port confirming the card was taken down. */
export type PortOutcome =
  | { outcome: "answered"; option_ids: string[]; text: string | null }
  | { outcome: "skipped" }
  | { outcome: "timeout" }
  | { outcome: "no_human"; reason: string }
  | { outcome: "failed"; reason: string }
  /** The person closed the question without an answer (a client's elicitation "cancel"). */
  | { outcome: "dismissed" }
  | { outcome: "withdrawn" };

/** Which way a question reached a person: the harness's port, the calling client, the operator page. */
export type QuestionVia = "port" | "client" | "page";

/** Why the sidecar withdrew a card: the abort reason it passes to the port. */
export type WithdrawReason = "cancelled" | "timeout";

/** A port: shows a card, resolves with its outcome; aborting `signal` withdraws the card. */
export interface QuestionPort {
  /** "operator page" or the harness port's URL, for messages. */
  readonly name: string;
  readonly via: QuestionVia;
  ask(card: QuestionCard, signal: AbortSignal): Promise<PortOutcome>;
}

export function withdrawReason(signal: AbortSignal): WithdrawReason {
  return signal.reason === "timeout" ? "timeout" : "cancelled";
}

/**
 * Checks an answer against its card: known option ids, none repeated, one unless multi_select, and
 * something chosen or typed. Typed text is kept even on a card without allow_free_text (a port's UI
 * may let the operator type anyway): text is never dropped. Returns the chosen labels, or why not.
 */
export function readAnswer(
  card: QuestionCard,
  optionIds: readonly string[],
  text: string | null,
): { labels: string[]; text: string | null } | { problem: string } {
  const typed = text?.trim() ? text.trim() : null;
  const unknown = optionIds.filter((id) => !card.options.some((o) => o.id === id));
  if (unknown.length) {
    return { problem: `unknown option id ${unknown.join(", ")}; this card has ${card.options.map((o) => o.id).join(", ") || "no options"}` };
  }
  if (new Set(optionIds).size !== optionIds.length) return { problem: "an option id is repeated" };
  if (!card.multi_select && optionIds.length > 1) return { problem: "several options were chosen but this question takes one" };
  if (optionIds.length === 0 && typed === null) return { problem: "the answer chose no option and typed no text" };
  const labels = card.options.filter((o) => optionIds.includes(o.id)).map((o) => o.label);
  return { labels, text: typed };
}
