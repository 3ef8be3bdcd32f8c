// Abandoned MCP sessions (clients that drop them without DELETE) must not lock new clients out.
import { describe, expect, test } from "bun:test";
import { createApp, type SurfaceToken } from "../../src/http/app.ts";
import { MAX_SESSIONS_PER_SURFACE } from "../../src/http/session-table.ts";
import { ToolRegistry } from "../../src/tool/registry.ts";
import { PROBE_TOOLS } from "../helpers/probe-tools.ts";

const surface: SurfaceToken = { name: "default", tiers: ["read", "write", "exec"], token: "default-token-0123456789abcdef" };

function post(body: unknown, session?: string) {
  return new Request("http://127.0.0.1:9999/mcp", {
    method: "POST",
    headers: {
      Host: "127.0.0.1:9999",
      Authorization: `Bearer ${surface.token}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...(session ? { "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18" } : {}),
    },
    body: JSON.stringify(body),
  });
}

const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
const ping = { jsonrpc: "2.0", id: 2, method: "ping" };

describe("a full session table", () => {
  test("ends the least recently used idle session to admit a new client, never one with a call running", async () => {
    const { app, sessions } = createApp({
      registry: new ToolRegistry(() => PROBE_TOOLS),
      surfaces: [surface],
      identity: { name: "sidecar", version: "test" },
      runSignal: new AbortController().signal,
    });
    const open = async () => {
      const response = await app.request(post(initialize));
      expect(response.status).toBe(200);
      return response.headers.get("mcp-session-id")!;
    };
    // The oldest session has a call running; it must survive every eviction.
    const busy = await open();
    const call = app.request(post({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "test_slow", arguments: { ms: 60_000 } } }, busy));
    const ids = [busy];
    while (ids.length < MAX_SESSIONS_PER_SURFACE) ids.push(await open());
    expect(sessions.size).toBe(MAX_SESSIONS_PER_SURFACE);

    const newcomer = await open();
    expect(sessions.size).toBe(MAX_SESSIONS_PER_SURFACE);
    expect((await app.request(post(ping, newcomer))).status).toBe(200);
    expect((await app.request(post(ping, ids[1]))).status).toBe(404); // the least recently used idle one
    expect((await app.request(post(ping, ids[2]))).status).toBe(200);
    expect(sessions.get(busy)).toBeDefined();
    await sessions.closeAll();
    await Promise.resolve(call).catch(() => {});
  });
});
