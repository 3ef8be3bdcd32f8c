// Every limit docs/harness.md lists ("Limits") is provoked at its value and one past it, with a
// client that sends its whole request before it reads, and the client gets a status and a sentence;
// a row the docs list with no case here, or a value that is not the code's, fails.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSidecar } from "../../build/spawn-sidecar.ts";
import { MAX_BODY_BYTES, MAX_DRAINED_BODY_BYTES } from "../../src/http/body-limit.ts";
import { MAX_SESSIONS_PER_SURFACE } from "../../src/http/session-table.ts";
import { MAX_LINE_BYTES } from "../../src/http/stdio-transport.ts";
import { MAX_ANSWER_TEXT_BYTES } from "../../src/tool/invoke.ts";
import { PROBE_TOOLS } from "../helpers/probe-tools.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { holdQuietCall, INITIALIZE, initializeSession, postMcp, writeAllThenRead } from "../helpers/raw-mcp.ts";
import { jsonLines } from "../helpers/json-lines.ts";

const root = join(import.meta.dir, "..", "..");
const MAIN = join(root, "src", "main.ts");
/** Its own bundle: runtimes.test.ts builds another, and the two may run at once. */
const nodeBundle = join(root, "dist", "test", "limits.node.mjs");

/** The docs' limits, by the row's first cell, with the value the code holds. */
const LIMITS: Record<string, number> = {
  "request body": MAX_BODY_BYTES,
  "line over stdio": MAX_LINE_BYTES,
  "sessions per surface": MAX_SESSIONS_PER_SURFACE,
  "answer text": MAX_ANSWER_TEXT_BYTES,
};

/** A JSON-RPC message padded with trailing spaces (still one JSON value) to exactly `bytes`. */
function paddedTo(message: object, bytes: number): Buffer {
  const text = JSON.stringify(message);
  return Buffer.from(text + " ".repeat(bytes - Buffer.byteLength(text)));
}

test("docs/harness.md lists exactly the limits this file provokes, at the code's values", () => {
  const doc = readFileSync(join(root, "docs", "harness.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Limits"));
  const rows = [...section.slice(0, section.indexOf("\n## ", 1)).matchAll(/^\| ([a-z ]+) \| ([^|]+) \|/gm)].filter((m) => m[1] !== "limit");
  expect(rows.map((m) => m[1]).sort()).toEqual(Object.keys(LIMITS).sort());
  for (const [, name, value] of rows) {
    // "4 MiB (4194304 bytes)" or "256": the number in parentheses, else the first.
    const stated = Number((/\((\d+) bytes\)/.exec(value!) ?? /(\d+)/.exec(value!))![1]);
    expect([name, stated]).toEqual([name, LIMITS[name!]]);
  }
});

describe("request body", () => {
  beforeAll(() => {
    execFileSync(process.execPath, ["build", join(root, "src", "main.node.ts"), "--target=node", "--outfile", nodeBundle], { stdio: "pipe" });
  });

  // The 413 was lost only under Node (@hono/node-server closed mid-body); Bun drained the body itself.
  const runtimes: [string, (workdir: string) => string[], NodeJS.ProcessEnv][] = [
    ["bun", (w) => [process.execPath, MAIN, "serve", "--workdir", w], process.env],
    ["node", (w) => ["node", nodeBundle, "serve", "--workdir", w], { ...process.env, SIDECAR_ROOT: root }],
  ];

  test.each(runtimes)("%s: a POST /mcp of exactly the limit is served; one byte more, and 5 MiB, get 413 and a sentence", async (_name, argv, env) => {
    await using dir = await tempDir();
    const sidecar = await spawnSidecar(argv(dir.path), { env, cwd: root });
    try {
      const post = (size: number) => writeAllThenRead(new URL(sidecar.ready.url), sidecar.ready.surfaces.default!, INITIALIZE, size);

      const atLimit = await post(MAX_BODY_BYTES);
      expect(atLimit.status).toBe(200);
      expect(JSON.parse(atLimit.body)).toMatchObject({ id: 1, result: { serverInfo: { name: "sidecar" } } });

      for (const size of [MAX_BODY_BYTES + 1, 5 * 1024 * 1024]) {
        const past = await post(size);
        expect([size, past.status]).toEqual([size, 413]);
        expect(past.headers.connection).toBe("close");
        expect(JSON.parse(past.body)).toEqual({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32000, message: `Request body too large: it is ${size} bytes, over the limit of ${MAX_BODY_BYTES} bytes (4 MiB); send a smaller request (split a large argument over several calls).` },
        });
      }

      // Past what is drained, the sidecar stops reading: the client gets the 413 if the rest of its
      // body fit in the socket's buffers, else a failed write; the sidecar serves on either way.
      const beyond = await post(MAX_DRAINED_BODY_BYTES + 1024 * 1024).catch((error: Error) => error);
      if (beyond instanceof Error) expect(beyond.message).toMatch(/writing the request failed: (EPIPE|ECONNRESET)/);
      else expect(JSON.parse(beyond.body).error.message).toContain(`it is more than ${MAX_DRAINED_BODY_BYTES} bytes, over the limit`);
      expect((await post(1024)).status).toBe(200);
    } finally {
      expect(await sidecar.stop()).toBe(0);
    }
  }, 120_000);
});

describe("line over stdio", () => {
  test("a line of exactly the limit is answered; one byte more gets an error naming the bound, and the next message is answered", async () => {
    await using dir = await tempDir();
    const child = spawn(process.execPath, [MAIN, "serve", "--stdio", "--workdir", dir.path], { stdio: ["pipe", "pipe", "pipe"] });
    const answers = jsonLines(child.stdout!);
    const send = (line: Buffer) => new Promise<void>((resolve, reject) => child.stdin!.write(Buffer.concat([line, Buffer.from("\n")]), (e) => (e ? reject(e) : resolve())));
    try {
      await send(Buffer.from(JSON.stringify(INITIALIZE)));
      expect(await answers.next()).toMatchObject({ value: { id: 1, result: { serverInfo: { name: "sidecar" } } } });
      await send(Buffer.from('{"jsonrpc":"2.0","method":"notifications/initialized"}'));

      await send(paddedTo({ jsonrpc: "2.0", id: 2, method: "ping" }, MAX_LINE_BYTES));
      expect((await answers.next()).value).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
      await send(paddedTo({ jsonrpc: "2.0", id: 3, method: "ping" }, MAX_LINE_BYTES + 1));
      expect((await answers.next()).value).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: `Invalid Request: a line longer than ${MAX_LINE_BYTES} bytes was skipped; send one JSON-RPC message per line, each under that bound.` },
      });
      await send(Buffer.from('{"jsonrpc":"2.0","id":4,"method":"ping"}'));
      expect((await answers.next()).value).toEqual({ jsonrpc: "2.0", id: 4, result: {} });
    } finally {
      child.stdin!.end();
      await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
    }
  }, 120_000);
});

describe("sessions per surface", () => {
  test("at the cap with a call running in each, a new session gets 503 and a sentence; a session closed frees its slot", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const held: { destroy(): void }[] = [];
    try {
      const ids: string[] = [];
      for (let k = 0; k < MAX_SESSIONS_PER_SURFACE; k++) {
        const id = await initializeSession(t, "default");
        held.push(await holdQuietCall(t, "default", id));
        ids.push(id);
      }
      const refused = await postMcp(t, "default", JSON.stringify(INITIALIZE));
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.body)).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, message: `Too many sessions: all ${MAX_SESSIONS_PER_SURFACE} of this token's MCP sessions have a call running, the most a surface holds; wait for one to finish, or close one (DELETE /mcp), and retry.` },
      });
      // Another surface's sessions are counted apart.
      expect((await postMcp(t, "plan", JSON.stringify(INITIALIZE))).status).toBe(200);

      expect((await postMcp(t, "default", "", { method: "DELETE", session: ids[0] })).status).toBe(200);
      const reopened = await postMcp(t, "default", JSON.stringify(INITIALIZE));
      expect(reopened.status).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
    }
  }, 180_000);

  test("at the cap with every session idle, a new session is served and the least recently used one answers 404 with a sentence", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const ids: string[] = [];
    for (let k = 0; k < MAX_SESSIONS_PER_SURFACE; k++) ids.push(await initializeSession(t, "default"));
    expect((await postMcp(t, "default", JSON.stringify(INITIALIZE))).status).toBe(200);
    const evicted = await postMcp(t, "default", '{"jsonrpc":"2.0","id":2,"method":"ping"}', { session: ids[0] });
    expect(evicted.status).toBe(404);
    expect(JSON.parse(evicted.body).error.message).toBe("Session not found: it ended or never existed; initialize a new one.");
    expect((await postMcp(t, "default", '{"jsonrpc":"2.0","id":2,"method":"ping"}', { session: ids[1] })).status).toBe(200);
  }, 180_000);
});

describe("answer text", () => {
  let run: Awaited<ReturnType<typeof startTestRun>>;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir();
    run = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
  });
  afterAll(async () => {
    await run[Symbol.asyncDispose]();
    await dir[Symbol.asyncDispose]();
  });

  test("an answer of exactly the limit arrives whole through the SDK client", async () => {
    const client = await run.client();
    const answer = await client.callTool({ name: "test_echo", arguments: { text: "x", times: MAX_ANSWER_TEXT_BYTES } });
    expect((answer.content as { text: string }[])[0]!.text).toBe("x".repeat(MAX_ANSWER_TEXT_BYTES));
  });

  test("one byte more is cut in the middle, and the answer says so with both sizes", async () => {
    const client = await run.client();
    const answer = await client.callTool({ name: "test_echo", arguments: { text: "x", times: MAX_ANSWER_TEXT_BYTES + 1 } });
    const text = (answer.content as { text: string }[])[0]!.text;
    expect(text).toEndWith(`\n(This answer was ${MAX_ANSWER_TEXT_BYTES + 1} bytes, over the ${MAX_ANSWER_TEXT_BYTES} every answer is held to; the middle was cut. Narrow the call to see the rest.)`);
    expect(Buffer.byteLength(text)).toBeLessThan(MAX_ANSWER_TEXT_BYTES + 200);
  });
});
