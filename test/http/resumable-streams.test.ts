// Resumable event streams (MCP 2025-11-25), against the real listener: a priming event opens each
// response stream, a client whose connection dropped resumes with Last-Event-ID and gets what it
// missed, and resuming a stream that is over ends at once instead of holding a connection.
import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { EventLog, MAX_SETTLED_STREAMS } from "../../src/http/event-log.ts";
import { RETRY_MS } from "../../src/http/resumable-streams.ts";
import { PROBE_TOOLS } from "../helpers/probe-tools.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

interface StreamEvent {
  id?: string;
  retry?: string;
  data: string;
}

/** The events of an event-stream response as they arrive (comments skipped). */
async function* events(response: Response): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  let buffered = "";
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      buffered += decoder.decode(chunk.value, { stream: true });
      for (let end = buffered.indexOf("\n\n"); end >= 0; end = buffered.indexOf("\n\n")) {
        const lines = buffered.slice(0, end).split("\n").filter((line) => !line.startsWith(":"));
        buffered = buffered.slice(end + 2);
        if (lines.length === 0) continue;
        const field = (name: string) => lines.find((line) => line.startsWith(`${name}:`))?.slice(name.length + 1).trim();
        yield { id: field("id"), retry: field("retry"), data: lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trim()).join("\n") };
      }
    }
  } finally {
    reader.releaseLock();
  }
}

async function rawSession(t: TestRun, protocolVersion: string) {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${t.run.surfaces.default}`,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
  };
  const post = (body: unknown, signal?: AbortSignal) => t.fetch("/mcp", { method: "POST", headers, body: JSON.stringify(body), signal });
  const opened = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
  headers["Mcp-Session-Id"] = opened.headers.get("mcp-session-id")!;
  headers["Mcp-Protocol-Version"] = protocolVersion;
  await opened.text();
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  const resume = (lastEventId: string) => t.fetch("/mcp", { headers: { ...headers, Accept: "text/event-stream", "Last-Event-ID": lastEventId } });
  return { headers, post, resume };
}

const call = (id: number, name: string, args: object, progressToken?: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args, ...(progressToken === undefined ? {} : { _meta: { progressToken } }) },
});

describe("priming events", () => {
  test("a 2025-11-25 session's response stream opens with an event carrying an id, the retry delay and no data", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const session = await rawSession(t, "2025-11-25");
    const stream = events(await session.post(call(2, "test_echo", { text: "hi" })));
    expect((await stream.next()).value).toEqual({ id: expect.any(String), retry: String(RETRY_MS), data: "" });
    expect(JSON.parse(((await stream.next()).value as StreamEvent).data)).toMatchObject({ id: 2, result: { structuredContent: { echoed: "hi" } } });
  });

  test("even when a request's header names an older version: the session's negotiated version decides", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const session = await rawSession(t, "2025-11-25");
    const older = await t.fetch("/mcp", { method: "POST", headers: { ...session.headers, "Mcp-Protocol-Version": "2025-03-26" }, body: JSON.stringify(call(3, "test_echo", { text: "hi" })) });
    expect((await events(older).next()).value).toMatchObject({ retry: String(RETRY_MS), data: "" });
  });

  test("an older session's streams have none: its clients would take the empty data for a broken message", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const session = await rawSession(t, "2025-06-18");
    const all: StreamEvent[] = [];
    for await (const event of events(await session.post(call(2, "test_echo", { text: "hi" })))) all.push(event);
    expect(all.map((event) => event.data === "" || event.retry !== undefined)).toEqual([false]);
  });
});

describe("resuming a stream with Last-Event-ID", () => {
  test("after a dropped connection mid-call, the client gets the progress it missed and the answer", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const session = await rawSession(t, "2025-11-25");
    const drop = new AbortController();
    const first = events(await session.post(call(2, "test_slow", { ms: 1_500 }, 2), drop.signal));
    await first.next(); // priming
    const seen = (await first.next()).value as StreamEvent; // the first progress
    expect(JSON.parse(seen.data)).toMatchObject({ method: "notifications/progress" });
    drop.abort();

    const resumed: StreamEvent[] = [];
    for await (const event of events(await session.resume(seen.id!))) resumed.push(event);
    const messages = resumed.map((event) => JSON.parse(event.data));
    expect(messages.at(-1)).toMatchObject({ id: 2, result: { structuredContent: { finished: true } } });
    expect(messages.slice(0, -1).every((m) => m.method === "notifications/progress")).toBe(true);
    expect(messages.length).toBeGreaterThan(2);
    // Nothing seen twice: every replayed event comes after the one the client had.
    expect(resumed.every((event) => Number(event.id!.split(".").at(-1)) > Number(seen.id!.split(".").at(-1)))).toBe(true);
  });

  test("a stream that is over replays what is left and ends; with nothing left, 204", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const session = await rawSession(t, "2025-11-25");
    const all: StreamEvent[] = [];
    for await (const event of events(await session.post(call(2, "test_echo", { text: "again" })))) all.push(event);
    const [priming, answer] = all;
    const replay: StreamEvent[] = [];
    for await (const event of events(await session.resume(priming!.id!))) replay.push(event);
    expect(replay).toEqual([answer!]);
    const nothing = await session.resume(answer!.id!);
    expect(nothing.status).toBe(204);
  });

  test("the SDK client's reconnects after cancelled calls are answered at once and hold no connection", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const resumes: number[] = [];
    const client = new Client({ name: "cancels", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(t.run.url), {
        requestInit: { headers: { Authorization: `Bearer ${t.run.surfaces.default}` } },
        fetch: async (url, init) => {
          const response = await fetch(url, init);
          if (new Headers(init?.headers).has("last-event-id")) resumes.push(response.status);
          return response;
        },
      }),
    );
    for (let k = 0; k < 5; k++) {
      const controller = new AbortController();
      const running = Promise.withResolvers<void>();
      const cancelled = client.callTool({ name: "test_slow", arguments: { ms: 30_000 } }, undefined, { signal: controller.signal, onprogress: () => running.resolve() });
      await running.promise;
      controller.abort("test cancels");
      await cancelled.catch(() => {});
    }
    // The client reconnects after the retry delay; give it time, then some.
    await Bun.sleep(RETRY_MS * 3);
    expect(resumes.length).toBeGreaterThan(0);
    expect(resumes.every((status) => status === 204)).toBe(true);
    expect((await client.callTool({ name: "test_echo", arguments: { text: "still here" } })).structuredContent).toEqual({ echoed: "still here" });
    await client.close();
  });
});

describe("what a session keeps", () => {
  test("an answered stream is forgotten once its time is up, though nothing else happens in the session", async () => {
    const log = new EventLog(Date.now, 50);
    const priming = await log.storeEvent("s1", {} as never);
    await log.storeEvent("s1", { jsonrpc: "2.0", id: 1, result: {} });
    expect(log.eventsAfter(priming)).toHaveLength(1);
    await Bun.sleep(200);
    expect(log.eventsAfter(priming)).toBeUndefined();
  });

  test("a session keeps its newest answered streams, and a stream still running whatever their number", async () => {
    let now = 0;
    const log = new EventLog(() => now, 60_000);
    const running = await log.storeEvent("running", {} as never);
    await log.storeEvent("running", { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
    const primings: string[] = [];
    for (let k = 0; k <= MAX_SETTLED_STREAMS; k++) {
      now += 10;
      primings.push(await log.storeEvent(`s${k}`, {} as never));
      await log.storeEvent(`s${k}`, { jsonrpc: "2.0", id: k, result: {} });
    }
    expect(log.eventsAfter(primings[0]!)).toBeUndefined(); // the oldest of MAX + 1
    for (const priming of primings.slice(1)) expect(log.eventsAfter(priming)).toHaveLength(1);
    expect(log.eventsAfter(running)).toHaveLength(1);
    now += 60_001; // the kept time is up for every answered stream: the next answer sweeps them
    const last = await log.storeEvent("late", {} as never);
    await log.storeEvent("late", { jsonrpc: "2.0", id: 99, result: {} });
    for (const priming of primings) expect(log.eventsAfter(priming)).toBeUndefined();
    expect(log.eventsAfter(last)).toHaveLength(1);
    expect(log.eventsAfter(running)).toHaveLength(1);
  });
});
