// ask_user through the calling client (MCP elicitation): the official SDK client declares
// `elicitation` and answers in its handler; the question never reaches the operator page.
import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { RunConfig } from "../../src/config/schema.ts";
import { startQuestionPort } from "../helpers/question-port.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

type Result = Awaited<ReturnType<Client["callTool"]>>;
const textOf = (result: Result) => (result.content as { text: string }[])[0]!.text;
type Params = ElicitRequest["params"] & { requestedSchema: { properties: Record<string, Record<string, unknown>>; required?: string[] } };

interface Asked {
  client: Client;
  /** Every elicitation/create the client received, oldest first. */
  forms: Params[];
  /** Cancellations the client heard from the sidecar (an elicitation withdrawn). */
  cancelled: unknown[];
}

/**
 * A run whose questions are answered on the operator page (no harness port, unless given), and an SDK
 * client on it that declares `elicitation` (unless `declares` is false) and answers with `answer`.
 */
async function clientRun(
  answer: (form: Params) => ElicitResult | Promise<ElicitResult>,
  options: { declares?: boolean; version?: string; questions?: Record<string, unknown> } = {},
) {
  const dir = await tempDir();
  const config: RunConfig = { resources: { questions: { space: "s", ...options.questions } } };
  const run = await startTestRun(dir.path, config);
  const client = new Client({ name: "eliciting-client", version: "1.0.0" }, { capabilities: options.declares === false ? {} : { elicitation: {} } });
  const asked: Asked = { client, forms: [], cancelled: [] };
  if (options.declares !== false) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.forms.push(request.params as Params);
      return answer(request.params as Params);
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(run.run.url), { requestInit: { headers: { Authorization: `Bearer ${run.run.surfaces.default}` } } });
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, sendOptions) => {
    const m = message as { method?: string; params?: Record<string, unknown> };
    // The SDK client always asks for the newest version; an older client is played by rewriting its initialize.
    if (m.method === "initialize" && options.version) m.params = { ...m.params, protocolVersion: options.version };
    return send(message, sendOptions);
  };
  const receive = () => transport.onmessage;
  await client.connect(transport);
  const handle = receive();
  transport.onmessage = (message) => {
    if ((message as { method?: string }).method === "notifications/cancelled") asked.cancelled.push((message as { params?: unknown }).params);
    handle?.(message);
  };
  await client.listTools(); // so the SDK checks structuredContent against ask_user's output schema
  return {
    ...asked,
    run,
    async [Symbol.asyncDispose]() {
      await client.close();
      await run[Symbol.asyncDispose]();
      await dir[Symbol.asyncDispose]();
    },
  };
}

const dbQuestion = {
  question: "Which database should the cache use?",
  context: "The cache layer is being written now.",
  options: [{ label: "Postgres", description: "already deployed" }, { label: "SQLite" }, { label: "Redis" }],
};

describe("ask_user through a client that declared elicitation", () => {
  test("accept: the question and its context are the message, the options a titled enum (2025-11-25); the chosen label comes back, via the client", async () => {
    await using h = await clientRun(() => ({ action: "accept", content: { choice: "SQLite" } }));
    const result = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ outcome: "answered", via: "client", selected: ["SQLite"], text: null });
    expect(textOf(result)).toBe('The operator chose "SQLite"');
    expect(h.forms).toHaveLength(1);
    expect(h.forms[0]).toEqual({
      mode: "form",
      message: `${dbQuestion.question}\n\n${dbQuestion.context}`,
      requestedSchema: {
        type: "object",
        properties: {
          choice: {
            type: "string",
            title: "Your choice",
            oneOf: [
              { const: "Postgres", title: "Postgres: already deployed" },
              { const: "SQLite", title: "SQLite" },
              { const: "Redis", title: "Redis" },
            ],
          },
        },
        required: ["choice"],
      },
    });
    // The operator page saw nothing: the question went through the client.
    expect(h.run.run.resources.questions!.board!.snapshot().history).toEqual([]);
  });

  test("several choices and free text: an array of titled values and a text field, neither required", async () => {
    await using h = await clientRun(() => ({ action: "accept", content: { choices: ["Postgres", "Redis"], text: " Redis in front " } }));
    const result = await h.client.callTool({ name: "ask_user", arguments: { ...dbQuestion, multi_select: true, allow_free_text: true } });
    expect(result.structuredContent).toMatchObject({ outcome: "answered", via: "client", selected: ["Postgres", "Redis"], text: "Redis in front" });
    const { properties, required } = h.forms[0]!.requestedSchema;
    expect(properties.choices).toEqual({
      type: "array",
      title: "Your choices",
      items: { anyOf: [{ const: "Postgres", title: "Postgres: already deployed" }, { const: "SQLite", title: "SQLite" }, { const: "Redis", title: "Redis" }] },
      maxItems: 3,
    });
    expect(properties.text).toEqual({ type: "string", title: "Or in your own words" });
    expect(required).toBeUndefined();
  });

  test("an open question is one required-free text field", async () => {
    await using h = await clientRun(() => ({ action: "accept", content: { text: "Use the existing pool" } }));
    const result = await h.client.callTool({ name: "ask_user", arguments: { question: "How should connections be pooled?", allow_free_text: true } });
    expect(result.structuredContent).toMatchObject({ outcome: "answered", via: "client", selected: [], text: "Use the existing pool" });
    expect(h.forms[0]).toEqual({
      mode: "form",
      message: "How should connections be pooled?",
      requestedSchema: { type: "object", properties: { text: { type: "string", title: "Your answer" } } },
    });
  });

  test("a 2025-06-18 session gets enum + enumNames, one checkbox per option for several choices, and no mode field", async () => {
    await using h = await clientRun(
      (form): ElicitResult => ({ action: "accept", content: form.requestedSchema.properties.choice ? { choice: "Redis" } : { o1: true, o2: false, o3: true } }),
      { version: "2025-06-18" },
    );
    const single = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(single.structuredContent).toMatchObject({ outcome: "answered", via: "client", selected: ["Redis"] });
    expect(h.forms[0]).toEqual({
      message: `${dbQuestion.question}\n\n${dbQuestion.context}`,
      requestedSchema: {
        type: "object",
        properties: {
          choice: { type: "string", title: "Your choice", enum: ["Postgres", "SQLite", "Redis"], enumNames: ["Postgres: already deployed", "SQLite", "Redis"] },
        },
        required: ["choice"],
      },
    });
    const several = await h.client.callTool({ name: "ask_user", arguments: { ...dbQuestion, question: "Which stores may the cache use?", multi_select: true } });
    expect(several.structuredContent).toMatchObject({ outcome: "answered", via: "client", selected: ["Postgres", "Redis"] });
    expect(h.forms[1]!.requestedSchema.properties).toEqual({
      o1: { type: "boolean", title: "Postgres: already deployed", default: false },
      o2: { type: "boolean", title: "SQLite", default: false },
      o3: { type: "boolean", title: "Redis", default: false },
    });
  });

  test("decline is a skip: remembered, and the same question asked again does not reach the client", async () => {
    await using h = await clientRun(() => ({ action: "decline" }));
    const first = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ outcome: "skipped", via: "client", remembered: false });
    const again = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(again.structuredContent).toMatchObject({ outcome: "skipped", remembered: true });
    expect(h.forms).toHaveLength(1);
  });

  test("cancel (the person closed the form) is the cancelled outcome, saying so, and is not remembered", async () => {
    await using h = await clientRun(() => ({ action: "cancel" }));
    const result = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ outcome: "cancelled", via: "client", error: { code: "cancelled" } });
    expect(textOf(result)).toContain("closed the question without answering");
    await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(h.forms).toHaveLength(2);
  });

  test.each([
    ["a value that is not an option", { choice: "MySQL" }],
    ["nothing chosen where a choice is required", {}],
    ["two values for a single choice", { choice: ["Postgres", "Redis"] }],
  ])("an answer that does not fit is refused, never passed on: %s", async (_, content) => {
    await using h = await clientRun(() => ({ action: "accept", content: content as ElicitResult["content"] }));
    const result = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ outcome: "port_failed", via: "client" });
    expect(result.structuredContent).not.toHaveProperty("selected");
    expect(textOf(result)).toContain("Asking through the MCP client failed: the client's answer");
    expect(textOf(result)).toContain("does not fit the question");
  });

  test("a client that never answers: the question times out, and the sidecar withdraws it from the client", async () => {
    await using h = await clientRun(() => new Promise<ElicitResult>(() => {}), { questions: { timeoutSeconds: 1 } });
    const result = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ outcome: "timeout", via: "client", error: { code: "timeout" } });
    expect(textOf(result)).toContain("Nobody answered in time (this run waits up to 1 s for an answer)");
    expect(h.cancelled).toHaveLength(1);
  });

  test("a client answering with an error: the question failed, in words", async () => {
    await using h = await clientRun(() => {
      throw new Error("the dialog could not be shown");
    });
    const result = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(result.structuredContent).toMatchObject({ outcome: "port_failed", via: "client" });
    expect(textOf(result)).toContain("the client answered the question with an error (the dialog could not be shown)");
  });
});

describe("the order: the harness's port, else the client, else the page", () => {
  test("a client that declares nothing changes nothing: the operator page is asked (no page open: no_human, via the page)", async () => {
    await using h = await clientRun(() => ({ action: "accept", content: { choice: "SQLite" } }), { declares: false });
    const result = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ outcome: "no_human", via: "page" });
    // What the person can do, never the link itself: the agent must not open the page and answer itself.
    expect(textOf(result)).toContain("tell the person that running `sidecar console` in a terminal (as the user the sidecar runs as) opens this run's console");
    expect(textOf(result)).not.toContain("#k=");
    expect(h.run.run.resources.questions!.board!.snapshot().history).toHaveLength(1);
  });

  test("with a harness question port, the port is asked even though the client could be", async () => {
    await using port = await startQuestionPort();
    await using h = await clientRun(() => ({ action: "accept", content: { choice: "SQLite" } }), { questions: { port: port.url } });
    const call = h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    const card = await port.card();
    port.settle(card.id, { outcome: "answered", option_ids: ["o1"] });
    expect((await call).structuredContent).toMatchObject({ outcome: "answered", via: "port", selected: ["Postgres"] });
    expect(h.forms).toEqual([]);
  });

  test("per session: of two clients on one run, only the one that declared elicitation is asked through itself", async () => {
    await using h = await clientRun(() => ({ action: "accept", content: { choice: "Redis" } }));
    const plain = await h.run.client();
    const viaClient = await h.client.callTool({ name: "ask_user", arguments: dbQuestion });
    const viaPage = await plain.callTool({ name: "ask_user", arguments: { ...dbQuestion, question: "Which cache size?" } });
    expect(viaClient.structuredContent).toMatchObject({ outcome: "answered", via: "client" });
    expect(viaPage.structuredContent).toMatchObject({ outcome: "no_human", via: "page" });
  });
});
