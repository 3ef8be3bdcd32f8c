// `serve --stdio` with no --workdir and no config serves the client's first MCP root: the official
// SDK client starts a real sidecar over stdio, declares (or not) `roots`, and answers roots/list.
import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema, type ListRootsResult } from "@modelcontextprotocol/sdk/types.js";
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { until } from "../helpers/until.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");
/** A spawned sidecar boots in a second; on a loaded machine much longer. */
const SPAWNED_TEST_MS = 120_000;

interface Started extends AsyncDisposable {
  client: Client;
  /** What the sidecar wrote on stderr so far (its log). */
  stderr(): string;
  /** How many times the sidecar asked for the roots. */
  asked(): number;
  /** Resolves with the sidecar's exit code. */
  exited: Promise<number | null>;
}

/** A sidecar started as a client starts it: `serve --stdio` plus `args`, in `cwd`, HOME set to `home`. */
async function start(options: { cwd: string; home: string; roots?: () => ListRootsResult | Promise<ListRootsResult>; args?: string[] }): Promise<Started> {
  let asked = 0;
  const client = new Client({ name: "roots-client", version: "1.0.0" }, { capabilities: options.roots ? { roots: { listChanged: true } } : {} });
  if (options.roots) {
    const roots = options.roots;
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked++;
      return roots();
    });
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, "serve", "--stdio", ...(options.args ?? [])],
    cwd: options.cwd,
    env: { ...(process.env as Record<string, string>), HOME: options.home },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  // The SDK's transport keeps its child to itself; its exit code is what a client's log would show.
  const child = (transport as unknown as { _process: ChildProcess })._process;
  const exited = child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    client,
    stderr: () => stderr,
    asked: () => asked,
    exited,
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}

/** The files an ast_grep with no path finds: which folder the run serves. */
async function servedFiles(client: Client): Promise<string[]> {
  const result = await client.callTool({ name: "ast_grep", arguments: { pattern: "print($A)", language: "python" } });
  const matches = (result.structuredContent as { matches: { path: string }[] }).matches;
  return matches.map((m) => m.path).sort();
}

async function folders(): Promise<{ root: TempDir; other: TempDir; cwd: TempDir; home: TempDir } & AsyncDisposable> {
  const [root, other, cwd, home] = await Promise.all([tempDir("roots-first-"), tempDir("roots-second-"), tempDir("roots-cwd-"), tempDir("roots-home-")]);
  await root.write({ "in_root.py": 'print("root")\n' });
  await other.write({ "in_other.py": 'print("other")\n' });
  await cwd.write({ "in_cwd.py": 'print("cwd")\n' });
  return {
    root,
    other,
    cwd,
    home,
    async [Symbol.asyncDispose]() {
      for (const dir of [root, other, cwd, home]) await dir[Symbol.asyncDispose]();
    },
  };
}

const uri = (path: string) => pathToFileURL(path).href;

describe("serve --stdio without --workdir: the checkout from the client's roots", () => {
  test(
    "several roots: the first is served and the list logged; tools/list sent before the roots came back is answered in full; a later list_changed is logged, not followed",
    async () => {
      await using dirs = await folders();
      const roots = { roots: [{ uri: uri(dirs.root.path), name: "first" }, { uri: uri(dirs.other.path) }] };
      // The roots come back late, so the client's tools/list is in before the checkout is known.
      await using s = await start({ cwd: dirs.cwd.path, home: dirs.home.path, roots: () => Bun.sleep(300).then(() => roots) });
      const { tools } = await s.client.listTools();
      expect(tools.map((t) => t.name)).toContain("ast_grep");
      expect(tools.map((t) => t.name)).toContain("lsp");
      expect(await servedFiles(s.client)).toEqual(["in_root.py"]);
      expect(s.stderr()).toContain(`serving ${dirs.root.path}, the client's root; of its 2 roots (${uri(dirs.root.path)}, ${uri(dirs.other.path)}) only the first is served`);

      await s.client.sendRootsListChanged();
      await until("the log line of the changed roots", () => s.stderr().includes("the client's roots changed"));
      expect(s.stderr()).toContain(`the client's roots changed; this run keeps serving ${dirs.root.path}`);
      expect(await servedFiles(s.client)).toEqual(["in_root.py"]);
      expect(s.asked()).toBe(1);
    },
    SPAWNED_TEST_MS,
  );

  test(
    "--workdir always wins: the roots are never asked for",
    async () => {
      await using dirs = await folders();
      await using s = await start({ cwd: dirs.cwd.path, home: dirs.home.path, roots: () => ({ roots: [{ uri: uri(dirs.root.path) }] }), args: ["--workdir", dirs.other.path] });
      expect(await servedFiles(s.client)).toEqual(["in_other.py"]);
      expect(s.asked()).toBe(0);
    },
    SPAWNED_TEST_MS,
  );

  test.each([
    ["a client that declares no roots", undefined, "the client declared no MCP roots"],
    ["a client with no roots", () => ({ roots: [] }), "the client listed no roots"],
    ["a client whose roots are no folders", () => ({ roots: [{ uri: "https://example.com/repo" }] }), "none of the client's roots is a file:// folder (https://example.com/repo)"],
    [
      "a client that fails roots/list",
      () => {
        throw new Error("no workspace open");
      },
      "the client did not list its roots (",
    ],
  ] as const)(
    "%s: the current directory is served, saying why",
    async (_, roots, why) => {
      await using dirs = await folders();
      await using s = await start({ cwd: dirs.cwd.path, home: dirs.home.path, roots });
      expect(await servedFiles(s.client)).toEqual(["in_cwd.py"]);
      expect(s.stderr()).toContain(`serving the current directory ${dirs.cwd.path}: ${why}`);
    },
    SPAWNED_TEST_MS,
  );

  test.each([
    ["/", "/"],
    ["the home folder", "home"],
  ])(
    "no roots and started in %s: it stops with one sentence asking for --workdir",
    async (where, cwd) => {
      await using dirs = await folders();
      await using s = await start({ cwd: cwd === "/" ? "/" : dirs.home.path, home: dirs.home.path });
      expect(await s.exited).toBe(2);
      expect(s.stderr()).toContain(
        `serve --stdio has no checkout to serve: the client declared no MCP roots, and it was started in ${where}, which is not served whole; pass the checkout with --workdir.`,
      );
    },
    SPAWNED_TEST_MS,
  );
});
