// `sidecar serve --stdio`: one MCP session over stdin/stdout, driven by the official SDK's stdio
// client starting the real command (the MCP Inspector's CLI: clients-stdio.test.ts); progress,
// cancellation, MCP logging and list_changed with the probe tools on a session attached in-process;
// end of input ends everything.
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ErrorCode, LoggingMessageNotificationSchema, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { MAX_LINE_BYTES, StdioTransport } from "../../src/http/stdio-transport.ts";
import { RunLog } from "../../src/log/log.ts";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { expectProgressThenCancel, PROBE_TOOLS } from "../helpers/probe-tools.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { isAlive, survivors } from "../helpers/processes.ts";
import { jsonLines } from "../helpers/json-lines.ts";

const SIDECAR = bunPrimitives.selfCommand;
/** A spawned sidecar boots in seconds; on a loaded machine much longer. */
const SPAWNED_TEST_MS = 120_000;

/** The SDK's stdio client, starting `sidecar serve --stdio` with these flags. */
async function stdioClient(workdir: string, flags: string[] = []) {
  const transport = new StdioClientTransport({
    command: SIDECAR[0]!,
    args: [...SIDECAR.slice(1), "serve", "--stdio", "--workdir", workdir, ...flags],
    env: process.env as Record<string, string>,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "stdio-test", version: "1" });
  // A line on stdout that is not a JSON-RPC message reaches the client as an error.
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, errors, stderr: () => stderr };
}

describe("serve --stdio with the official SDK stdio client", () => {
  test(
    "the default surface's tools are listed and called; stdout carries MCP only, the logs go to stderr",
    async () => {
      await using dir = await tempDir();
      await Bun.write(join(dir.path, "app.py"), "def greet(name):\n    print('hello', name)\n");
      const { client, errors, stderr } = await stdioClient(dir.path);
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names).toContain("ast_grep");
        expect(names).toContain("ast_edit");
        expect(names).toContain("eval");
        const found = await client.callTool({ name: "ast_grep", arguments: { pattern: "print($$$A)", language: "python" } });
        expect(found.isError).toBeFalsy();
        expect((found.content as { text: string }[])[0]!.text).toContain("app.py:2");
        // A kernel and its output: the child's stdout is its own pipe, never the session's.
        const cell = await client.callTool({ name: "eval", arguments: { code: "print('from the kernel')", description: "print a line from the kernel" } });
        expect((cell.content as { text: string }[])[0]!.text).toContain("from the kernel");
        expect(errors).toEqual([]);
        expect(stderr()).toContain('over stdio with the tools of surface "default"');
      } finally {
        await client.close();
      }
    },
    SPAWNED_TEST_MS,
  );

  test(
    "--surface plan gets the read tools only; a write tool answers as an unknown one",
    async () => {
      await using dir = await tempDir();
      const { client } = await stdioClient(dir.path, ["--surface", "plan"]);
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names).toContain("ast_grep");
        expect(names).not.toContain("ast_edit");
        expect(names).not.toContain("eval");
        const refused = await client.callTool({ name: "ast_edit", arguments: {} }).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(McpError);
        expect((refused as McpError).code).toBe(ErrorCode.InvalidParams);
        expect((refused as McpError).message).toContain("Unknown tool: ast_edit");
      } finally {
        await client.close();
      }
    },
    SPAWNED_TEST_MS,
  );

  test("an unknown --surface, or --surface without --stdio, is refused before anything starts", async () => {
    await using dir = await tempDir();
    for (const [flags, words] of [
      [["--stdio", "--surface", "nobody"], "No surface named nobody; this config has: default, plan, explore."],
      [["--surface", "plan"], "--surface picks the surface of the --stdio session"],
    ] as const) {
      const child = Bun.spawn([...SIDECAR, "serve", "--workdir", dir.path, ...flags], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      expect(await child.exited).toBe(2);
      expect(await new Response(child.stderr).text()).toContain(words);
      expect(await new Response(child.stdout).text()).toBe("");
    }
  }, SPAWNED_TEST_MS);
});

describe("end of input", () => {
  test(
    "ends the run and every process it started, with exit code 0",
    async () => {
      await using dir = await tempDir();
      const child = spawn(SIDECAR[0]!, [...SIDECAR.slice(1), "serve", "--stdio", "--workdir", dir.path], { stdio: ["pipe", "pipe", "pipe"] });
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const answers = jsonLines(child.stdout);
      const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
      send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
      expect((await answers.next()).value).toMatchObject({ id: 1, result: { serverInfo: { name: "sidecar" } } });
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "eval", arguments: { code: "import os; print(os.getpid())", description: "print the kernel's process id" } } });
      const cell = (await answers.next()).value as { result: { content: { text: string }[] } };
      const kernel = Number(/^(\d+)$/m.exec(cell.result.content[0]!.text)?.[1]);
      expect(kernel).toBeGreaterThan(0);
      expect(isAlive(kernel)).toBe(true);

      child.stdin.end();
      expect(await exited).toBe(0);
      expect(stderr).toContain("stdin ended, shutting down");
      expect(await survivors([kernel])).toEqual([]);
    },
    SPAWNED_TEST_MS,
  );
});

describe("a session attached in-process (probe tools)", () => {
  /** The sidecar's end reads `toServer` and writes `fromServer`; the SDK client the other way round. */
  async function attached(t: TestRun, surface = "default") {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const server = new StdioTransport(toServer, fromServer);
    await t.run.sessions.attach({ name: surface, tiers: surface === "default" ? ["read", "write", "exec"] : ["read"] }, server);
    const client = new Client({ name: "in-process", version: "1" });
    await client.connect(new StdioTransport(fromServer, toServer));
    return { client, server, toServer, fromServer };
  }

  test("progress arrives during a call, and cancelling it aborts the tool", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const { client } = await attached(t);
    await expectProgressThenCancel(client);
    await client.close();
  });

  test("MCP logging: after logging/setLevel the session hears the run's log, its calls included", async () => {
    await using dir = await tempDir();
    const log = new RunLog();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS, log });
    const { client } = await attached(t);
    const heard: { logger?: string; level: string }[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void heard.push(notification.params));
    await client.setLoggingLevel("debug");
    await client.callTool({ name: "test_echo", arguments: { text: "hello" } });
    log.warn("record.failed", "The call record cannot be written (ENOSPC).");
    for (const deadline = Date.now() + 10_000; heard.length < 2 && Date.now() < deadline; ) await Bun.sleep(20);
    expect(heard.map((message) => [message.logger, message.level])).toEqual([
      ["call", "debug"],
      ["record.failed", "warning"],
    ]);
    await client.close();
  });

  test("tools/list_changed reaches the session when the tool set changes", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const { client } = await attached(t, "plan");
    const heard = Promise.withResolvers<void>();
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => heard.resolve());
    t.run.registry.changed();
    await heard.promise;
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["test_echo", "test_quiet", "test_slow"]);
    await client.close();
  });

  test("a line that is not JSON, a batch, or not JSON-RPC is answered with an error, and the session goes on", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    await t.run.sessions.attach({ name: "default", tiers: ["read"] }, new StdioTransport(toServer, fromServer));
    const answers = jsonLines(fromServer);
    toServer.write("not json\n");
    expect((await answers.next()).value).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: 'Parse error: a line is not JSON ("not json"); send one JSON-RPC message per line.' } });
    toServer.write('[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n');
    expect((await answers.next()).value).toMatchObject({ id: null, error: { code: -32600, message: "Invalid Request: a JSON-RPC batch; over stdio send each message on its own line." } });
    toServer.write('{"jsonrpc":"1.0","id":7}\n');
    expect((await answers.next()).value).toMatchObject({ id: 7, error: { code: -32600 } });
    toServer.write(`${"x".repeat(MAX_LINE_BYTES + 10)}\n`);
    expect((await answers.next()).value).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining("longer than") } });
    // Split across writes, CRLF-ended: still one message.
    toServer.write('{"jsonrpc":"2.0","id":2,');
    toServer.write('"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}\r\n');
    expect((await answers.next()).value).toMatchObject({ id: 2, result: { serverInfo: { name: "sidecar" } } });
  });
});
