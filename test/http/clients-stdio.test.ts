// docs/clients.md, over stdio: the SDK snippet and the MCP Inspector's line run as written against
// `serve --stdio` (a `sidecar` on PATH runs this checkout), and each client's config has the shape
// that client documents (Claude Code, Cursor, VS Code, Codex, Claude Desktop).
import { describe, expect, test } from "bun:test";
import { execFile } from "node:child_process";
import { chmodSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const ROOT = join(import.meta.dir, "..", "..");
const page = readFileSync(join(ROOT, "docs", "clients.md"), "utf8");
const stdioPart = page.slice(page.indexOf("## Over stdio"), page.indexOf("\n## ", page.indexOf("## Over stdio") + 1));
const WORKDIR_ON_PAGE = "/path/to/checkout";
/** A spawned sidecar (and the Inspector) boot in seconds; on a loaded machine much longer. */
const SPAWNED_TEST_MS = 120_000;

/** The fenced blocks under a `### heading` of the stdio part. */
function blocks(heading: string, language: string): string[] {
  const section = stdioPart.split(/^### /m).find((s) => s.startsWith(`${heading}\n`));
  if (!section) throw new Error(`docs/clients.md has no section ### ${heading}`);
  return [...section.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
}

const server = (heading: string, key = "mcpServers") => (JSON.parse(blocks(heading, "json")[0]!) as Record<string, Record<string, unknown>>)[key]!.sidecar;

/** A directory holding a `sidecar` that runs this checkout's source, for PATH; its stderr appended to `log` when given. */
async function sidecarOnPath(dir: string, log?: string): Promise<string> {
  const bin = join(dir, "bin");
  await Bun.write(join(bin, "sidecar"), `#!/bin/sh\nexec ${bunPrimitives.selfCommand.map((word) => `'${word}'`).join(" ")} "$@"${log ? ` 2>>'${log}'` : ""}\n`);
  chmodSync(join(bin, "sidecar"), 0o755);
  return bin;
}

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(command, args, { ...options, timeout: SPAWNED_TEST_MS - 10_000 }, (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out))),
  );
}

describe("docs/clients.md over stdio", () => {
  test(
    "Claude Code: `claude mcp add` as written, without --workdir, then `claude mcp list`: connected, serving the project folder Claude Code gives as its root",
    async () => {
      const line = blocks("Claude Code, over stdio", "sh")[0]!.trim();
      expect(line).toBe("claude mcp add sidecar -- sidecar serve --stdio");
      await using dir = await tempDir();
      const [home, project, log] = [join(dir.path, "home"), join(dir.path, "project"), join(dir.path, "sidecar.log")];
      await dir.write({ "home/.keep": "", "project/app.py": "print('hi')\n" });
      // Claude Code (the devDependency's binary) keeps its config under HOME: a fresh one per test.
      const claudeBin = join(ROOT, "node_modules", ".bin");
      const env = { ...process.env, HOME: home, PATH: `${await sidecarOnPath(dir.path, log)}:${claudeBin}:${process.env.PATH}` };
      expect(await run("sh", ["-c", line], { cwd: project, env })).toContain("Added stdio MCP server sidecar");
      const listed = await run("sh", ["-c", "claude mcp list"], { cwd: project, env });
      expect(listed).toContain("sidecar: sidecar serve --stdio - ✔ Connected");
      expect(readFileSync(log, "utf8")).toContain(`serving ${project}, the client's root`);
    },
    SPAWNED_TEST_MS,
  );

  test("Cursor and VS Code: a command with args, the workspace folder as the workdir; VS Code's under servers with type stdio", () => {
    const args = ["serve", "--stdio", "--workdir", "${workspaceFolder}"];
    expect(server("Cursor, over stdio")).toEqual({ command: "sidecar", args });
    expect(server("VS Code, over stdio", "servers")).toEqual({ type: "stdio", command: "sidecar", args });
  });

  test("Codex: an [mcp_servers.sidecar] table with command and args", () => {
    const config = Bun.TOML.parse(blocks("Codex, over stdio", "toml")[0]!) as { mcp_servers: Record<string, unknown> };
    expect(config.mcp_servers.sidecar).toEqual({ command: "sidecar", args: ["serve", "--stdio", "--workdir", WORKDIR_ON_PAGE] });
  });

  test("Claude Desktop: the binary by its absolute path", () => {
    const entry = server("Claude Desktop, over stdio") as { command: string; args: string[] };
    expect(entry.command).toStartWith("/");
    expect(entry.args.slice(0, 3)).toEqual(["serve", "--stdio", "--workdir"]);
  });

  test(
    "the TypeScript SDK snippet, run as written, lists the default surface's tools",
    async () => {
      await using dir = await tempDir();
      const snippet = join(dir.path, "client.ts");
      writeFileSync(snippet, blocks("The MCP TypeScript SDK, over stdio", "ts")[0]!.replace(WORKDIR_ON_PAGE, dir.path));
      symlinkSync(join(ROOT, "node_modules"), join(dir.path, "node_modules"));
      const env = { ...process.env, PATH: `${await sidecarOnPath(dir.path)}:${process.env.PATH}` };
      const stdout = await run(process.execPath, [snippet], { cwd: dir.path, env });
      expect(stdout.trim().split(" ").sort()).toEqual(["ask_user", "ast_edit", "ast_grep", "code_action", "debug", "eval", "lsp", "lsp_rename", "resolve", "symbol_edit"]);
    },
    SPAWNED_TEST_MS,
  );

  test(
    "the Inspector's CLI line, run as written, lists the tools; with tools/call it calls one",
    async () => {
      await using dir = await tempDir();
      const line = blocks("The MCP Inspector's CLI, over stdio", "sh")[0]!.trim().replace(WORKDIR_ON_PAGE, dir.path);
      expect(line).toStartWith("npx @modelcontextprotocol/inspector --cli sidecar serve --stdio");
      // From the checkout, npx runs the Inspector its devDependencies pinned.
      const env = { ...process.env, PATH: `${await sidecarOnPath(dir.path)}:${process.env.PATH}` };
      const listed = JSON.parse(await run("sh", ["-c", line], { cwd: ROOT, env })) as { tools: { name: string }[] };
      expect(listed.tools.map((tool) => tool.name)).toContain("ast_grep");
      // The same line calling a tool instead.
      await Bun.write(join(dir.path, "app.py"), "print('hi')\n");
      const call = line.replace("--method tools/list", "--method tools/call --tool-name ast_grep --tool-arg 'pattern=print($A)' --tool-arg language=python");
      const called = JSON.parse(await run("sh", ["-c", call], { cwd: ROOT, env })) as { isError?: boolean; content: { text: string }[] };
      expect(called.isError).toBeFalsy();
      expect(called.content[0]!.text).toContain("app.py:1");
    },
    SPAWNED_TEST_MS,
  );
});
