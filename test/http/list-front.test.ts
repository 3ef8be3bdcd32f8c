// Under Bun the public port is held by a front thread that answers plain tools/list itself and
// passes everything else to the main thread (src/runtime/front.bun.ts). Proved here: it answers
// while the main thread cannot, and it never answers what the main thread would refuse or has
// changed since (the surface's tools, a session ended or evicted, a foreign token or Host).
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { describeTool, MAX_SESSIONS } from "../../src/http/mcp-sessions.ts";
import type { ListFrontFeed, FrontUpdate } from "../../src/http/list-front.ts";
import { listenBehindFront, MAX_FRONT_RESTARTS } from "../../src/runtime/front.bun.ts";
import { MAX_FRONT_STREAMS } from "../../src/runtime/front-protocol.ts";
import { spawnSidecar } from "../../build/spawn-sidecar.ts";
import type { Tool } from "../../src/tool/define.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { echoTool, execProbeTool, writeProbeTool } from "../helpers/probe-tools.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };

function headers(token: string, session?: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    Authorization: `Bearer ${token}`,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    ...(session ? { "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18" } : {}),
    ...extra,
  };
}

async function openSession(t: TestRun, surface = "default"): Promise<string> {
  const token = t.run.surfaces[surface]!;
  const response = await t.fetch("/mcp", { method: "POST", headers: headers(token), body: JSON.stringify(initialize) });
  expect(response.status).toBe(200);
  const session = response.headers.get("mcp-session-id")!;
  await response.body?.cancel();
  const initialized = await t.fetch("/mcp", { method: "POST", headers: headers(token, session), body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  expect(initialized.status).toBe(202);
  return session;
}

function listTools(t: TestRun, session: string, surface = "default", extra: Record<string, string> = {}): Promise<Response> {
  return t.fetch("/mcp", { method: "POST", headers: headers(t.run.surfaces[surface]!, session, extra), body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }) });
}

async function toolNames(response: Response): Promise<string[]> {
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
}

describe("the front thread", () => {
  test("answers tools/list while the main thread is blocked; a tool call waits for the main thread", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: [echoTool] });
    const session = await openSession(t);
    const token = t.run.surfaces.default!;
    // Another process sends both requests once this (the main) thread is blocked, and says when
    // each was sent and answered.
    await dir.write({
      "client.ts": `
        const [url, token, session] = process.argv.slice(2);
        const headers = { Authorization: "Bearer " + token, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18" };
        await Bun.sleep(500);
        const timed = async (body) => {
          const sentAt = Date.now();
          const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
          const text = await response.text();
          return { sentAt, answeredAt: Date.now(), status: response.status, text };
        };
        const [list, call] = await Promise.all([
          timed({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
          timed({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "test_echo", arguments: { text: "hi" } } }),
        ]);
        console.log(JSON.stringify({ list, call }));
      `,
    });
    const client = Bun.spawn([process.execPath, join(dir.path, "client.ts"), t.run.url, token, session], { stdout: "pipe", stderr: "inherit" });
    // Blocks this thread, the one every tool call needs, for 4 s.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4_000);
    const unblockedAt = Date.now();
    const { list, call } = JSON.parse(await new Response(client.stdout).text()) as Record<"list" | "call", { sentAt: number; answeredAt: number; status: number; text: string }>;
    expect(list.sentAt).toBeLessThan(unblockedAt); // else the client was too slow and this proves nothing
    expect(list.status).toBe(200);
    expect(JSON.parse(list.text).result.tools.map((tool: { name: string }) => tool.name)).toEqual(["test_echo"]);
    expect(list.answeredAt).toBeLessThan(unblockedAt);
    expect(call.status).toBe(200);
    expect(call.text).toContain("hi");
    expect(call.answeredAt).toBeGreaterThanOrEqual(unblockedAt);
  }, 30_000);

  test("answers each surface with its own tools, and the new set as soon as the tool set changes", async () => {
    await using dir = await tempDir();
    const tools: Tool[] = [echoTool, writeProbeTool];
    await using t = await startTestRun(dir.path, {}, { extraTools: tools });
    const full = await openSession(t);
    const plan = await openSession(t, "plan");
    const response = await listTools(t, full);
    expect(response.headers.get("mcp-session-id")).toBe(full);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 9, result: { tools: JSON.parse(JSON.stringify([echoTool, writeProbeTool].map(describeTool))) } });
    expect(await toolNames(await listTools(t, plan, "plan"))).toEqual(["test_echo"]);

    tools.push(execProbeTool);
    t.run.registry.changed();
    // The front hears of the change by a message to its thread, the client by list_changed on its
    // stream: a list asked the same instant (before that message is handled) may still be the old one.
    let names = await toolNames(await listTools(t, full));
    for (let i = 0; i < 100 && names.length < 3; i++) {
      await Bun.sleep(10);
      names = await toolNames(await listTools(t, full));
    }
    expect(names).toEqual(["test_echo", "test_write", "test_exec"]);
    expect(await toolNames(await listTools(t, plan, "plan"))).toEqual(["test_echo"]);
  });

  test("never answers for a session that ended or was evicted, another surface's token, a wrong token or a foreign Host", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: [echoTool] });
    const session = await openSession(t);
    expect(await toolNames(await listTools(t, session))).toEqual(["test_echo"]);

    expect((await listTools(t, session, "plan")).status).toBe(403);
    expect((await t.fetch("/mcp", { method: "POST", headers: headers("not-the-token", session), body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }) })).status).toBe(401);
    expect((await listTools(t, session, "default", { Host: "evil.example:80" })).status).toBe(403);
    expect((await listTools(t, session, "default", { Origin: "http://evil.example" })).status).toBe(403);

    const ended = await t.fetch("/mcp", { method: "DELETE", headers: headers(t.run.surfaces.default!, session) });
    expect(ended.status).toBe(200);
    expect((await listTools(t, session)).status).toBe(404);

    // A full table evicts the least recently used idle session: the front must forget it too.
    const oldest = await openSession(t);
    for (let k = 0; k < MAX_SESSIONS; k++) {
      const response = await t.fetch("/mcp", { method: "POST", headers: headers(t.run.surfaces.default!), body: JSON.stringify(initialize) });
      expect(response.status).toBe(200);
      await response.body?.cancel();
    }
    expect((await listTools(t, oldest)).status).toBe(404);
  }, 60_000);

  test("a front thread that crashes is started again on the same port; past the limit the main thread serves it", async () => {
    let send: ((update: FrontUpdate) => void) | undefined;
    const feed: ListFrontFeed = {
      setup: { surfaces: [{ name: "default", token: "token-0123456789abcdef" }], allowRemote: false, protocolVersions: ["2025-06-18"] },
      watch(listener) {
        send = listener;
        return () => {};
      },
      touched() {},
    };
    const errors: string[] = [];
    const consoleError = console.error;
    console.error = (line: string) => errors.push(line);
    const listening = await listenBehindFront(() => new Response("from the main thread"), "127.0.0.1", 0, feed);
    try {
      expect(listening).toBeDefined();
      const url = `http://127.0.0.1:${listening!.port}/anything`;
      const answered = async () => {
        for (let k = 0; k < 50; k++) {
          if ((await fetch(url).then((r) => r.text(), () => "")) === "from the main thread") return true;
          await Bun.sleep(100);
        }
        return false;
      };
      expect(await answered()).toBe(true);
      for (let crash = 1; crash <= MAX_FRONT_RESTARTS + 1; crash++) {
        // An update the front cannot read throws inside it: an uncaught error in the thread.
        send!(null as unknown as FrontUpdate);
        for (let k = 0; k < 50 && errors.length < crash; k++) await Bun.sleep(100);
        expect(await answered()).toBe(true);
      }
      expect(errors.filter((line) => line.includes("the front thread crashed") && line.includes("starting it again")).length).toBe(MAX_FRONT_RESTARTS);
      expect(errors.at(-1)).toContain(`the main thread serves port ${listening!.port} alone`);
    } finally {
      console.error = consoleError;
      await listening?.close();
    }
  });

  test("standalone streams past the cap get 405, and calls still pass with the cap full", async () => {
    // A sidecar of its own: the front's fetch pool is per process, and this test's requests must
    // not share it.
    await using dir = await tempDir();
    await dir.write({ "run.json": JSON.stringify({ workdir: dir.path, resources: { parser: {} } }), "a.py": "x = 1\n" });
    await using sidecar = await spawnSidecar([process.execPath, join(import.meta.dir, "..", "..", "src", "main.ts"), "serve", "--config", join(dir.path, "run.json")]);
    const token = sidecar.ready.surfaces.default!;
    const post = (body: unknown, session?: string) => fetch(sidecar.ready.url, { method: "POST", headers: headers(token, session), body: JSON.stringify(body) });
    const sessions: string[] = [];
    for (let k = 0; k <= MAX_FRONT_STREAMS + 1; k++) {
      const response = await post(initialize);
      sessions.push(response.headers.get("mcp-session-id")!);
      await response.body?.cancel();
    }
    const stream = (session: string, signal?: AbortSignal) =>
      fetch(sidecar.ready.url, { headers: { ...headers(token, session), Accept: "text/event-stream" }, signal }).catch(() => undefined);
    const holders = new AbortController();
    // Streams open at once (their headers do not wait for a first event); each is kept referenced,
    // or collecting it would end it and free its place.
    const held = await Promise.all(sessions.slice(0, MAX_FRONT_STREAMS).map((session) => stream(session, holders.signal)));
    expect(held.every((response) => response?.status === 200)).toBe(true);
    const refused = await Promise.race([stream(sessions[MAX_FRONT_STREAMS]!), Bun.sleep(10_000).then(() => undefined)]);
    expect(refused?.status).toBe(405);
    expect(((await refused!.json()) as { error: { message: string } }).error.message).toContain("Method Not Allowed");
    // Only GET /mcp is capped: the operator page and the harness's GET routes still pass.
    const otherRoute = await fetch(sidecar.ready.url.replace(/\/mcp$/, "/no-such-route"), { headers: headers(token) });
    expect(otherRoute.status).toBe(404);
    const call = await post({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "ast_grep", arguments: { pattern: "$X = 1", language: "python" } } }, sessions[0]);
    expect(call.status).toBe(200);
    expect(await call.text()).toContain("a.py");
    // Streams that end make room again.
    holders.abort();
    held.length = 0;
    let after: Response | undefined;
    for (let k = 0; k < 50; k++) {
      after = await Promise.race([stream(sessions[MAX_FRONT_STREAMS + 1]!), Bun.sleep(200).then(() => undefined)]);
      if (after?.status !== 405) break;
    }
    expect(after?.status).not.toBe(405);
  }, 60_000);
});
