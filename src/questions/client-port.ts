// The calling client as the question port: the card becomes an MCP elicitation form, shown by the
// client in front of the person, and what they did becomes the card's outcome.
import type { ClientElicitation, ElicitationForm, FormField } from "../tool/elicitation.ts";
import type { PortOutcome, QuestionCard, QuestionPort } from "./card.ts";

/** The first protocol version whose forms take titled enums (`oneOf`/`anyOf` of const + title) and arrays. */
const TITLED_ENUMS_SINCE = "2025-11-25";
/** The client's request outlives the card by this, so that the desk's own timeout ends it, as for every port. */
const CLIENT_TIMEOUT_SLACK_MS = 5_000;

export class ClientPort implements QuestionPort {
  readonly via = "client";
  readonly name = "the calling client";

  constructor(private readonly client: ClientElicitation) {}

  async ask(card: QuestionCard, signal: AbortSignal): Promise<PortOutcome> {
    const titled = this.client.protocolVersion >= TITLED_ENUMS_SINCE;
    const timeoutMs = Math.max(0, Date.parse(card.expires_at) - Date.now()) + CLIENT_TIMEOUT_SLACK_MS;
    try {
      const answer = await this.client.ask(cardForm(card, titled), signal, timeoutMs);
      switch (answer.action) {
        case "accept":
          return readContent(card, answer.content);
        case "decline":
          return { outcome: "skipped" };
        case "cancel":
          return { outcome: "dismissed" };
      }
    } catch (error) {
      if (signal.aborted) return { outcome: "withdrawn" };
      return { outcome: "failed", reason: (error as Error).message };
    }
  }
}

/** Field names of the form; the answer is read back by the same names. */
const CHOICE = "choice";
const CHOICES = "choices";
const TEXT = "text";

/**
 * The card as a form: single choice as an enum of the labels (titled with label and description),
 * several as an array of them (before 2025-11-25, which has no arrays: one checkbox per option),
 * free text as a string field; options and free text as both, neither then required.
 */
function cardForm(card: QuestionCard, titled: boolean): ElicitationForm {
  const properties: Record<string, FormField> = {};
  const required: string[] = [];
  const choices = card.options.map((o) => ({ const: o.label, title: o.description ? `${o.label}: ${o.description}` : o.label }));
  const needed = !card.allow_free_text;
  if (choices.length > 0 && !card.multi_select) {
    properties[CHOICE] = titled
      ? { type: "string", title: "Your choice", oneOf: choices }
      : { type: "string", title: "Your choice", enum: choices.map((c) => c.const), enumNames: choices.map((c) => c.title) };
    if (needed) required.push(CHOICE);
  } else if (choices.length > 0 && titled) {
    properties[CHOICES] = { type: "array", title: "Your choices", items: { anyOf: choices }, ...(needed ? { minItems: 1 } : {}), maxItems: choices.length };
    if (needed) required.push(CHOICES);
  } else {
    card.options.forEach((o, k) => (properties[o.id] = { type: "boolean", title: choices[k]!.title, default: false }));
  }
  if (card.allow_free_text) properties[TEXT] = { type: "string", title: choices.length > 0 ? "Or in your own words" : "Your answer" };
  return {
    message: card.context ? `${card.question}\n\n${card.context}` : card.question,
    requestedSchema: { type: "object", properties, ...(required.length ? { required } : {}) },
  };
}

/** The form's content as the card's answer: the option ids of the chosen labels, and the typed text. */
function readContent(card: QuestionCard, content: Record<string, unknown>): PortOutcome {
  const picked = [
    ...(typeof content[CHOICE] === "string" ? [content[CHOICE]] : []),
    ...(Array.isArray(content[CHOICES]) ? content[CHOICES] : []),
  ];
  const optionIds: string[] = card.options.filter((o) => content[o.id] === true).map((o) => o.id);
  for (const label of picked) {
    const option = card.options.find((o) => o.label === label);
    if (!option) return { outcome: "failed", reason: `the client answered ${JSON.stringify(label)}, which is not one of the options` };
    optionIds.push(option.id);
  }
  const text = typeof content[TEXT] === "string" ? content[TEXT] : null;
  return { outcome: "answered", option_ids: optionIds, text };
}
