// A client that accepts JSON but not event streams gets JSON, against the real listener: the MCP
// transport lets the server answer a POST either way, and the SDK's alone refused it with 406.
import { describe, expect, test } from "bun:test";
import { acceptsOnlyJson } from "../../src/http/json-answer.ts";
import { PROBE_TOOLS } from "../helpers/probe-tools.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "json", version: "1" } } };

function poster(t: TestRun, accept: string | undefined) {
  const headers: Record<string, string> = { Authorization: `Bearer ${t.run.surfaces.default}`, "Content-Type": "application/json", "Mcp-Protocol-Version": "2025-06-18" };
  if (accept !== undefined) headers.Accept = accept;
  return {
    headers,
    post: (body: unknown) => t.fetch("/mcp", { method: "POST", headers, body: JSON.stringify(body) }),
  };
}

/** An initialized session whose requests send this Accept header. */
async function session(t: TestRun, accept: string | undefined) {
  const client = poster(t, accept);
  const opened = await client.post(INITIALIZE);
  expect(opened.status).toBe(200);
  expect(opened.headers.get("content-type")).toStartWith(accept === undefined || !accept.includes("event-stream") ? "application/json" : "text/event-stream");
  client.headers["Mcp-Session-Id"] = opened.headers.get("mcp-session-id")!;
  await opened.text();
  expect((await client.post({ jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
  return client;
}

describe("Accept: application/json without text/event-stream", () => {
  test.each(["application/json", "application/json;q=0.9", "*/*", undefined])("Accept %p: initialize, a call with progress and tools/list are answered in JSON", async (accept) => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const client = await session(t, accept);
    const call = await client.post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "test_slow", arguments: { ms: 100 }, _meta: { progressToken: 2 } } });
    expect(call.headers.get("content-type")).toStartWith("application/json");
    // The progress it reported along the way cannot travel in a JSON answer: only the result does.
    expect(await call.json()).toMatchObject({ jsonrpc: "2.0", id: 2, result: { structuredContent: { finished: true } } });
    const list = await client.post({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    expect(list.headers.get("content-type")).toStartWith("application/json");
    expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(PROBE_TOOLS.length);
  });

  test("a batch gets an array of its answers", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const client = await session(t, "application/json");
    client.headers["Mcp-Protocol-Version"] = "2025-03-26"; // the last version with batches
    const answer = await client.post([
      { jsonrpc: "2.0", id: 4, method: "ping" },
      { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "test_echo", arguments: { text: "x" } } },
    ]);
    const messages = (await answer.json()) as { id: number }[];
    expect(messages.map((m) => m.id).sort()).toEqual([4, 5]);
  });

  test("a call the client cancels ends with 202 and no body", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const client = await session(t, "application/json");
    const call = client.post({ jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "test_slow", arguments: { ms: 30_000 } } });
    // No progress can tell when the call runs, and a cancel that comes first is ignored: repeat it.
    let ended: Response | undefined;
    while (!ended) {
      await client.post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 6, reason: "test" } });
      ended = await Promise.race([call, Bun.sleep(200).then(() => undefined)]);
    }
    expect(ended.status).toBe(202);
    expect(await ended.text()).toBe("");
  });

  test("a client that names the event stream gets one; one accepting neither gets 406", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    await session(t, "application/json, text/event-stream");
    const refused = await poster(t, "text/html").post(INITIALIZE);
    expect(refused.status).toBe(406);
  });

  test("which Accept headers count as JSON only", () => {
    for (const accept of ["application/json", "Application/JSON", "application/*", "*/*", "", undefined, "text/html, application/json"]) expect([accept, acceptsOnlyJson(accept)]).toEqual([accept, true]);
    for (const accept of ["text/event-stream", "application/json, text/event-stream", "text/html", "image/png"]) expect([accept, acceptsOnlyJson(accept)]).toEqual([accept, false]);
  });
});
