// Every tool that takes a path refuses one that leaves the workdir (.., absolute, a symlink out), and
// reads or writes nothing outside. A path swapped for a symlink out between check and use is refused
// too: a staged edit's file or folder before accept, a searched file after the walk listed it (a
// file swapped while its language server starts: path-escapes-server.test.ts).
import { describe, expect, test } from "bun:test";
import { readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { bunGrammarSource } from "../../src/runtime/grammar-source.bun.ts";
import { FileSearcher } from "../../src/syntax/file-search.ts";
import { GrammarLoader } from "../../src/syntax/grammars.ts";
import { ParseCache } from "../../src/syntax/parse-cache.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call } from "../helpers/call.ts";

const SECRET = "outside_secret_value";
const OUTSIDE_SOURCE = `${SECRET} = 1\nprint(${SECRET})\n`;
const RESOURCES = { parser: {}, languageServers: {}, debugAdapters: {} };

/** How each path-taking tool is called with a given path. */
const CALLS: { tool: string; args: (path: string) => Record<string, unknown> }[] = [
  { tool: "ast_grep", args: (path) => ({ pattern: "$X = 1", path, language: "python" }) },
  { tool: "ast_edit", args: (path) => ({ pattern: "$X = 1", rewrite: "$X = 2", path, language: "python" }) },
  { tool: "lsp", args: (file) => ({ action: "hover", file, line: 1, symbol: SECRET }) },
  { tool: "lsp", args: (file) => ({ action: "diagnostics", file }) },
  { tool: "lsp", args: (file) => ({ action: "symbols", file }) },
  { tool: "lsp_rename", args: (file) => ({ file, line: 1, symbol: SECRET, new_name: "renamed" }) },
  { tool: "debug", args: (file) => ({ operation: "breakpoints", file, lines: [1] }) },
  { tool: "debug", args: (program) => ({ operation: "launch", program }) },
];

/** Ways out of the workdir; each names the path given to the tool. */
const ESCAPES = ["climbing out with ..", "an absolute path elsewhere", "a symlinked file pointing out", "a symlinked folder pointing out"] as const;

describe("path escapes", () => {
  test("every path-taking tool refuses every way out, and the outside file is neither shown nor changed", async () => {
    await using outside = await tempDir("sidecar-outside-");
    await using dir = await tempDir();
    await outside.write({ "secret.py": OUTSIDE_SOURCE, "pyproject.toml": "" });
    await dir.write({ "pyproject.toml": "", "inside.py": "x = 1\n" });
    symlinkSync(join(outside.path, "secret.py"), join(dir.path, "link.py"));
    symlinkSync(outside.path, join(dir.path, "linked"));
    const pathFor: Record<(typeof ESCAPES)[number], string> = {
      "climbing out with ..": `../${outside.path.split("/").pop()}/secret.py`,
      "an absolute path elsewhere": join(outside.path, "secret.py"),
      "a symlinked file pointing out": "link.py",
      "a symlinked folder pointing out": "linked/secret.py",
    };
    await using t = await startTestRun(dir.path, { conversation: "escapes", resources: RESOURCES });
    const client = await t.client();
    await client.listTools();
    const failures: string[] = [];
    for (const { tool, args } of CALLS) {
      for (const escape of ESCAPES) {
        const r = await call(client, tool, args(pathFor[escape]));
        const label = `${tool} ${JSON.stringify(args("P"))} via ${escape}`;
        if (!r.isError) failures.push(`${label}: not refused: ${r.text.slice(0, 200)}`);
        else if (!r.text.includes("outside the workspace")) failures.push(`${label}: refused without saying why: ${r.text.slice(0, 200)}`);
        if (r.text.includes(SECRET) && !r.text.includes(`symbol`) && !r.text.includes(`"${SECRET}"`)) failures.push(`${label}: shows the outside file`);
      }
    }
    expect(failures).toEqual([]);
    expect(readFileSync(join(outside.path, "secret.py"), "utf8")).toBe(OUTSIDE_SOURCE);
  }, 120_000);

  // Between check and use: the staged folder or file becomes a symlink to an outside copy with the
  // same content. A file swapped for a link would even be safe to write (the rename replaces the
  // link), but it is not compared with the outside file's bytes either: it is refused.
  test.each([
    { swapped: "its folder", file: "pkg/mod.py", path: "pkg", outsideName: "", refusal: "replaced by a symlink" },
    { swapped: "the file itself", file: "mod.py", path: "mod.py", outsideName: "mod.py", refusal: "mod.py no longer lead(s) to the file that was staged" },
  ])("a staged edit with $swapped swapped for a symlink out before accept writes nothing outside", async ({ file, path, outsideName, refusal }) => {
    await using outside = await tempDir("sidecar-outside-");
    await using dir = await tempDir();
    await dir.write({ [file]: OUTSIDE_SOURCE });
    await outside.write({ "mod.py": OUTSIDE_SOURCE });
    await using t = await startTestRun(dir.path, { resources: { parser: {} } });
    const client = await t.client();
    const staged = await call(client, "ast_edit", { pattern: "$X = 1", rewrite: "$X = 2", path, language: "python" });
    expect(staged.isError).toBe(false);
    renameSync(join(dir.path, path), join(dir.path, `${path}-moved`));
    symlinkSync(join(outside.path, outsideName), join(dir.path, path));
    const accepted = await call(client, "resolve", { edit_id: staged.data.edit_id, action: "accept" });
    expect(readFileSync(join(outside.path, "mod.py"), "utf8")).toBe(OUTSIDE_SOURCE);
    expect(accepted.isError).toBe(true);
    expect(accepted.text).toContain(refusal);
  }, 60_000);
});

describe("a searched file swapped for a symlink out after the walk listed it", () => {
  test("is reported as skipped and never read, while the files beside it are searched", async () => {
    await using outside = await tempDir("sidecar-outside-");
    await using dir = await tempDir();
    await outside.write({ "secret.py": OUTSIDE_SOURCE });
    await dir.write({ "inside.py": "x = 1\n", "swapped.py": "y = 1\n" });
    const root = realpathSync(dir.path);
    const listed = ["inside.py", "swapped.py"].map((name) => {
      const info = statSync(join(root, name));
      return { path: join(root, name), size: info.size, mtimeMs: info.mtimeMs };
    });
    // The walk saw a regular file; then it became a link to a file outside the workspace.
    rmSync(join(root, "swapped.py"));
    symlinkSync(join(outside.path, "secret.py"), join(root, "swapped.py"));
    const loader = new GrammarLoader(bunGrammarSource);
    const searcher = new FileSearcher((id) => loader.parser(id), new ParseCache());
    const { outcomes } = await searcher.run({ root, language: "python", pattern: "$X = 1", files: listed });
    expect(outcomes.map((o) => ({ file: o.path.split("/").pop(), count: o.count, skipped: o.skipped }))).toEqual([
      { file: "inside.py", count: 1, skipped: undefined },
      { file: "swapped.py", count: 0, skipped: "unreadable: it now resolves outside the workspace (a symlink out); not read" },
    ]);
    expect(JSON.stringify(outcomes)).not.toContain(SECRET);
    searcher.close();
  });
});
