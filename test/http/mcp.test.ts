// The official MCP SDK client against a real run: initialize, list per surface, call, progress, cancel.
import { describe, expect, test } from "bun:test";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { expectProgressThenCancel, PROBE_TOOLS } from "../helpers/probe-tools.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

describe("MCP over Streamable HTTP with the official SDK client", () => {
  test("each surface lists only the tools its tiers allow, with annotations and schemas", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const full = await (await t.client("default")).listTools();
    expect(full.tools.map((tool) => tool.name).sort()).toEqual(["test_echo", "test_exec", "test_quiet", "test_slow", "test_write"]);
    const plan = await (await t.client("plan")).listTools();
    expect(plan.tools.map((tool) => tool.name).sort()).toEqual(["test_echo", "test_quiet", "test_slow"]);

    const echo = full.tools.find((tool) => tool.name === "test_echo")!;
    expect(echo.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(echo.inputSchema).toMatchObject({ type: "object", required: ["text"] });
    expect(echo.outputSchema).toMatchObject({ type: "object" });
    const write = full.tools.find((tool) => tool.name === "test_write")!;
    expect(write.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  test("a write tool called with the plan token answers exactly as an unknown tool", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const plan = await t.client("plan");
    const outside = await plan.callTool({ name: "test_write", arguments: {} }).catch((e: unknown) => e);
    const unknown = await plan.callTool({ name: "no_such_tool", arguments: {} }).catch((e: unknown) => e);
    expect(outside).toBeInstanceOf(McpError);
    expect(unknown).toBeInstanceOf(McpError);
    expect((outside as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((outside as McpError).message.replace("test_write", "X")).toBe(
      (unknown as McpError).message.replace("no_such_tool", "X"),
    );
    expect((outside as McpError).message).toStartWith("MCP error -32602: Unknown tool: test_write. Tools available here:"); // prefixed once, by the client
  });

  test("a call returns text and structuredContent", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const client = await t.client();
    const result = await client.callTool({ name: "test_echo", arguments: { text: "ab", times: 2 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ echoed: "abab" });
    expect(result.content).toEqual([{ type: "text", text: "abab" }]);
  });

  test("bad arguments come back as an isError result naming the problem and a correct call", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const client = await t.client();
    const result = await client.callTool({ name: "test_echo", arguments: { text: 5, colour: "red" } });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toContain("Invalid arguments for test_echo");
    expect(text).toContain("text:");
    expect(text).toContain("- colour: unknown argument `colour`; test_echo takes `text`, `times`");
    expect(text).toContain("Expected arguments: {text: string, times?: integer}");
  });

  test("a tool that ran and failed returns isError with its own message", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const result = await (await t.client()).callTool({ name: "test_exec", arguments: {} });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toBe("The probe failed on purpose. Call it with nothing else to do.");
  });

  test("progress notifications arrive during a long call, and cancelling aborts it", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    await expectProgressThenCancel(await t.client());
  });

  test("a call quiet for 10 s still reports progress, so a client's no-progress timeout does not cancel it", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const messages: string[] = [];
    const result = await (await t.client()).callTool({ name: "test_quiet", arguments: { ms: 11_000 } }, undefined, {
      onprogress: (p) => messages.push(p.message ?? ""),
      timeout: 10_500,
      resetTimeoutOnProgress: true,
    });
    expect(result.structuredContent).toEqual({ finished: true });
    expect(messages).toEqual(["test_quiet is still working (10 s)"]);
  }, 30_000);

  test("a cancelled call's response stream is ended, though no answer is sent for it", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const raw = await rawSession(t);
    const call = await raw.post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "test_slow", arguments: { ms: 30_000 }, _meta: { progressToken: 2 } } });
    const events = eventLines(call);
    while (!(await events.next()).value?.includes("notifications/progress")); // the tool runs
    await raw.post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "test" } });
    // Left open, each such stream held a connection: under Bun, after ~255 of them every call hung.
    const ended = await Promise.race([drain(events).then(() => "ended"), Bun.sleep(10_000).then(() => "still open")]);
    expect(ended).toBe("ended");
  });

  test("300 cancelled calls in a row leave the server answering", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const raw = await rawSession(t);
    for (let id = 10; id < 310; id++) {
      const call = await raw.post({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "test_slow", arguments: { ms: 30_000 } } });
      await raw.post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "test" } });
      await call.text(); // ended, with no answer
    }
    const answer = await (await t.client()).callTool({ name: "test_echo", arguments: { text: "still here" } });
    expect(answer.structuredContent).toEqual({ echoed: "still here" });
  }, 120_000);

  test("an event stream opens at once: its headers arrive before its first event", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const raw = await rawSession(t);
    // A quiet call and the standalone stream send nothing for seconds; their headers must not wait for it.
    const quiet = raw.post({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "test_quiet", arguments: { ms: 20_000 } } });
    const standalone = t.fetch("/mcp", { headers: { ...raw.headers, Accept: "text/event-stream" } });
    const opened = await Promise.race([Promise.all([quiet, standalone]).then(() => "opened"), Bun.sleep(5_000).then(() => "waiting")]);
    expect(opened).toBe("opened");
    expect((await standalone).headers.get("content-type")).toStartWith("text/event-stream");
    expect((await quiet).headers.get("content-type")).toStartWith("text/event-stream");
  });

  test("ping answers and the session can be ended with DELETE", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const client = await t.client();
    await expect(client.ping()).resolves.toBeDefined();
    const transport = client.transport as unknown as { sessionId?: string; terminateSession(): Promise<void> };
    const id = transport.sessionId!;
    await transport.terminateSession();
    const after = await t.fetch("/mcp", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${t.run.surfaces.default}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "Mcp-Session-Id": id,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(after.status).toBe(404);
  });

  test("tools/list_changed reaches connected clients when the tool set changes", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const client = await t.client();
    const { ToolListChangedNotificationSchema } = await import("@modelcontextprotocol/sdk/types.js");
    let seen = false;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      seen = true;
    });
    // The SDK opens its standalone SSE stream (where server-initiated notifications travel) just
    // after initialize; announce the change until it arrives, within a bound.
    for (let i = 0; i < 100 && !seen; i++) {
      t.run.registry.changed();
      await Bun.sleep(50);
    }
    expect(seen).toBe(true);
  });
});

/** An initialized session driven with raw HTTP, for what the SDK client hides (cancelled calls' streams). */
async function rawSession(t: TestRun) {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${t.run.surfaces.default!}`,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "Mcp-Protocol-Version": "2025-06-18",
  };
  const post = (body: unknown) => t.fetch("/mcp", { method: "POST", headers, body: JSON.stringify(body) });
  const opened = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
  headers["Mcp-Session-Id"] = opened.headers.get("mcp-session-id")!;
  await opened.text();
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { headers, post };
}

/** The lines of an event-stream response, as they arrive. */
async function* eventLines(response: Response): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  let buffered = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    buffered += decoder.decode(chunk.value, { stream: true });
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    yield* lines;
  }
}

async function drain(lines: AsyncGenerator<string>): Promise<void> {
  while (!(await lines.next()).done);
}
