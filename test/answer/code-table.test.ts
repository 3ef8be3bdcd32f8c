// Every error code docs/harness.md documents is provoked through the official MCP SDK client against a
// real run (real language servers, debugpy, the python kernel, worker processes, a question port),
// one row per code per tool where it applies; and the docs list no code that no row provokes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import * as v from "valibot";
import { ERROR_CODES, type ErrorCode } from "../../src/answer/error-codes.ts";
import type { RunConfig } from "../../src/config/schema.ts";
import { embeddedDefaults } from "../../src/config/defaults.ts";
import { defineTool } from "../../src/tool/define.ts";
import { MAX_WAITING_CELLS } from "../../src/kernel/cell-queue.ts";
import { requireDebugpy } from "../dap/harness.ts";
import { startQuestionPort, type TestQuestionPort } from "../helpers/question-port.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { until } from "../helpers/until.ts";
import { vibeConfig } from "../workers/helpers.ts";

/**
 * Per-call bound: a cold pyright or debugpy on a loaded machine is slow, and an lsp call may wait
 * out a server's start-up indexing (INDEXING_WAIT_MS, 60 s) and then its own wait on the same
 * progress: not_ready from the indexing stand-in took 60 s alone and over 120 s in the full suite.
 */
const CALL_TIMEOUT_MS = 200_000;

interface Answer {
  code: string | undefined;
  text: string;
  structured: Record<string, unknown>;
}

interface Fixture {
  dir: TempDir;
  run: TestRun;
  client: Client;
  port: TestQuestionPort;
  call(tool: string, args: Record<string, unknown>): Promise<Answer>;
}

/**
 * No shipped tool has a bug to provoke on purpose; the wrapper turns anything a tool throws
 * unexpectedly into internal_error, and this tool (never shipped) throws as a bug would.
 */
const buggy = defineTool({
  name: "test_buggy",
  tier: "read",
  description: "Throws as a bug would (test tool).",
  input: v.strictObject({}),
  output: v.object({}),
  async run() {
    throw new TypeError("Cannot read properties of undefined (reading 'path')");
  },
});

const FILES: Record<string, string> = {
  "pyproject.toml": "",
  "app.py": "def add(a, b):\n    return a + b\n\n\ntotal = add(1, 2) + add(3, 4)\nprint(total)\n",
  "loop.py": "import time\nfor i in range(100000):\n    x = i\n    time.sleep(0.05)\n",
  "ends.py": "print('done')\n",
  "changes.py": "print('before')\n",
  "locked.py": "print('locked')\n",
  "notes.txt": "plain text\n",
  // typescript-language-server offers refactors here, "Move to a new file" among them.
  "web/tsconfig.json": "{}\n",
  "web/shapes.ts": "export const unit = 1;\n\nexport function area(side: number): number {\n  return side * side * unit;\n}\n",
};

async function fixture(config: RunConfig, files: Record<string, string>): Promise<Fixture> {
  const dir = await tempDir();
  await dir.write(files);
  expect(Bun.spawnSync(["mkfifo", join(dir.path, "pipe.py")]).exitCode).toBe(0);
  const port = await startQuestionPort();
  const base = embeddedDefaults();
  const run = await startTestRun(
    dir.path,
    { ...config, conversation: "c1", resources: { ...base.resources, ...config.resources, questions: { port: port.url, space: "s" } } },
    { extraTools: [buggy] },
  );
  const client = await run.client();
  await client.listTools(); // from here on the SDK checks structuredContent against outputSchema
  const call = async (tool: string, args: Record<string, unknown>): Promise<Answer> => {
    const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
    const structured = (result.structuredContent ?? {}) as Record<string, unknown>;
    const error = structured.error as { code?: string } | undefined;
    return { code: result.isError ? error?.code : undefined, text: (result.content as { text: string }[])[0]?.text ?? "", structured };
  };
  return { dir, run, client, port, call };
}

/** Stages a rewrite of the file's print call; its edit id. */
async function staged(f: Fixture, file: string): Promise<string> {
  const answer = await f.call("ast_edit", { pattern: "print($X)", rewrite: "log($X)", path: file });
  expect(answer.code).toBeUndefined();
  return answer.structured.edit_id as string;
}

type Row = [code: ErrorCode, tool: string, how: string, provoke: (f: Fixture) => Promise<Answer>];

const lspAt = (file: string, line: number, symbol: string) => ({ action: "hover", file, line, symbol });

const ROWS: Row[] = [
  // invalid_arguments: the schema, for every tool, and a tool's own check of a combination.
  ...["lsp", "lsp_rename", "symbol_edit", "code_action", "ast_grep", "ast_edit", "resolve", "debug", "eval", "ask_user", "vibe_spawn", "vibe_send", "vibe_wait", "vibe_list", "vibe_kill"].map(
    (tool): Row => ["invalid_arguments", tool, "an unknown argument", (f) => f.call(tool, { bogus: 1 })],
  ),
  ["invalid_arguments", "lsp", "hover with no line", (f) => f.call("lsp", { action: "hover", file: "app.py", symbol: "add" })],
  ["invalid_arguments", "debug", "breakpoints past the file's end", (f) => f.call("debug", { operation: "breakpoints", file: "app.py", lines: [99] })],
  ["invalid_arguments", "vibe_spawn", "a tier the run does not have", (f) => f.call("vibe_spawn", { brief: "ok", label: "x", tier: "good" })],
  // not_in_workspace, not_a_regular_file, file_not_found: each tool that takes a path.
  ["not_in_workspace", "lsp", "/etc/passwd", (f) => f.call("lsp", lspAt("/etc/passwd", 1, "root"))],
  ["not_in_workspace", "lsp_rename", "a path climbing out", (f) => f.call("lsp_rename", { file: "../outside.py", line: 1, symbol: "x", new_name: "y" })],
  ["not_in_workspace", "ast_grep", "/etc", (f) => f.call("ast_grep", { pattern: "print($X)", path: "/etc" })],
  ["not_in_workspace", "ast_edit", "/etc", (f) => f.call("ast_edit", { pattern: "print($X)", rewrite: "log($X)", path: "/etc", language: "python" })],
  ["not_in_workspace", "debug", "a program outside", (f) => f.call("debug", { operation: "launch", program: "/etc/passwd" })],
  ["not_a_regular_file", "lsp", "a FIFO", (f) => f.call("lsp", lspAt("pipe.py", 1, "x"))],
  ["not_a_regular_file", "ast_grep", "a FIFO", (f) => f.call("ast_grep", { pattern: "x", path: "pipe.py" })],
  ["not_a_regular_file", "debug", "a FIFO as the program", (f) => f.call("debug", { operation: "launch", program: "pipe.py" })],
  ["file_not_found", "lsp", "a file that does not exist", (f) => f.call("lsp", lspAt("missing.py", 1, "x"))],
  ["file_not_found", "ast_grep", "nope/missing.py", (f) => f.call("ast_grep", { pattern: "x", path: "nope/missing.py" })],
  ["file_not_found", "ast_edit", "nope/missing.py", (f) => f.call("ast_edit", { pattern: "x", rewrite: "y", path: "nope/missing.py" })],
  ["file_not_found", "debug", "a program that does not exist", (f) => f.call("debug", { operation: "launch", program: "missing.py" })],
  ["file_not_found", "debug", "breakpoints in a file that does not exist", (f) => f.call("debug", { operation: "breakpoints", file: "missing.py", lines: [1] })],
  // Language servers.
  ["symbol_not_found", "lsp", "a symbol not on the line", (f) => f.call("lsp", lspAt("app.py", 1, "total"))],
  ["symbol_not_found", "lsp", "line 999", (f) => f.call("lsp", lspAt("app.py", 999, "add"))],
  ["symbol_not_found", "lsp_rename", "a symbol not on the line", (f) => f.call("lsp_rename", { file: "app.py", line: 1, symbol: "total", new_name: "sum" })],
  ["failed", "lsp_rename", "a rename that would bring an error (two parameters named b)", (f) => f.call("lsp_rename", { file: "app.py", line: 1, symbol: "a", new_name: "b" })],
  ["syntax_error", "symbol_edit", "a body that does not parse", (f) => f.call("symbol_edit", { file: "app.py", name_path: "add", operation: "replace_body", text: "return (a +" })],
  ["ambiguous_symbol", "lsp", "add twice on line 5", (f) => f.call("lsp", lspAt("app.py", 5, "add"))],
  ["ambiguous_symbol", "lsp_rename", "add twice on line 5", (f) => f.call("lsp_rename", { file: "app.py", line: 5, symbol: "add", new_name: "plus" })],
  ["server_unavailable", "lsp", "an extension no server handles", (f) => f.call("lsp", lspAt("notes.txt", 1, "plain"))],
  // code_action: addressed as lsp is, then the server's action staged.
  ["invalid_arguments", "code_action", "an action number the server does not offer", (f) => f.call("code_action", { file: "web/shapes.ts", line: 3, symbol: "area", action: 99 })],
  ["not_in_workspace", "code_action", "/etc/passwd", (f) => f.call("code_action", { file: "/etc/passwd", line: 1, symbol: "root", action: 1 })],
  ["not_a_regular_file", "code_action", "a FIFO", (f) => f.call("code_action", { file: "pipe.py", line: 1, symbol: "x", action: 1 })],
  ["file_not_found", "code_action", "a file that does not exist", (f) => f.call("code_action", { file: "missing.py", line: 1, symbol: "x", action: 1 })],
  ["symbol_not_found", "code_action", "a symbol not on the line", (f) => f.call("code_action", { file: "app.py", line: 1, symbol: "total", action: 1 })],
  ["ambiguous_symbol", "code_action", "add twice on line 5", (f) => f.call("code_action", { file: "app.py", line: 5, symbol: "add", action: 1 })],
  ["server_unavailable", "code_action", "an extension no server handles", (f) => f.call("code_action", { file: "notes.txt", line: 1, symbol: "plain", action: 1 })],
  ["unsupported", "code_action", "an action that creates a file (Move to a new file), and none is left on disk", async (f) => {
    const answer = await f.call("code_action", { file: "web/shapes.ts", line: 3, symbol: "area", action: "Move to a new file" });
    expect(existsSync(join(f.dir.path, "web", "area.ts"))).toBe(false);
    return answer;
  }],
  // Structural search and staged edits.
  ["invalid_pattern", "ast_grep", "a pattern that does not parse", (f) => f.call("ast_grep", { pattern: "def (", language: "python" })],
  ["invalid_pattern", "ast_edit", "a rewrite naming an uncaptured metavariable", (f) => f.call("ast_edit", { pattern: "print($X)", rewrite: "log($Y)", language: "python" })],
  ["unknown_language", "ast_grep", "a grammar that does not exist", (f) => f.call("ast_grep", { pattern: "x", language: "klingon" })],
  ["unknown_language", "ast_edit", "a file with no grammar", (f) => f.call("ast_edit", { pattern: "x", rewrite: "y", path: "notes.txt" })],
  ["unknown_edit", "resolve", "an id never staged", (f) => f.call("resolve", { edit_id: "edit_99", action: "accept" })],
  ["edit_not_pending", "resolve", "an edit already rejected", async (f) => {
    const id = await staged(f, "ends.py");
    expect((await f.call("resolve", { edit_id: id, action: "discard" })).code).toBeUndefined();
    return f.call("resolve", { edit_id: id, action: "discard" });
  }],
  ["unsupported", "lsp", "an action pyright does not offer", (f) => f.call("lsp", { action: "implementation", file: "app.py", line: 1, symbol: "add" })],
  ["file_changed", "resolve", "accept after the file changed", async (f) => {
    const id = await staged(f, "changes.py");
    await f.dir.write({ "changes.py": "print('changed')\n" });
    return f.call("resolve", { edit_id: id, action: "accept" });
  }],
  ["write_failed", "resolve", "accept into a read-only file", async (f) => {
    const id = await staged(f, "locked.py");
    chmodSync(join(f.dir.path, "locked.py"), 0o444);
    return f.call("resolve", { edit_id: id, action: "accept" });
  }],
  // Eval: the fixture's inactivity budget is 3 s.
  ["cell_error", "eval", "a python cell that raises", (f) => f.call("eval", { code: "raise ValueError('no')", description: "raise a value error on purpose", language: "python" })],
  ["cell_interrupted", "eval", "a silent cell past its inactivity budget", (f) => f.call("eval", { code: "import time\ntime.sleep(30)", description: "sleep quietly past the inactivity budget", language: "python" })],
  ["busy", "eval", "one cell more than the queue holds behind a running cell", async (f) => {
    // The running cell prints (the inactivity budget is 3 s) until the test releases it; 2 minutes at most.
    const [running, release] = [join(f.dir.path, "running.flag"), join(f.dir.path, "release.flag")];
    const hold = `import os, time\nopen(${JSON.stringify(running)}, "w").close()\nfor _ in range(600):\n    if os.path.exists(${JSON.stringify(release)}):\n        break\n    print(".", end="", flush=True)\n    time.sleep(0.2)\n`;
    const first = f.call("eval", { code: hold, description: "hold the kernel until the test releases it", language: "python" });
    await until("the holding cell to run", () => existsSync(running), { limitMs: CALL_TIMEOUT_MS });
    const queued = Array.from({ length: MAX_WAITING_CELLS + 1 }, (_, i) => f.call("eval", { code: String(i), description: "wait in the kernel's queue behind the holding cell", language: "python" }));
    const refused = await Promise.race(queued); // the one past the queue's bound is answered at once; the rest wait
    writeFileSync(release, "");
    await Promise.all([first, ...queued]);
    return refused;
  }],
  // Debug: no adapter for the file, or one that is not installed.
  ["unsupported", "debug", "a program no adapter takes", (f) => f.call("debug", { operation: "launch", program: "notes.txt" })],
  ["server_unavailable", "debug", "the dart adapter, not installed", (f) => f.call("debug", { operation: "launch", program: "ends.py", adapter: "dart" })],
  // Workers: the fixture allows one spawn.
  ["spawn_limit", "vibe_spawn", "a second spawn past maxSpawns 1", async (f) => {
    expect((await f.call("vibe_spawn", { brief: "finishes.sh\ndo it", label: "first" })).code).toBeUndefined();
    return f.call("vibe_spawn", { brief: "finishes.sh\nagain", label: "second" });
  }],
  // Workers.
  ["unknown_worker", "vibe_send", "an id no worker has", (f) => f.call("vibe_send", { worker_id: "w9", message: "hi" })],
  ["unknown_worker", "vibe_wait", "an id no worker has", (f) => f.call("vibe_wait", { worker_id: "w9" })],
  ["unknown_worker", "vibe_kill", "an id no worker has", (f) => f.call("vibe_kill", { worker_id: "w9" })],
  // Questions: the port answers as a harness would.
  ["no_human", "ask_user", "the port says nobody is there", (f) => {
    f.port.onPost = () => ({ outcome: "no_human", reason: "the window is closed" });
    return f.call("ask_user", { question: "Proceed?", allow_free_text: true });
  }],
  ["timeout", "ask_user", "the port says nobody answered in time", (f) => {
    f.port.onPost = () => ({ outcome: "timeout" });
    return f.call("ask_user", { question: "Proceed now?", allow_free_text: true });
  }],
  ["port_failed", "ask_user", "the port answers an option the card does not have", (f) => {
    f.port.onPost = () => ({ outcome: "answered", option_ids: ["o9"] });
    return f.call("ask_user", { question: "Which one?", options: [{ label: "A" }, { label: "B" }] });
  }],
  ["busy", "ask_user", "a second question while one is open", async (f) => {
    f.port.onPost = () => ({ outcome: "pending" });
    const first = f.call("ask_user", { question: "First?", allow_free_text: true });
    const card = await f.port.card(f.port.cards.length + 1);
    const second = await f.call("ask_user", { question: "Second?", allow_free_text: true });
    f.port.settle(card.id, { outcome: "answered", text: "yes" });
    await first;
    return second;
  }],
  // Any tool: a bug.
  ["internal_error", "test_buggy", "a tool that throws unexpectedly", (f) => f.call("test_buggy", {})],
];

// The debugger's states come in order: before a launch, stopped, running, ended.
const DEBUG_ROWS: Row[] = [
  ["no_session", "debug", "continue with no session", (f) => f.call("debug", { operation: "continue" })],
  ["no_session", "debug", "restart with nothing launched", (f) => f.call("debug", { operation: "restart" })],
  ["program_stopped", "debug", "pause at a breakpoint", async (f) => {
    requireDebugpy();
    expect((await f.call("debug", { operation: "breakpoints", file: "loop.py", lines: [3] })).code).toBeUndefined();
    expect((await f.call("debug", { operation: "launch", program: "loop.py" })).code).toBeUndefined();
    return f.call("debug", { operation: "pause" });
  }],
  ["unknown_reference", "debug", "variables of a reference never given", (f) => f.call("debug", { operation: "variables", reference: 99999 })],
  ["server_error", "debug", "an expression the adapter refuses", (f) => f.call("debug", { operation: "evaluate", expression: "1 +" })],
  ["stale_reference", "debug", "scopes of a frame from the stop before", async (f) => {
    const stack = await f.call("debug", { operation: "stack" });
    const frame = (stack.structured.frames as { id: number }[])[0]!.id;
    expect((await f.call("debug", { operation: "continue" })).code).toBeUndefined(); // stops on line 3 again
    return f.call("debug", { operation: "scopes", frame_id: frame });
  }],
  ["program_running", "debug", "stack while it runs", async (f) => {
    expect((await f.call("debug", { operation: "breakpoints", file: "loop.py", lines: [] })).code).toBeUndefined();
    expect((await f.call("debug", { operation: "continue" })).code).toBeUndefined();
    return f.call("debug", { operation: "stack" });
  }],
  ["session_ended", "debug", "stack after the program exited", async (f) => {
    expect((await f.call("debug", { operation: "terminate" })).code).toBeUndefined();
    expect((await f.call("debug", { operation: "launch", program: "ends.py" })).code).toBeUndefined();
    return f.call("debug", { operation: "stack" });
  }],
];

/**
 * A checkout with no Python root marker, a python that does not exist, and a language server that
 * is forever indexing (fixtures/indexing-server.py) for `.idx` files.
 */
const BARE_FILES: Record<string, string> = { "script.py": "value = 1\n", "idx.toml": "", "busy.idx": "value\n" };
const BARE_CONFIG: RunConfig = {
  resources: {
    kernels: { python: "/nonexistent/python3" },
    languageServers: {
      servers: { indexing: { command: "/usr/bin/python3", args: [join(import.meta.dir, "fixtures", "indexing-server.py")], extensions: [".idx"], rootMarkers: ["idx.toml"] } },
    },
  },
};

const BARE_ROWS: Row[] = [
  ["server_unavailable", "lsp", "a .py file with no Python root marker", (f) => f.call("lsp", lspAt("script.py", 1, "value"))],
  ["server_unavailable", "eval", "a python that does not exist", (f) => f.call("eval", { code: "1", description: "add nothing to check the kernel starts", language: "python" })],
  ["not_ready", "lsp", "an empty hover from a server still indexing", (f) => f.call("lsp", lspAt("busy.idx", 1, "value"))],
];

let main: Fixture;
let bare: Fixture;

beforeAll(async () => {
  main = await fixture({ ...vibeConfig({}, { maxSpawns: 1 }), resources: { ...vibeConfig({}, { maxSpawns: 1 }).resources, kernels: { inactivitySeconds: 3 } } }, FILES);
  bare = await fixture(BARE_CONFIG, BARE_FILES);
}, CALL_TIMEOUT_MS);

afterAll(async () => {
  await main?.run[Symbol.asyncDispose]();
  await main?.port[Symbol.asyncDispose]();
  await main?.dir[Symbol.asyncDispose]();
  await bare?.run[Symbol.asyncDispose]();
  await bare?.port[Symbol.asyncDispose]();
  await bare?.dir[Symbol.asyncDispose]();
});

describe("each documented error code, through the SDK client", () => {
  test.each([...ROWS, ...DEBUG_ROWS].map((row) => [`${row[0]} from ${row[1]}: ${row[2]}`, row] as const))(
    "%s",
    async (_name, [code, , , provoke]) => {
      const answer = await provoke(main);
      expect({ code: answer.code, text: answer.text }).toEqual({ code, text: expect.any(String) });
    },
    CALL_TIMEOUT_MS * 2,
  );
  test.each(BARE_ROWS.map((row) => [`${row[0]} from ${row[1]}: ${row[2]}`, row] as const))(
    "%s",
    async (_name, [code, , , provoke]) => {
      const answer = await provoke(bare);
      expect({ code: answer.code, text: answer.text }).toEqual({ code, text: expect.any(String) });
    },
    CALL_TIMEOUT_MS * 2,
  );
});

/** Codes the rows above provoke, per tool; the cancelled row below adds its own. */
const PROVOKED = new Set<string>([...ROWS, ...DEBUG_ROWS, ...BARE_ROWS].map(([code]) => code));

describe("cancelled, through the SDK client", () => {
  // A client that cancels a call gets no answer (MCP: the server sends none), so the code a client
  // can read is the one of a call the run's shutdown ends while it works.
  test("cancelled from ask_user: the run shuts down while the question waits", async () => {
    const f = await fixture({}, { "a.txt": "" });
    try {
      f.port.onPost = () => ({ outcome: "pending" });
      const asked = f.call("ask_user", { question: "Proceed?", allow_free_text: true });
      await f.port.card(1); // the call is in flight
      const closed = f.run.run.close();
      expect((await asked).code).toBe("cancelled");
      await closed;
    } finally {
      await f.run[Symbol.asyncDispose]();
      await f.port[Symbol.asyncDispose]();
      await f.dir[Symbol.asyncDispose]();
    }
  }, CALL_TIMEOUT_MS);
});

test("docs/harness.md lists exactly the codes a row provokes", () => {
  const doc = readFileSync(join(import.meta.dir, "..", "..", "docs", "harness.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Errors a program can read"));
  const listed = [...section.slice(0, section.search(/\n##+ (?!Errors a program)/)).matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]!);
  expect(listed.sort()).toEqual([...PROVOKED, "cancelled"].sort());
  expect(Object.keys(ERROR_CODES).sort()).toEqual(listed.sort());
  // The queue's bound the busy row fills is the one the docs name.
  expect(section).toContain(`${MAX_WAITING_CELLS} cells already wait for the eval kernel`);
});
