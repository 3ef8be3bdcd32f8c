// The console (the operator page) over plain HTTP: its secret, its live stream, and, as the embedded
// question port, answers and permission prompts; served as well when the harness's port takes the questions.
import { describe, expect, test } from "bun:test";
import type { BoardSnapshot } from "../../src/questions/board.ts";
import { embeddedDefaults } from "../../src/config/defaults.ts";
import { PAGE_SECRET_HEADER } from "../../src/console/page-access.ts";
import { readyLine } from "../../src/run/start.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { startQuestionPort } from "../helpers/question-port.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const QUESTIONS = { resources: { questions: { space: "local" } } };

const ORIGIN_OF = (t: TestRun) => t.run.url.replace(/\/mcp$/, "");

/** Trades a page link's one-time ticket for the page secret, as the page's script does. */
function redeem(t: TestRun, ticket: string, origin = ORIGIN_OF(t)): Promise<Response> {
  return t.fetch("/operator/session", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify({ ticket }),
  });
}

/** The page secret, traded for the ready line's ticket. */
async function pageSecret(t: TestRun): Promise<string> {
  const response = await redeem(t, new URL(t.run.page!).hash.replace(/^#k=/, ""));
  expect(response.status).toBe(200);
  return ((await response.json()) as { secret: string }).secret;
}

interface ConsoleState {
  /** Null when the run's questions do not come to the page. */
  board: BoardSnapshot | null;
  glance: { title: string; rows: { name: string; state: string }[] }[];
}

interface PageStream extends AsyncDisposable {
  /** The next state the stream sends. */
  next(): Promise<ConsoleState>;
  /** The next state whose board satisfies `want`. */
  state(want: (board: BoardSnapshot) => boolean): Promise<BoardSnapshot>;
}

/** Opens the page's live event stream: while it is open, a human counts as attached. */
async function openStream(t: TestRun, secret: string): Promise<PageStream> {
  const controller = new AbortController();
  const response = await t.fetch("/operator/events", { headers: { [PAGE_SECRET_HEADER]: secret }, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const next = async (): Promise<ConsoleState> => {
    for (;;) {
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(event)?.[1];
        if (event.startsWith("event: state") && data) return JSON.parse(data) as ConsoleState;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("the event stream ended");
      buffer += value;
    }
  };
  return {
    next,
    async state(want) {
      for (;;) {
        const { board } = await next();
        if (board && want(board)) return board;
      }
    },
    async [Symbol.asyncDispose]() {
      controller.abort();
      await reader.cancel().catch(() => {});
    },
  };
}

function postCard(t: TestRun, secret: string, id: string, body: unknown, origin = ORIGIN_OF(t)) {
  return t.fetch(`/operator/cards/${id}`, {
    method: "POST",
    headers: { [PAGE_SECRET_HEADER]: secret, "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify(body),
  });
}

describe("the operator page's access", () => {
  test("the embedded defaults connect questions in space local, and the ready line prints the page link", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, embeddedDefaults());
    const line = JSON.parse(readyLine(t.run)) as { url: string; page: string; surfaces: Record<string, string> };
    const ticket = new URL(line.page).hash.replace(/^#k=/, "");
    // In the fragment, which a browser never sends to any server.
    expect(line.page).toBe(`${line.url.replace(/\/mcp$/, "")}/#k=${ticket}`);
    expect(ticket.length).toBeGreaterThanOrEqual(32);
    expect(Object.values(line.surfaces)).not.toContain(ticket);
    expect((await (await t.client()).listTools()).tools.map((tool) => tool.name)).toContain("ask_user");
  });

  test("the link's ticket is traded once for the page secret, which is no surface's token", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, QUESTIONS);
    const ticket = new URL(t.run.page!).hash.replace(/^#k=/, "");
    expect((await redeem(t, ticket, "http://localhost:9")).status).toBe(403); // only the page itself trades it
    expect((await redeem(t, t.run.surfaces.default!)).status).toBe(401);
    const first = await redeem(t, ticket);
    expect(first.status).toBe(200);
    const { secret } = (await first.json()) as { secret: string };
    expect(Object.values(t.run.surfaces)).not.toContain(secret);
    expect(secret).not.toBe(ticket);
    // Spent: the copy the browser's history keeps opens nothing.
    const again = await redeem(t, ticket);
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ error: { code: "ticket_spent" } });
  });

  test("the page's routes take only the page secret, in its header; no MCP token opens them", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, QUESTIONS);
    const page = await t.fetch("/");
    expect(page.status).toBe(200); // the page itself holds nothing secret
    expect(page.headers.get("content-security-policy")).toContain("script-src 'sha256-");
    expect(page.headers.get("set-cookie")).toBeNull();
    expect(await page.text()).toContain("<title>sidecar operator</title>");
    const events = (headers: Record<string, string>) => t.fetch("/operator/events", { headers });
    for (const token of [t.run.surfaces.default!, t.run.surfaces.plan!]) {
      expect((await events({ Authorization: `Bearer ${token}` })).status).toBe(401);
      expect((await events({ [PAGE_SECRET_HEADER]: token })).status).toBe(401);
      expect((await postCard(t, token, "x", { action: "skip" })).status).toBe(401);
      expect((await t.fetch("/operator/calls/1", { headers: { Authorization: `Bearer ${token}`, [PAGE_SECRET_HEADER]: token } })).status).toBe(401);
    }
    const refused = await events({});
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: "page_secret_required" } });
    const secret = await pageSecret(t);
    const open = new AbortController();
    const stream = await t.fetch("/operator/events", { headers: { [PAGE_SECRET_HEADER]: secret }, signal: open.signal });
    expect(stream.status).toBe(200);
    open.abort();
    // A call the page does not keep (here: none made yet) is a 404 with its code, never another call.
    const missing = await t.fetch("/operator/calls/1", { headers: { [PAGE_SECRET_HEADER]: secret } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: "call_not_kept" } });
  });

  test("the page secret is never a bearer token: /mcp and /harness/* answer it 401", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, QUESTIONS);
    const secret = await pageSecret(t);
    const bearer = { Authorization: `Bearer ${secret}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    expect((await t.fetch("/mcp", { method: "POST", headers: bearer, body: JSON.stringify(initialize) })).status).toBe(401);
    const permission = await t.fetch("/harness/permission", { method: "POST", headers: bearer, body: JSON.stringify({ question: "Allow?" }) });
    expect(permission.status).toBe(401);
  });

  test("answers are taken only as JSON from the page's own origin", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, QUESTIONS);
    const secret = await pageSecret(t);
    expect((await postCard(t, secret, "x", { action: "skip" }, "http://localhost:9")).status).toBe(403);
    const form = await t.fetch("/operator/cards/x", { method: "POST", headers: { [PAGE_SECRET_HEADER]: secret, Origin: ORIGIN_OF(t) }, body: "action=skip" });
    expect(form.status).toBe(403);
    const missing = await postCard(t, secret, "no-such-card", { action: "skip" });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: "card_not_pending" } });
  });
});

describe("the console of a run whose questions go to the harness's port", () => {
  test("is served behind the same secret, streams the run's resources and calls, and takes no answers", async () => {
    await using dir = await tempDir();
    await using port = await startQuestionPort();
    await using t = await startTestRun(dir.path, { resources: { questions: { port: port.url, space: "s" }, kernels: {} } });
    expect((await t.fetch("/")).status).toBe(200);
    expect((await t.fetch("/operator/events", { headers: { [PAGE_SECRET_HEADER]: t.run.surfaces.default! } })).status).toBe(401);
    const secret = await pageSecret(t);
    await using stream = await openStream(t, secret);
    const state = await stream.next();
    expect(state.board).toBeNull(); // the harness's port holds the cards
    expect(state.glance.map((section) => section.title)).toContain("Kernels");
    expect(state.glance.find((section) => section.title === "Run")!.rows).toContainEqual(expect.objectContaining({ name: "questions", state: "harness port" }));
    // No card is answered here: the route exists only where the run's questions come to the page.
    const answer = await postCard(t, secret, "x", { action: "skip" });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ error: { code: "not_found" } });
  });
});

describe("the operator page as the question port", () => {
  test("with no page open, ask_user fails closed at once", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, QUESTIONS);
    const result = await (await t.client()).callTool({ name: "ask_user", arguments: { question: "Proceed?", allow_free_text: true } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toContain("No human is attached to answer (no operator page is open");
  });

  test("an open page receives the card and its answer completes the call; bad answers are refused", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, QUESTIONS);
    const secret = await pageSecret(t);
    await using stream = await openStream(t, secret);
    await stream.state((b) => b.attached === 1);
    const call = (await t.client()).callTool({
      name: "ask_user",
      arguments: { question: "Which port?", options: [{ label: "8080" }, { label: "9090" }], allow_free_text: true },
    });
    const card = (await stream.state((b) => b.pending.length === 1)).pending[0]!;
    expect(card).toMatchObject({ number: 1, space: "local", question: "Which port?" });

    const two = await postCard(t, secret, card.id, { action: "answer", option_ids: ["o1", "o2"] });
    expect(two.status).toBe(400);
    expect(((await two.json()) as { error: { message: string } }).error.message).toContain("several options were chosen but this question takes one");
    expect((await postCard(t, secret, card.id, { action: "answer" })).status).toBe(400);

    expect((await postCard(t, secret, card.id, { action: "answer", option_ids: ["o2"], text: "behind the proxy" })).status).toBe(200);
    expect((await call).structuredContent).toMatchObject({ outcome: "answered", selected: ["9090"], text: "behind the proxy" });
    const after = await stream.state((b) => b.pending.length === 0 && b.history.length === 1);
    expect(after.history[0]).toMatchObject({ outcome: "answered", selected: ["9090"], text: "behind the proxy" });
  });

  test("cancelling the call withdraws the card from the page", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, QUESTIONS);
    await using stream = await openStream(t, await pageSecret(t));
    const controller = new AbortController();
    const call = (await t.client()).callTool({ name: "ask_user", arguments: { question: "Deploy?", allow_free_text: true } }, undefined, {
      signal: controller.signal,
    });
    await stream.state((b) => b.pending.length === 1);
    controller.abort("the test cancels");
    await expect(call).rejects.toThrow();
    const after = await stream.state((b) => b.pending.length === 0);
    expect(after.history[0]).toMatchObject({ outcome: "cancelled" });
  });
});

describe("the operator page's timeouts", () => {
  test("a question nobody answers times out, leaves the page, and is listed as timed out", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, { resources: { questions: { space: "local", timeoutSeconds: 1 } } });
    await using stream = await openStream(t, await pageSecret(t));
    await stream.state((b) => b.attached === 1);
    const result = await (await t.client()).callTool({ name: "ask_user", arguments: { question: "Ship it?", allow_free_text: true } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ outcome: "timeout" });
    const after = await stream.state((b) => b.pending.length === 0 && b.history.length === 1);
    expect(after.history[0]).toMatchObject({ outcome: "timeout" });
  });

  test("when the last page goes away while a card waits, the call ends as no_human after the reload grace", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, QUESTIONS);
    const stream = await openStream(t, await pageSecret(t));
    const call = (await t.client()).callTool({ name: "ask_user", arguments: { question: "Ship it?", allow_free_text: true } });
    await stream.state((b) => b.pending.length === 1);
    await stream[Symbol.asyncDispose]();
    const result = await call;
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toContain("the operator page was closed while the question waited");
  }, 40_000); // PAGE_DETACH_GRACE_MS is 10 s
});

describe("permission prompts", () => {
  test("the harness puts a yes/no card on the page and gets the operator's decision", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, QUESTIONS);
    const ask = (body: unknown, token = t.run.surfaces.default) =>
      t.fetch("/harness/permission", { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });

    expect((await ask({ question: "Run rm -rf build?" }, t.run.surfaces.plan)).status).toBe(401);
    expect((await ask({ nope: 1 })).status).toBe(400);
    expect(await (await ask({ question: "Run rm -rf build?" })).json()).toMatchObject({ outcome: "no_human" });

    const secret = await pageSecret(t);
    await using stream = await openStream(t, secret);
    await stream.state((b) => b.attached === 1);
    const decision = ask({ question: "Run rm -rf build?", context: "The agent wants a clean build." });
    const card = (await stream.state((b) => b.pending.length === 1)).pending[0]!;
    expect(card).toMatchObject({ kind: "permission", surface: null, options: [{ id: "allow", label: "Allow" }, { id: "deny", label: "Deny" }] });
    // The harness has no outcome for a skipped permission: only Allow or Deny settle it.
    const skipped = await postCard(t, secret, card.id, { action: "skip" });
    expect(skipped.status).toBe(400);
    expect(await skipped.json()).toEqual({ error: { code: "answer_does_not_fit", message: "A permission card cannot be skipped: choose Allow or Deny." } });
    expect((await postCard(t, secret, card.id, { action: "answer", option_ids: ["allow"] })).status).toBe(200);
    expect(await (await decision).json()).toEqual({ outcome: "allowed" });
  });
});
