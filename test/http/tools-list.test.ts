// tools/list is answered from a cached, serialized list: the same tools the SDK path gives, the
// surface's own, rebuilt when the tool set changes; requests the SDK would refuse still go to it.
import { describe, expect, test } from "bun:test";
import { createApp, type SurfaceToken } from "../../src/http/app.ts";
import { describeTool } from "../../src/http/describe-tool.ts";
import type { Tool } from "../../src/tool/define.ts";
import { ToolRegistry } from "../../src/tool/registry.ts";
import { echoTool, execProbeTool, PROBE_TOOLS } from "../helpers/probe-tools.ts";

const full: SurfaceToken = { name: "default", tiers: ["read", "write", "exec"], token: "default-token-0123456789abcdef" };
const plan: SurfaceToken = { name: "plan", tiers: ["read"], token: "plan-token-0123456789abcdefgh" };

function post(token: string, body: unknown, session?: string, headers: Record<string, string> = {}) {
  return new Request("http://127.0.0.1:9999/mcp", {
    method: "POST",
    headers: {
      Host: "127.0.0.1:9999",
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...(session ? { "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18" } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };

function setUp(tools: () => readonly Tool[] = () => PROBE_TOOLS) {
  const registry = new ToolRegistry(tools);
  const heard = { messages: 0 };
  const activity = { callStarted() {}, callEnded() {}, requestHeard: () => heard.messages++ };
  const { app, sessions } = createApp({ registry, surfaces: [full, plan], identity: { name: "sidecar", version: "test" }, runSignal: new AbortController().signal, activity });
  const open = async (surface: SurfaceToken) => (await app.request(post(surface.token, initialize))).headers.get("mcp-session-id")!;
  return { app, sessions, registry, open, heard };
}

describe("tools/list", () => {
  test("answers each surface with its own tools, as the SDK path would, keeping the request id", async () => {
    const { app, sessions, open } = setUp();
    for (const [surface, id] of [[full, 7], [plan, "req-8"]] as const) {
      const session = await open(surface);
      const response = await app.request(post(surface.token, { jsonrpc: "2.0", id, method: "tools/list", params: { cursor: "ignored" } }, session));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(response.headers.get("mcp-session-id")).toBe(session);
      const expected = PROBE_TOOLS.filter((tool) => surface.tiers.includes(tool.tier)).map(describeTool);
      expect(await response.json()).toEqual({ jsonrpc: "2.0", id, result: { tools: JSON.parse(JSON.stringify(expected)) } });
    }
    await sessions.closeAll();
  });

  test("the run hears of every tools/list, the cached answers and the SDK's alike (its idle reclaim waits for quiet)", async () => {
    const { app, sessions, open, heard } = setUp();
    const session = await open(full);
    const before = heard.messages;
    const list = { jsonrpc: "2.0", id: 3, method: "tools/list" };
    expect((await app.request(post(full.token, list, session))).headers.get("content-type")).toBe("application/json"); // cached
    expect(heard.messages).toBe(before + 1);
    expect(await (await app.request(post(full.token, [list], session))).text()).toContain('"tools"'); // a batch: the SDK's path
    expect(heard.messages).toBe(before + 2);
    await sessions.closeAll();
  });

  test("a change in the tool set is in the next answer", async () => {
    let tools: readonly Tool[] = [echoTool];
    const { app, sessions, registry, open } = setUp(() => tools);
    const session = await open(full);
    const names = async () => ((await (await app.request(post(full.token, { jsonrpc: "2.0", id: 2, method: "tools/list" }, session))).json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect(await names()).toEqual(["test_echo"]);
    tools = [echoTool, execProbeTool];
    registry.changed();
    expect(await names()).toEqual(["test_echo", "test_exec"]);
    await sessions.closeAll();
  });

  test("a request the SDK would refuse gets the SDK's refusal: unsupported protocol version, an Accept naming neither form, a batch", async () => {
    const { app, sessions, open } = setUp();
    const session = await open(full);
    const list = { jsonrpc: "2.0", id: 3, method: "tools/list" };
    const badVersion = await app.request(post(full.token, list, session, { "Mcp-Protocol-Version": "1999-01-01" }));
    expect(badVersion.status).toBe(400);
    expect(await badVersion.text()).toContain("Unsupported protocol version");
    // Accepting JSON alone is answered in JSON (json-answer.test.ts); accepting neither form is refused.
    const noAccept = await app.request(post(full.token, list, session, { Accept: "text/plain" }));
    expect(noAccept.status).toBe(406);
    const batch = await app.request(post(full.token, [list], session));
    expect(batch.headers.get("content-type")).toContain("text/event-stream"); // answered by the SDK, as a stream
    expect(await batch.text()).toContain('"tools"');
    await sessions.closeAll();
  });
});
