// A harness question port for tests (docs/harness.md): records cards, answers as the test scripts it.
// It stands in for a harness's conversation UI, which is not part of this repository.
import type { QuestionCard } from "../../src/questions/card.ts";

type Outcome = Record<string, unknown> & { outcome: string };

export interface TestQuestionPort extends AsyncDisposable {
  url: string;
  /** Cards posted to the port, oldest first. */
  cards: QuestionCard[];
  /** DELETE requests: which card was withdrawn and why. */
  withdrawn: { id: string; reason: unknown }[];
  /** Authorization headers the port saw on POST. */
  authorizations: (string | null)[];
  /** What POST /questions answers; default: pending. */
  onPost: (card: QuestionCard) => Outcome;
  /** The next card posted (or the n-th, 1-based). */
  card(n?: number): Promise<QuestionCard>;
  /** Settles a pending card; a held poll returns the outcome at once. */
  settle(id: string, outcome: Outcome): void;
  /** Waits until the card is withdrawn. */
  withdrawal(id: string): Promise<{ id: string; reason: unknown }>;
}

/** Bound on every wait inside this helper, so a broken sidecar fails the test instead of hanging it. */
const HELPER_WAIT_MS = 30_000;

export async function startQuestionPort(): Promise<TestQuestionPort> {
  const outcomes = new Map<string, Outcome>();
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const until = async <T>(what: string, probe: () => T | undefined): Promise<T> => {
    const deadline = Date.now() + HELPER_WAIT_MS;
    for (;;) {
      const found = probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`test question port: gave up waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const done = () => {
          waiters.delete(done);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(done, 200);
        waiters.add(done);
      });
    }
  };

  const port: TestQuestionPort = {
    url: "",
    cards: [],
    withdrawn: [],
    authorizations: [],
    onPost: () => ({ outcome: "pending" }),
    card: (n) => {
      const index = (n ?? port.cards.length + 1) - 1;
      return until(`card ${index + 1}`, () => port.cards[index]);
    },
    settle(id, outcome) {
      outcomes.set(id, outcome);
      wake();
    },
    withdrawal: (id) => until(`withdrawal of ${id}`, () => port.withdrawn.find((w) => w.id === id)),
    async [Symbol.asyncDispose]() {
      await server.stop(true);
    },
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const id = url.pathname.split("/")[2];
      if (request.method === "POST" && url.pathname === "/questions") {
        const card = (await request.json()) as QuestionCard;
        port.cards.push(card);
        port.authorizations.push(request.headers.get("authorization"));
        wake();
        return Response.json(port.onPost(card));
      }
      if (request.method === "GET" && id) {
        const wait = Number(url.searchParams.get("wait_ms") ?? 0);
        const deadline = Date.now() + Math.min(wait, HELPER_WAIT_MS);
        while (!outcomes.has(id) && Date.now() < deadline && !request.signal.aborted) await Bun.sleep(20);
        return Response.json(outcomes.get(id) ?? { outcome: "pending" });
      }
      if (request.method === "DELETE" && id) {
        const body = (await request.json().catch(() => ({}))) as { reason?: unknown };
        port.withdrawn.push({ id, reason: body.reason });
        wake();
        return new Response(null, { status: 204 });
      }
      return new Response("not found", { status: 404 });
    },
  });
  port.url = `http://127.0.0.1:${server.port}`;
  return port;
}
