// The operator page as the embedded question port, over plain HTTP: token, live stream, answers, permission prompts.
import { describe, expect, test } from "bun:test";
import type { BoardSnapshot } from "../../src/questions/board.ts";
import { embeddedDefaults } from "../../src/config/defaults.ts";
import { readyLine } from "../../src/run/start.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const QUESTIONS = { resources: { questions: { space: "local" } } };

/** Trades the page URL's token for the cookie, as a browser would. */
async function operatorCookie(t: TestRun): Promise<string> {
  const response = await fetch(t.run.page!, { redirect: "manual" });
  expect(response.status).toBe(303);
  return response.headers.get("set-cookie")!.split(";")[0]!;
}

interface PageStream extends AsyncDisposable {
  /** The next state whose board satisfies `want`. */
  state(want: (board: BoardSnapshot) => boolean): Promise<BoardSnapshot>;
}

/** Opens the page's live event stream: while it is open, a human counts as attached. */
async function openStream(t: TestRun, cookie: string): Promise<PageStream> {
  const controller = new AbortController();
  const response = await t.fetch("/operator/events", { headers: { Cookie: cookie }, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    async state(want) {
      for (;;) {
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(event)?.[1];
          if (event.startsWith("event: state") && data) {
            const board = (JSON.parse(data) as { board: BoardSnapshot }).board;
            if (want(board)) return board;
          }
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("the event stream ended");
        buffer += value;
      }
    },
    async [Symbol.asyncDispose]() {
      controller.abort();
      await reader.cancel().catch(() => {});
    },
  };
}

function postCard(t: TestRun, cookie: string, id: string, body: unknown, origin = t.run.url.replace(/\/mcp$/, "")) {
  return t.fetch(`/operator/cards/${id}`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify(body),
  });
}

describe("the operator page's access", () => {
  test("the embedded defaults connect questions in space local, and the ready line prints the page URL", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, embeddedDefaults());
    const line = JSON.parse(readyLine(t.run)) as { url: string; page: string; surfaces: Record<string, string> };
    const secret = new URL(line.page).searchParams.get("token")!;
    expect(line.page).toBe(`${line.url.replace(/\/mcp$/, "")}/?token=${secret}`);
    // The page's secret is its own, never a surface's bearer token: the page acts as the human.
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(Object.values(line.surfaces)).not.toContain(secret);
    expect((await (await t.client()).listTools()).tools.map((tool) => tool.name)).toContain("ask_user");
  });

  test("the page needs the token: a wrong or missing one gets 401, the right one a cookie and the page", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, QUESTIONS);
    expect((await t.fetch("/")).status).toBe(401);
    expect((await t.fetch("/?token=wrong-token-of-some-length")).status).toBe(401);
    expect((await t.fetch(`/?token=${t.run.surfaces.plan}`)).status).toBe(401);
    expect((await t.fetch(`/?token=${t.run.surfaces.default}`)).status).toBe(401);
    expect((await t.fetch("/operator/events")).status).toBe(401);
    const cookie = await operatorCookie(t);
    const page = await t.fetch("/", { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'sha256-");
    expect(await page.text()).toContain("<title>sidecar operator</title>");
  });

  test("answers are taken only as JSON from the page's own origin", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, QUESTIONS);
    const cookie = await operatorCookie(t);
    expect((await postCard(t, cookie, "x", { action: "skip" }, "http://localhost:9")).status).toBe(403);
    const form = await t.fetch("/operator/cards/x", { method: "POST", headers: { Cookie: cookie, Origin: t.run.url.replace(/\/mcp$/, "") }, body: "action=skip" });
    expect(form.status).toBe(403);
    expect((await postCard(t, cookie, "no-such-card", { action: "skip" })).status).toBe(404);
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
    const cookie = await operatorCookie(t);
    await using stream = await openStream(t, cookie);
    await stream.state((b) => b.attached === 1);
    const call = (await t.client()).callTool({
      name: "ask_user",
      arguments: { question: "Which port?", options: [{ label: "8080" }, { label: "9090" }], allow_free_text: true },
    });
    const card = (await stream.state((b) => b.pending.length === 1)).pending[0]!;
    expect(card).toMatchObject({ number: 1, space: "local", question: "Which port?" });

    const two = await postCard(t, cookie, card.id, { action: "answer", option_ids: ["o1", "o2"] });
    expect(two.status).toBe(400);
    expect(((await two.json()) as { error: string }).error).toContain("several options were chosen but this question takes one");
    expect((await postCard(t, cookie, card.id, { action: "answer" })).status).toBe(400);

    expect((await postCard(t, cookie, card.id, { action: "answer", option_ids: ["o2"], text: "behind the proxy" })).status).toBe(200);
    expect((await call).structuredContent).toMatchObject({ outcome: "answered", selected: ["9090"], text: "behind the proxy" });
    const after = await stream.state((b) => b.pending.length === 0 && b.history.length === 1);
    expect(after.history[0]).toMatchObject({ outcome: "answered", selected: ["9090"], text: "behind the proxy" });
  });

  test("cancelling the call withdraws the card from the page", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, QUESTIONS);
    await using stream = await openStream(t, await operatorCookie(t));
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
    await using stream = await openStream(t, await operatorCookie(t));
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
    const stream = await openStream(t, await operatorCookie(t));
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

    const cookie = await operatorCookie(t);
    await using stream = await openStream(t, cookie);
    await stream.state((b) => b.attached === 1);
    const decision = ask({ question: "Run rm -rf build?", context: "The agent wants a clean build." });
    const card = (await stream.state((b) => b.pending.length === 1)).pending[0]!;
    expect(card).toMatchObject({ kind: "permission", options: [{ id: "allow", label: "Allow" }, { id: "deny", label: "Deny" }] });
    // The harness has no outcome for a skipped permission: only Allow or Deny settle it.
    const skipped = await postCard(t, cookie, card.id, { action: "skip" });
    expect(skipped.status).toBe(400);
    expect(await skipped.json()).toEqual({ error: "A permission card cannot be skipped: choose Allow or Deny." });
    expect((await postCard(t, cookie, card.id, { action: "answer", option_ids: ["allow"] })).status).toBe(200);
    expect(await (await decision).json()).toEqual({ outcome: "allowed" });
  });
});
