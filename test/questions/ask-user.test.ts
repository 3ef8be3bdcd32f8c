// ask_user through the official MCP SDK client against a harness question port: every outcome.
import { describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RunConfig } from "../../src/config/schema.ts";
import { PORT_POLL_FAILURES_ALLOWED } from "../../src/questions/harness-port.ts";
import { startQuestionPort, type TestQuestionPort } from "../helpers/question-port.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

type Result = Awaited<ReturnType<Client["callTool"]>>;
const textOf = (result: Result) => (result.content as { text: string }[])[0]!.text;

async function harness(port: TestQuestionPort, questions: Record<string, unknown> = {}) {
  const dir = await tempDir();
  const config: RunConfig = { resources: { questions: { port: port.url, space: "space-1", ...questions } } };
  const run = await startTestRun(dir.path, config);
  const client = await run.client();
  await client.listTools(); // so the SDK validates structuredContent against ask_user's output schema
  return {
    run,
    client,
    async [Symbol.asyncDispose]() {
      await run[Symbol.asyncDispose]();
      await dir[Symbol.asyncDispose]();
    },
  } satisfies { run: TestRun; client: Client } & AsyncDisposable;
}

const dbQuestion = {
  question: "Which database should the cache use?",
  context: "The cache layer is being written now.",
  options: [{ label: "Postgres", description: "already deployed" }, { label: "SQLite" }, { label: "Redis" }],
};

describe("ask_user outcomes through a harness question port", () => {
  test("answered: the card reaches the port with stable option ids; the chosen label comes back", async () => {
    await using port = await startQuestionPort();
    await using h = await harness(port, { token: "port-secret-token" });
    const call = h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    const card = await port.card();
    expect(card).toMatchObject({
      kind: "question",
      number: 1,
      space: "space-1",
      surface: "default",
      question: dbQuestion.question,
      context: dbQuestion.context,
      options: [
        { id: "o1", label: "Postgres", description: "already deployed" },
        { id: "o2", label: "SQLite", description: null },
        { id: "o3", label: "Redis", description: null },
      ],
      allow_free_text: false,
      multi_select: false,
    });
    expect(port.authorizations).toEqual(["Bearer port-secret-token"]);
    port.settle(card.id, { outcome: "answered", option_ids: ["o2"] });
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ outcome: "answered", question_id: card.id, via: "port", selected: ["SQLite"], text: null });
    expect(textOf(result)).toBe('The operator chose "SQLite"');
  });

  test("answered with multi_select and free text: every chosen label and the typed text are kept", async () => {
    await using port = await startQuestionPort();
    await using h = await harness(port);
    const call = h.client.callTool({
      name: "ask_user",
      arguments: { ...dbQuestion, multi_select: true, allow_free_text: true },
    });
    const card = await port.card();
    expect(card).toMatchObject({ multi_select: true, allow_free_text: true });
    port.settle(card.id, { outcome: "answered", option_ids: ["o1", "o3"], text: "  Redis only in front of Postgres " });
    const result = await call;
    expect(result.structuredContent).toEqual({
      outcome: "answered",
      question_id: card.id,
      via: "port",
      selected: ["Postgres", "Redis"],
      text: "Redis only in front of Postgres",
    });
    expect(textOf(result)).toBe('The operator chose "Postgres", "Redis"; and wrote: Redis only in front of Postgres');
  });

  test("skipped: success telling the model to assume and not ask again; the same question again returns the skip at once", async () => {
    await using port = await startQuestionPort();
    await using h = await harness(port);
    const call = h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    const card = await port.card();
    port.settle(card.id, { outcome: "skipped" });
    const first = await call;
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toEqual({ outcome: "skipped", question_id: card.id, via: "port", remembered: false });
    expect(textOf(first)).toContain("Continue on a stated assumption");
    expect(textOf(first)).toContain("do not ask this question again");

    const again = await h.client.callTool({ name: "ask_user", arguments: { ...dbQuestion, question: "  which database should the cache use ? " } });
    expect(again.isError).toBeFalsy();
    expect(again.structuredContent).toEqual({ outcome: "skipped", question_id: card.id, remembered: true });
    expect(textOf(again)).toContain("already skipped");
    expect(port.cards).toHaveLength(1);
  });

  test("timeout: an error carrying the same instruction, and the card is withdrawn at the port", async () => {
    await using port = await startQuestionPort();
    await using h = await harness(port, { timeoutSeconds: 1 });
    const result = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("Nobody answered in time (this run waits up to 1 s for an answer)");
    expect(textOf(result)).toContain("Continue on a stated assumption");
    expect(result.structuredContent).toMatchObject({ outcome: "timeout", question_id: port.cards[0]!.id });
    expect(await port.withdrawal(port.cards[0]!.id)).toMatchObject({ reason: "timeout" });
  });

  test("a timeout reported by the port itself is the same error, naming the configured limit rather than the 0 s waited", async () => {
    await using port = await startQuestionPort();
    port.onPost = () => ({ outcome: "timeout" });
    await using h = await harness(port, { timeoutSeconds: 900 });
    const result = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ outcome: "timeout", error: { code: "timeout" } });
    expect(textOf(result)).toStartWith("The question port reports that nobody answered in time (this run waits up to 900 s for an answer)");
    expect(textOf(result)).not.toMatch(/\b0 s\b/);
  });

  test("no_human: the port says nobody is attached and the call fails at once (fail-closed)", async () => {
    await using port = await startQuestionPort();
    port.onPost = () => ({ outcome: "no_human", reason: "the conversation window is closed" });
    await using h = await harness(port);
    const result = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ outcome: "no_human" });
    expect(textOf(result)).toContain("No human is attached to answer (the conversation window is closed)");
    expect(textOf(result)).toContain("do not wait or retry");
  });

  test("no_human with an empty reason: the answer names the port, not an empty ()", async () => {
    await using port = await startQuestionPort();
    port.onPost = () => ({ outcome: "no_human", reason: "" });
    await using h = await harness(port);
    const result = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(textOf(result)).toMatch(/No human is attached to answer \(the question port at http:\/\/\S+ says nobody is attached\)/);
  });

  test("cancelled: cancelling the MCP call withdraws the card at the port", async () => {
    await using port = await startQuestionPort();
    await using h = await harness(port);
    const controller = new AbortController();
    const call = h.client.callTool({ name: "ask_user", arguments: dbQuestion }, undefined, { signal: controller.signal });
    const card = await port.card();
    controller.abort("the test cancels");
    await expect(call).rejects.toThrow();
    expect(await port.withdrawal(card.id)).toMatchObject({ reason: "cancelled" });
    // The space is free again: a new question is put through.
    const next = h.client.callTool({ name: "ask_user", arguments: { question: "Anything else?", allow_free_text: true } });
    const second = await port.card(2);
    port.settle(second.id, { outcome: "answered", text: "no" });
    expect((await next).structuredContent).toMatchObject({ outcome: "answered", text: "no" });
  });

  test("one open question per space: a second concurrent ask is rejected with a clear message", async () => {
    await using port = await startQuestionPort();
    await using h = await harness(port);
    const first = h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    const card = await port.card();
    const second = await h.client.callTool({ name: "ask_user", arguments: { question: "Tabs or spaces?", options: [{ label: "Tabs" }, { label: "Spaces" }] } });
    expect(second.isError).toBe(true);
    expect(textOf(second)).toContain(`Another question is already open in this space ("${dbQuestion.question}"`);
    expect(textOf(second)).toContain("Ask one question at a time");
    expect(port.cards).toHaveLength(1);
    port.settle(card.id, { outcome: "answered", option_ids: ["o1"] });
    expect((await first).structuredContent).toMatchObject({ selected: ["Postgres"] });
  });

  test("progress notifications arrive while the question waits", async () => {
    await using port = await startQuestionPort();
    await using h = await harness(port);
    const progress: { progress: number; total?: number; message?: string }[] = [];
    let sawSecond: () => void = () => {};
    const second = new Promise<void>((resolve) => (sawSecond = resolve));
    const call = h.client.callTool({ name: "ask_user", arguments: dbQuestion }, undefined, {
      onprogress: (p) => {
        progress.push(p);
        if (progress.length === 2) sawSecond();
      },
    });
    const card = await port.card();
    await second; // the first comes when the card is shown, the next from the heartbeat
    port.settle(card.id, { outcome: "answered", option_ids: ["o1"] });
    await call;
    expect(progress[0]).toMatchObject({ total: 600 });
    expect(progress[1]!.message).toContain("Question 1 is waiting for the operator");
  }, 30_000); // the heartbeat comes every PROGRESS_INTERVAL_MS (5 s)

  test("a port that cannot be reached fails the call at once instead of blocking", async () => {
    await using dir = await tempDir();
    const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const url = `http://127.0.0.1:${closed.port}`;
    await closed.stop(true);
    await using run = await startTestRun(dir.path, { resources: { questions: { port: url, space: "s" } } });
    const result = await (await run.client()).callTool({ name: "ask_user", arguments: dbQuestion });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`The question port failed: the question port at ${url} could not be reached`);
  });

  test("a port whose polls keep failing counts as gone: the call fails instead of waiting out the timeout", async () => {
    await using dir = await tempDir();
    let polls = 0;
    const broken = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch(request) {
        if (request.method === "POST") return Response.json({ outcome: "pending" });
        if (request.method === "GET") polls++;
        return new Response("database is locked", { status: request.method === "GET" ? 500 : 204 });
      },
    });
    try {
      await using run = await startTestRun(dir.path, { resources: { questions: { port: `http://127.0.0.1:${broken.port}`, space: "s" } } });
      const result = await (await run.client()).callTool({ name: "ask_user", arguments: dbQuestion });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("with HTTP 500: database is locked");
      expect(polls).toBe(PORT_POLL_FAILURES_ALLOWED);
    } finally {
      await broken.stop(true);
    }
  });

  test("an option and typed text on a card without allow_free_text: both are kept, the text never dropped", async () => {
    await using port = await startQuestionPort();
    port.onPost = () => ({ outcome: "answered", option_ids: ["o1"], text: "but only until the migration" });
    await using h = await harness(port);
    const result = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ outcome: "answered", selected: ["Postgres"], text: "but only until the migration" });
    expect(textOf(result)).toBe('The operator chose "Postgres"; and wrote: but only until the migration');
  });

  test("an option id repeated in an answer fails the ask: ids are a set, and a repeat is not guessed at", async () => {
    await using port = await startQuestionPort();
    port.onPost = () => ({ outcome: "answered", option_ids: ["o2", "o2"] });
    await using h = await harness(port);
    const result = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ outcome: "port_failed", error: { code: "port_failed" } });
    expect(textOf(result)).toContain("an option id is repeated");
  });

  test("a port answering an option the card does not have is reported, not guessed at", async () => {
    await using port = await startQuestionPort();
    port.onPost = () => ({ outcome: "answered", option_ids: ["o9"] });
    await using h = await harness(port);
    const result = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("unknown option id o9; this card has o1, o2, o3");
  });
});

describe("ask_user registration", () => {
  test("present only when the run has a question port and a target space", async () => {
    await using dir = await tempDir();
    await using port = await startQuestionPort();
    await using noSpace = await startTestRun(dir.path, { resources: { questions: { port: port.url } } });
    expect((await (await noSpace.client()).listTools()).tools.map((t) => t.name)).not.toContain("ask_user");
    await using withSpace = await startTestRun(dir.path, { resources: { questions: { port: port.url, space: "s" } } });
    const plan = await withSpace.client("plan");
    const tool = (await plan.listTools()).tools.find((t) => t.name === "ask_user");
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true });
  });
});
