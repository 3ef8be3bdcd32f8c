// Who may talk to the server, and how bad requests are answered: each refusal is clear and nothing crashes.
import { describe, expect, test } from "bun:test";
import { createApp, MAX_BODY_BYTES, type SurfaceToken } from "../../src/http/app.ts";
import { isLoopbackHost } from "../../src/http/guard.ts";
import { ToolRegistry } from "../../src/tool/registry.ts";
import { PROBE_TOOLS } from "../helpers/probe-tools.ts";

const surfaces: SurfaceToken[] = [
  { name: "default", tiers: ["read", "write", "exec"], token: "default-token-0123456789abcdef" },
  { name: "plan", tiers: ["read"], token: "plan-token-0123456789abcdef012" },
];

function appUnderTest() {
  const registry = new ToolRegistry(() => PROBE_TOOLS);
  return createApp({ registry, surfaces, identity: { name: "sidecar", version: "test" }, runSignal: new AbortController().signal }).app;
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

function post(body: string, headers: Record<string, string> = {}) {
  return new Request("http://127.0.0.1:9999/mcp", {
    method: "POST",
    headers: {
      Host: "127.0.0.1:9999",
      Authorization: `Bearer ${surfaces[0]!.token}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });
}

/** The JSON-RPC messages of an answer, whether it came as JSON or as an event stream. */
async function answerMessages(response: Response): Promise<unknown[]> {
  const text = await response.text();
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) return [JSON.parse(text)].flat();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .flatMap((line) => [JSON.parse(line.slice(6))].flat());
}

async function openSession(app: ReturnType<typeof appUnderTest>): Promise<string> {
  const response = await app.request(post(JSON.stringify(INITIALIZE)));
  expect(response.status).toBe(200);
  return response.headers.get("mcp-session-id")!;
}

describe("authentication", () => {
  test.each([
    ["missing", {}],
    ["wrong", { Authorization: "Bearer not-a-token-of-this-run-at-all" }],
    ["malformed", { Authorization: "Basic abc" }],
  ])("a %s token gets 401 with a JSON-RPC error", async (_label, headers) => {
    const request = post(JSON.stringify(INITIALIZE));
    request.headers.delete("authorization");
    for (const [k, v] of Object.entries(headers)) request.headers.set(k, v);
    const response = await appUnderTest().request(request);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
    expect((await response.json()).error.message).toContain("Unauthorized");
  });

  test("a session opened with one surface's token cannot be used with another's", async () => {
    const app = appUnderTest();
    const id = await openSession(app);
    const response = await app.request(
      post(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }), {
        "Mcp-Session-Id": id,
        Authorization: `Bearer ${surfaces[1]!.token}`,
      }),
    );
    expect(response.status).toBe(403);
  });
});

describe("DNS rebinding protection", () => {
  test.each(["evil.example.com", "evil.example.com:80", "10.0.0.5:8080", ""])("Host %p is refused with 403", async (host) => {
    const response = await appUnderTest().request(post(JSON.stringify(INITIALIZE), { Host: host }));
    expect(response.status).toBe(403);
    expect((await response.json()).error.message).toContain("Host");
  });

  test.each(["localhost:1234", "127.0.0.1", "[::1]:80", "127.0.0.2:5"])("Host %p is accepted", async (host) => {
    const response = await appUnderTest().request(post(JSON.stringify(INITIALIZE), { Host: host }));
    expect(response.status).toBe(200);
  });

  test.each(["http://evil.example.com", "null", "https://attacker.test:443"])("Origin %p is refused with 403", async (origin) => {
    const response = await appUnderTest().request(post(JSON.stringify(INITIALIZE), { Origin: origin }));
    expect(response.status).toBe(403);
    expect((await response.json()).error.message).toContain("Origin");
  });

  test("loopback names: IPv4, IPv6 bare or bracketed, with or without a port; nothing else", () => {
    for (const host of ["localhost", "127.0.0.1", "127.3.4.5:80", "::1", "[::1]", "[::1]:8080", "app.localhost:3000"]) expect([host, isLoopbackHost(host)]).toEqual([host, true]);
    for (const host of ["example.com", "10.0.0.1", "::2", "[::2]:80", "127.0.0.1.evil.com"]) expect([host, isLoopbackHost(host)]).toEqual([host, false]);
  });

  test("a loopback Origin is accepted", async () => {
    const response = await appUnderTest().request(post(JSON.stringify(INITIALIZE), { Origin: "http://localhost:3000" }));
    expect(response.status).toBe(200);
  });
});

describe("bad requests", () => {
  test("a body over 4 MiB gets 413", async () => {
    const huge = JSON.stringify({ ...INITIALIZE, padding: "x".repeat(MAX_BODY_BYTES) });
    const response = await appUnderTest().request(post(huge));
    expect(response.status).toBe(413);
    expect((await response.json()).error.message).toContain("too large");
  });

  test.each(["{not json", "", "[1, 2", "\u0000\u0001"])("malformed JSON %p gets a JSON-RPC parse error", async (body) => {
    const response = await appUnderTest().request(post(body));
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe(-32700);
  });

  test("an unknown method gets JSON-RPC method-not-found", async () => {
    const app = appUnderTest();
    const id = await openSession(app);
    const response = await app.request(
      post(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/explode" }), { "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18" }),
    );
    const text = await response.text();
    expect(text).toContain("-32601");
  });

  test.each([
    [{}, "params.name must be the tool's name, a non-empty string"],
    [{ name: 5 }, "params.name must be the tool's name, a non-empty string"],
    [{ name: "test_echo", arguments: [1] }, "params.arguments must be an object of the tool's arguments"],
    [undefined, "params must be an object: {name, arguments}"],
  ])("tools/call with params %j gets invalid params in words", async (params, problem) => {
    const app = appUnderTest();
    const id = await openSession(app);
    const response = await app.request(post(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/call", params }), { "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18" }));
    expect(await answerMessages(response)).toEqual([{ jsonrpc: "2.0", id: 8, error: { code: -32602, message: `Invalid tools/call request: ${problem}.` } }]);
  });

  test("a malformed tools/call inside a batch gets the same words, and the rest of the batch its answers", async () => {
    const app = appUnderTest();
    const id = await openSession(app);
    const batch = [
      { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: 5 } },
      { jsonrpc: "2.0", id: 9, method: "ping" },
    ];
    // 2025-03-26 is the last protocol version with JSON-RPC batches.
    const response = await app.request(post(JSON.stringify(batch), { "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-03-26" }));
    const messages = (await answerMessages(response)) as { id: number; [key: string]: unknown }[];
    expect(messages.sort((a, b) => a.id - b.id)).toEqual([
      { jsonrpc: "2.0", id: 8, error: { code: -32602, message: "Invalid tools/call request: params.name must be the tool's name, a non-empty string." } },
      { jsonrpc: "2.0", id: 9, result: {} },
    ]);
  });

  test("a request for an unknown session gets 404, one without a session 400", async () => {
    const app = appUnderTest();
    const list = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    expect((await app.request(post(list, { "Mcp-Session-Id": "no-such-session" }))).status).toBe(404);
    expect((await app.request(post(list))).status).toBe(400);
  });

  test("valid JSON that is not JSON-RPC is answered, not crashed on", async () => {
    const app = appUnderTest();
    const id = await openSession(app);
    for (const body of ["42", "null", '{"jsonrpc":"2.0"}', "[]", '{"method":{"deep":[[[[]]]]}}']) {
      const response = await app.request(post(body, { "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18" }));
      expect(response.status).toBeGreaterThanOrEqual(200);
      expect(response.status).toBeLessThan(500);
    }
    // The session still works afterwards.
    const after = await app.request(
      post(JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }), { "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18" }),
    );
    expect(after.status).toBe(200);
  });
});
