// Diagnostics on write call new only what the write caused: each file is compared with its text before the write.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call, requireBinary, TS_PROJECT } from "./fixtures.ts";

interface Row {
  path: string;
  line: number;
  severity: string;
  code?: string;
  message: string;
}

interface Outcome {
  status: string;
  new: Row[];
  files: { path: string; status: string; baseline?: string; already: number; fixed: number; unverified?: Row[] }[];
  includers?: { path: string; unverified: Row[] }[];
  text: string;
}

async function afterWrite(t: TestRun, paths: string[]): Promise<Outcome> {
  const response = await t.fetch("/harness/after-write", {
    method: "POST",
    headers: { Authorization: `Bearer ${t.run.surfaces.default}`, "Content-Type": "application/json" },
    body: JSON.stringify({ paths }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Outcome;
}

/** What the run knows of the checkout's start: git's snapshot and the watcher's first walk (a real agent's first write comes seconds later). */
async function started(t: TestRun): Promise<void> {
  const services = t.run.resources.lsp!;
  await services.checkout?.ready(); // absent before baselines existed
  await services.watcher?.ready();
}

/** The workdir as a git checkout with everything committed: what a file held when the run began. */
function commitAll(dir: string): void {
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: dir, stdio: "pipe" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "fixture");
}

const LSP = { resources: { languageServers: {} } };

describe("the first write of a file: errors already in it are not new", () => {
  test("TypeScript: two old errors stay quiet (counted as already there); the one the write brings is new", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write({ ...TS_PROJECT, "src/old.ts": 'export const a: number = "one";\nexport const b: string = 2;\n' });
    commitAll(dir.path);
    await using t = await startTestRun(dir.path, LSP);
    await started(t);
    await writeFile(join(dir.path, "src/old.ts"), 'export const a: number = "one";\nexport const b: string = 2;\nexport const c: boolean = 3;\n');
    const outcome = await afterWrite(t, ["src/old.ts"]);
    expect(outcome.status).toBe("fresh");
    expect(outcome.new).toEqual([expect.objectContaining({ path: "src/old.ts", line: 3, code: "2322", message: expect.stringContaining("'boolean'") })]);
    expect(outcome.files).toEqual([expect.objectContaining({ path: "src/old.ts", baseline: "checkout", already: 2, fixed: 0 })]);
    expect(outcome.text).toBe(
      "1 new diagnostic after this write:\n  src/old.ts:3: error 2322: Type 'number' is not assignable to type 'boolean'.\nAlso: 2 already there before this write (not new).",
    );
  });

  test("Python: an old error stays quiet, a fix is counted", async () => {
    requireBinary("pyright-langserver", "npm i -D pyright");
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": '[project]\nname = "w"\nversion = "0"\n', "testing.py": "value: int = missing_name\nother: int = 'text'\n" });
    commitAll(dir.path);
    await using t = await startTestRun(dir.path, LSP);
    await started(t);
    await writeFile(join(dir.path, "testing.py"), "value: int = missing_name\nother: int = 2\n");
    const outcome = await afterWrite(t, ["testing.py"]);
    expect(outcome).toMatchObject({ status: "fresh", new: [] });
    expect(outcome.files).toEqual([expect.objectContaining({ path: "testing.py", baseline: "checkout", already: 1, fixed: 1 })]);
    expect(outcome.text).toBe("Diagnostics checked: nothing new; 1 fixed; 1 already there before this write (not new).");
  });

  test("outside git, a file that existed is compared with nothing: its diagnostics are listed as unknown, never as new", async () => {
    requireBinary("pyright-langserver", "npm i -D pyright");
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": '[project]\nname = "w"\nversion = "0"\n', "m.py": "value: int = missing_name\n" });
    await using t = await startTestRun(dir.path, LSP);
    await started(t);
    await writeFile(join(dir.path, "m.py"), "value: int = missing_name\n\n");
    const outcome = await afterWrite(t, ["m.py"]);
    expect(outcome).toMatchObject({ status: "fresh", new: [] });
    expect(outcome.files[0]).toMatchObject({ baseline: "unknown", unverified: [expect.objectContaining({ line: 1, message: expect.stringContaining("missing_name") })] });
    expect(outcome.text).toContain("m.py: 1 diagnostic(s), new or not nobody can tell");
    // A file the write created had no text before: its errors are new, git or not.
    await writeFile(join(dir.path, "fresh.py"), "x: int = 'no'\n");
    const created = await afterWrite(t, ["fresh.py"]);
    expect(created.new).toEqual([expect.objectContaining({ path: "fresh.py", line: 1 })]);
    expect(created.files[0]).toMatchObject({ baseline: "created" });
  });
});

describe("a deletion is a write", () => {
  test("TypeScript: the importers it broke are reported, and not blamed on the next write", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write({ ...TS_PROJECT, "src/other.ts": 'import { Circle } from "./shapes.js";\nexport const c = new Circle(1);\n' });
    commitAll(dir.path);
    await using t = await startTestRun(dir.path, LSP);
    await started(t);
    expect((await afterWrite(t, ["src/main.ts", "src/other.ts"])).new).toEqual([]);
    await rm(join(dir.path, "src/shapes.ts"));
    const deleted = await afterWrite(t, ["src/shapes.ts"]);
    expect(deleted.status).toBe("fresh");
    expect(deleted.new.map((d) => `${d.path}:${d.line}:${d.code}`).sort()).toEqual(["src/main.ts:1:2307", "src/other.ts:1:2307"]);
    // The importer written again unchanged: its error was there before this write.
    await writeFile(join(dir.path, "src/main.ts"), await readFile(join(dir.path, "src/main.ts"), "utf8"));
    const next = await afterWrite(t, ["src/main.ts"]);
    expect(next.new).toEqual([]);
    expect(next.files[0]).toMatchObject({ already: 1 });
  });
});

describe("a header is a shared file", () => {
  test("C: a changed prototype breaks the open files that include it, and they are reported", async () => {
    requireBinary("clangd", "apt-get install clangd");
    await using dir = await tempDir();
    await dir.write({
      "compile_flags.txt": "-std=c11\n-Wall\n-Wunused-macros\n",
      "util.h": "#ifndef UTIL_H\n#define UTIL_H\n#define UNUSED_ONE 1\nint twice(int value);\n#endif\n",
      "util.c": '#include "util.h"\n\nint twice(int value) {\n  return value * 2;\n}\n',
      "main.c": '#include "util.h"\n\nint main(void) {\n  return twice(2);\n}\n',
    });
    commitAll(dir.path);
    await using t = await startTestRun(dir.path, LSP);
    await started(t);
    const client = await t.client();
    // The two .c files are open on clangd (a query opened them); the header is not.
    for (const file of ["util.c", "main.c"]) expect((await call(client, "lsp", { action: "diagnostics", file })).isError).toBe(false);
    await writeFile(join(dir.path, "util.h"), "#ifndef UTIL_H\n#define UTIL_H\n#define UNUSED_ONE 1\nint twice(int value, int times);\n#endif\n");
    const outcome = await afterWrite(t, ["util.h"]);
    expect(outcome.status).toBe("fresh");
    const paths = outcome.new.map((d) => d.path).sort();
    expect(paths).toContain("main.c");
    expect(paths).toContain("util.c");
    expect(outcome.new.filter((d) => d.path === "util.h")).toEqual([]);
  });
});

describe("a header nobody opened the includers of", () => {
  test("C: a renamed prototype breaks three callers no server had open — listed, never 'nothing new'", async () => {
    requireBinary("clangd", "apt-get install clangd");
    await using dir = await tempDir();
    const callers = ["f0.c", "f1.c", "f2.c"];
    await dir.write({
      "core.h": "int compute(int value);\n",
      "core.c": '#include "core.h"\nint compute(int value) { return value; }\n',
      ...Object.fromEntries(callers.map((f, i) => [f, `#include "core.h"\nint s${i}(int n) { return compute(n); }\n`])),
      "compile_commands.json": JSON.stringify(["core.c", ...callers].map((file) => ({ directory: dir.path, file, arguments: ["cc", "-std=c11", "-I.", "-c", file] }))),
    });
    commitAll(dir.path);
    await using t = await startTestRun(dir.path, LSP);
    await started(t);
    // clangd runs (a query on the header), but no caller is open.
    const client = await t.client();
    expect((await call(client, "lsp", { action: "diagnostics", file: "core.h" })).isError).toBe(false);
    await writeFile(join(dir.path, "core.h"), "int computeX(int value);\n");
    const outcome = await afterWrite(t, ["core.h"]);
    // Before, this answered "fresh", nothing new and nothing else: the callers were never looked at.
    expect(outcome.text).not.toMatch(/nothing new\.$/m);
    expect((outcome.includers ?? []).map((f) => f.path)).toEqual(callers);
    for (const f of outcome.includers!) expect(f.unverified.map((d) => d.message).join("\n")).toContain("compute");
    expect(outcome.text).toContain("f0.c: 1 diagnostic(s) now, new or not nobody can tell: it includes a written header");
  });
});

describe("a file reverted outside and changed again", () => {
  test("TypeScript: git checkout reverts it, the same change written again is new again", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write(TS_PROJECT);
    commitAll(dir.path);
    await using t = await startTestRun(dir.path, LSP);
    await started(t);
    const shapes = join(dir.path, "src/shapes.ts");
    const broken = (await readFile(shapes, "utf8")).replace("return Math.PI * this.radius * this.radius;", 'return "pi";');
    await writeFile(shapes, broken);
    expect((await afterWrite(t, ["src/shapes.ts"])).new).toEqual([expect.objectContaining({ path: "src/shapes.ts", code: "2322" })]);
    execFileSync("git", ["checkout", "--", "src/shapes.ts"], { cwd: dir.path });
    // The agent's next turn comes seconds later; the watcher has told the server by then.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await writeFile(shapes, broken);
    const again = await afterWrite(t, ["src/shapes.ts"]);
    expect(again.new).toEqual([expect.objectContaining({ path: "src/shapes.ts", code: "2322" })]);
  });
});

describe("a fix is said to be one", () => {
  test("Python: resolve writes a fix and its answer says it was checked and what it fixed, never an empty note", async () => {
    requireBinary("pyright-langserver", "npm i -D pyright");
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": '[project]\nname = "w"\nversion = "0"\n', "m.py": "value: int = broken(1)\nother: int = missing_name\n" });
    commitAll(dir.path);
    await using t = await startTestRun(dir.path, { resources: { languageServers: {}, parser: {} } });
    await started(t);
    const client = await t.client();
    const staged = await call(client, "ast_edit", { pattern: "broken($A)", rewrite: "int($A)", language: "python" });
    const accepted = await call(client, "resolve", { edit_id: staged.data.edit_id as string, action: "accept" });
    expect(accepted.isError).toBe(false);
    expect(accepted.text).toContain("Diagnostics checked: nothing new; 1 fixed; 1 already there before this write (not new).");
  }, 240_000);
});
