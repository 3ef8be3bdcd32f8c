// A reference question port (docs/harness.md, "The protocol"): the three requests the sidecar makes,
// held in memory, with an API for the harness's UI to show cards and settle them. Start from it.
import type { IncomingMessage, ServerResponse } from "node:http";
import { authorised, listen, readJson, reply } from "./http-server.ts";
import type { CardOutcome, PortReply, QuestionCard, Withdrawal } from "./wire.ts";

/** The longest a long poll is held, whatever `wait_ms` asks. */
const MAX_POLL_MS = 30_000;

export interface QuestionPortOptions {
  /** Required as `Authorization: Bearer <token>` (the run config's `questions.token`). */
  token?: string;
  host?: string;
  port?: number;
  /**
   * Called for each new card; return an outcome to settle it at once (an auto-approver, or
   * `no_human` when nobody is attached), or nothing to leave it pending for `settle`.
   */
  onCard?: (card: QuestionCard) => CardOutcome | undefined | void;
  /** Called when the sidecar withdraws a card (the call was cancelled, or its time ran out). */
  onWithdraw?: (card: QuestionCard, reason: Withdrawal["reason"]) => void;
}

export interface QuestionPort {
  /** The URL for the run config's `resources.questions.port`. */
  url: string;
  /** Cards waiting for an outcome, oldest first. */
  pending(): QuestionCard[];
  /** The next card to arrive (or the oldest pending one). */
  nextCard(): Promise<QuestionCard>;
  /** Settles a pending card; false when it is not pending (settled or withdrawn). */
  settle(id: string, outcome: CardOutcome): boolean;
  close(): Promise<void>;
}

interface Entry {
  card: QuestionCard;
  outcome?: CardOutcome;
  waiters: Set<(reply: PortReply) => void>;
}

export async function startQuestionPort(options: QuestionPortOptions = {}): Promise<QuestionPort> {
  const cards = new Map<string, Entry>();
  const cardWaiters: ((card: QuestionCard) => void)[] = [];

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (!authorised(request, options.token)) return reply(response, 401, { error: { code: "unauthorized", message: "This port needs its bearer token." } });
    const url = new URL(request.url ?? "/", "http://port");
    const [, collection, id] = url.pathname.match(/^(?:.*)\/(questions)(?:\/([^/]+))?$/) ?? [];
    if (collection !== "questions") return reply(response, 404, { error: { code: "not_found", message: `No route ${url.pathname}.` } });
    if (request.method === "POST" && id === undefined) {
      const card = (await readJson(request)) as QuestionCard | undefined;
      if (!card || typeof card.id !== "string") return reply(response, 400, { error: { code: "invalid_body", message: "Expected a question card." } });
      const entry: Entry = { card, waiters: new Set() };
      cards.set(card.id, entry);
      const decided = options.onCard?.(card) ?? undefined;
      if (decided) entry.outcome = decided;
      else cardWaiters.splice(0).forEach((wake) => wake(card));
      return reply(response, 200, entry.outcome ?? { outcome: "pending" });
    }
    const entry = id === undefined ? undefined : cards.get(decodeURIComponent(id));
    if (!entry) return reply(response, 404, { error: { code: "unknown_card", message: `No card ${id ?? ""} here.` } });
    if (request.method === "GET") {
      if (entry.outcome) return reply(response, 200, entry.outcome);
      const waitMs = Math.min(Number(url.searchParams.get("wait_ms")) || 0, MAX_POLL_MS);
      const answer = await new Promise<PortReply>((resolve) => {
        const done = (outcome: PortReply) => {
          clearTimeout(timer);
          entry.waiters.delete(done);
          resolve(outcome);
        };
        const timer = setTimeout(() => done({ outcome: "pending" }), waitMs);
        entry.waiters.add(done);
        request.once("close", () => done({ outcome: "pending" }));
      });
      if (!response.writableEnded && !response.destroyed) reply(response, 200, answer);
      return;
    }
    if (request.method === "DELETE") {
      const body = (await readJson(request)) as Partial<Withdrawal> | undefined;
      cards.delete(entry.card.id);
      if (!entry.outcome) options.onWithdraw?.(entry.card, body?.reason === "timeout" ? "timeout" : "cancelled");
      for (const wake of entry.waiters) wake({ outcome: "pending" });
      return reply(response, 200, {});
    }
    return reply(response, 405, { error: { code: "method_not_allowed", message: `${request.method} is not a question port request.` } });
  };

  const listening = await listen(handle, options.host, options.port);
  return {
    url: listening.origin,
    pending: () => [...cards.values()].filter((entry) => !entry.outcome).map((entry) => entry.card),
    nextCard() {
      const waiting = [...cards.values()].find((entry) => !entry.outcome);
      if (waiting) return Promise.resolve(waiting.card);
      return new Promise((resolve) => cardWaiters.push(resolve));
    },
    settle(id, outcome) {
      const entry = cards.get(id);
      if (!entry || entry.outcome) return false;
      entry.outcome = outcome;
      for (const wake of entry.waiters) wake(outcome);
      return true;
    },
    close: () => listening.close(),
  };
}
