// The question-port client for a harness's own UI: POST the card, long-poll its outcome, DELETE to withdraw.
import * as v from "valibot";
import { withdrawReason, type PortOutcome, type WithdrawReason, type QuestionCard, type QuestionPort } from "./card.ts";

/** Bound on the POST and DELETE requests; a port slower than this is treated as down. */
export const PORT_REQUEST_TIMEOUT_MS = 10_000;
/** How long one GET may be held open by the port before it answers "pending" (long poll). */
const PORT_POLL_WAIT_MS = 20_000;
/** A port that answers "pending" at once is polled no faster than this. */
const PORT_POLL_MIN_INTERVAL_MS = 500;
/** Consecutive failed polls after which the port counts as gone (fail-closed). */
export const PORT_POLL_FAILURES_ALLOWED = 3;

const portReply = v.variant("outcome", [
  v.object({ outcome: v.literal("pending") }),
  v.object({
    outcome: v.literal("answered"),
    option_ids: v.optional(v.array(v.string()), []),
    text: v.optional(v.nullable(v.string()), null),
  }),
  v.object({ outcome: v.literal("skipped") }),
  v.object({ outcome: v.literal("timeout") }),
  v.object({ outcome: v.literal("no_human"), reason: v.optional(v.string()) }),
]);
type PortReply = v.InferOutput<typeof portReply>;

export class HarnessPort implements QuestionPort {
  readonly name: string;
  readonly via = "port";

  constructor(
    private readonly base: string,
    private readonly token: string | undefined,
  ) {
    this.name = `the question port at ${base}`;
  }

  async ask(card: QuestionCard, signal: AbortSignal): Promise<PortOutcome> {
    try {
      let reply = await this.request("POST", "/questions", PORT_REQUEST_TIMEOUT_MS, signal, card);
      let failures = 0;
      while (reply.outcome === "pending") {
        const asked = Date.now();
        try {
          reply = await this.request("GET", `/questions/${card.id}?wait_ms=${PORT_POLL_WAIT_MS}`, PORT_POLL_WAIT_MS + PORT_REQUEST_TIMEOUT_MS, signal);
          failures = 0;
        } catch (error) {
          if (signal.aborted || ++failures >= PORT_POLL_FAILURES_ALLOWED) throw error;
        }
        if (reply.outcome === "pending") await pause(PORT_POLL_MIN_INTERVAL_MS - (Date.now() - asked), signal);
      }
      return finalOutcome(reply, this.name);
    } catch (error) {
      if (!signal.aborted) {
        // The port may hold the card although it never answered (a hang); take it down without waiting.
        void this.withdraw(card, "cancelled");
        return { outcome: "failed", reason: (error as Error).message };
      }
      await this.withdraw(card, withdrawReason(signal));
      return { outcome: "withdrawn" };
    }
  }

  /** Tells the port to take the card down; best effort, because the call is ending either way. */
  private async withdraw(card: QuestionCard, reason: WithdrawReason): Promise<void> {
    await this.request("DELETE", `/questions/${card.id}`, PORT_REQUEST_TIMEOUT_MS, undefined, { reason }).catch(
      () => {},
    );
  }

  private async request(method: string, path: string, timeoutMs: number, signal: AbortSignal | undefined, body?: unknown): Promise<PortReply> {
    const url = `${this.base.replace(/\/+$/, "")}${path}`;
    const bound = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
          ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: signal ? AbortSignal.any([signal, bound]) : bound,
      });
    } catch (error) {
      if (bound.aborted) throw new Error(`${this.name} did not answer ${method} ${path} within ${timeoutMs} ms`);
      throw new Error(`${this.name} could not be reached (${(error as Error).message})`);
    }
    const text = await response.text();
    if (method === "DELETE") return { outcome: "pending" };
    if (!response.ok) throw new Error(`${this.name} answered ${method} ${path} with HTTP ${response.status}: ${text.slice(0, 200)}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`${this.name} answered ${method} ${path} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    const parsed = v.safeParse(portReply, json);
    if (!parsed.success) {
      throw new Error(`${this.name} answered ${method} ${path} with ${text.slice(0, 200)}, which is not an outcome (see docs/harness.md)`);
    }
    return parsed.output;
  }
}

function finalOutcome(reply: Exclude<PortReply, { outcome: "pending" }>, port: string): PortOutcome {
  switch (reply.outcome) {
    case "answered":
      return { outcome: "answered", option_ids: reply.option_ids, text: reply.text };
    case "no_human":
      return { outcome: "no_human", reason: reply.reason?.trim() || `${port} says nobody is attached` };
    default:
      return { outcome: reply.outcome };
  }
}

/** Sleeps `ms` (if positive) unless `signal` aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
