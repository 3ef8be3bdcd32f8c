// Answers that must be about something: one row per location with paging, the outline as a hierarchy,
// status that starts nothing, a workspace search merged across servers, locations outside the workdir.
import { describe, expect, test } from "bun:test";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { LINKED_OUT_PREVIEW } from "../../src/lsp/present.ts";
import { call, LSP_CONFIG, requireBinary } from "./fixtures.ts";

const TS_BASE = {
  "package.json": JSON.stringify({ name: "fixture", private: true }),
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, target: "es2022", module: "esnext", moduleResolution: "bundler", noEmit: true }, include: ["src"] }),
};

type Place = { path: string; line: number; column: number; preview?: string; outside?: string };

describe("references: one row per location, 50 per page", () => {
  test("two uses on one line are two rows, and offset pages through the rest", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    const uses = Array.from({ length: 60 }, (_, i) => `export const v${i} = twice(${i}) + twice(${i});`);
    await dir.write({ ...TS_BASE, "src/twice.ts": ["export function twice(n: number): number {", "  return n * 2;", "}", ...uses, ""].join("\n") });
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    const first = await call(client, "lsp", { action: "references", file: "src/twice.ts", line: 1, symbol: "twice" });
    expect(first.isError).toBe(false);
    // The declaration and two uses on each of 60 lines: 121 locations, never merged by line.
    expect(first.data).toMatchObject({ total: 121, shown: 50, note: "50 of 121 shown (1–50); pass offset 50 for the next" });
    const rows = first.data.results as Place[];
    expect(rows.filter((r) => r.line === 4).map((r) => r.column)).toEqual([19, 30]);
    expect(first.text).toContain("src/twice.ts:4:19: export const v0 = twice(0) + twice(0);");
    expect(first.text).toContain("src/twice.ts:4:30: export const v0 = twice(0) + twice(0);");
    const last = await call(client, "lsp", { action: "references", file: "src/twice.ts", line: 1, symbol: "twice", offset: 100 });
    expect(last.data).toMatchObject({ total: 121, shown: 21, offset: 100, note: "21 of 121 shown (101–121)" });
    const all = [...rows, ...((await call(client, "lsp", { action: "references", file: "src/twice.ts", line: 1, symbol: "twice", offset: 50 })).data.results as Place[]), ...(last.data.results as Place[])];
    expect(new Set(all.map((r) => `${r.line}:${r.column}`)).size).toBe(121);
    const past = await call(client, "lsp", { action: "references", file: "src/twice.ts", line: 1, symbol: "twice", offset: 200 });
    expect(past.isError).toBe(true);
    expect(past.text).toBe("offset 200 is past the end: there are 121 row(s). Pass an offset below 121, or omit it for the first page.");
  });
});

describe("symbols of a file: the server's hierarchy in source order", () => {
  test("top-level entries in order, members indented under their class, locals of functions left out", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write({
      ...TS_BASE,
      "src/a.ts": [
        "export const zed = 1;",
        "export function beta(x: number) {",
        "  const inner = x + 1;",
        "  function helper() { return inner; }",
        "  return helper();",
        "}",
        "export class Alpha {",
        "  private field = 2;",
        "  method() { const local = 3; return local; }",
        "}",
        "",
      ].join("\n"),
    });
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const outline = await call(await t.client(), "lsp", { action: "symbols", file: "src/a.ts" });
    // tsserver lists children by name and every local as a child: this was alphabetical and flat.
    expect(outline.text).toBe(
      [
        "src/a.ts:1: constant zed",
        "src/a.ts:2: function beta",
        "src/a.ts:7: class Alpha",
        "src/a.ts:8:   property field",
        "src/a.ts:9:   method method",
        "note: 3 local(s) of functions and methods are not listed",
      ].join("\n"),
    );
    expect((outline.data.results as { depth: number; container?: string }[])[3]).toMatchObject({ depth: 1, container: "Alpha" });
  });
});

describe("status reports and starts nothing", () => {
  test("a workspace with a root and the binary: idle, not started, and no server process", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write({ ...TS_BASE, "src/a.ts": "export const a = 1;\n", "py/pyproject.toml": "", "py/m.py": "x = 1\n" });
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    const status = await call(client, "lsp", { action: "status" });
    const rows = status.data.results as { server: string; root: string; state: string; reason: string }[];
    expect(rows).toContainEqual(expect.objectContaining({ server: "typescript", root: ".", state: "idle", reason: expect.stringContaining("not started (starts on first use)") }));
    expect(rows).toContainEqual(expect.objectContaining({ server: "python", root: "py", state: "idle" }));
    expect(t.run.resources.lsp!.supervisor.running()).toEqual([]);
    // Once used, it is running, and status says what it does not offer.
    await call(client, "lsp", { action: "hover", file: "py/m.py", line: 1, symbol: "x" });
    const after = (await call(client, "lsp", { action: "status" })).data.results as { server: string; state: string; lacks?: string[] }[];
    expect(after.find((r) => r.server === "python")).toMatchObject({ state: "running", lacks: expect.arrayContaining(["implementation"]) });
    expect(t.run.resources.lsp!.supervisor.running().map((h) => h.spec.id)).toEqual(["python"]);
  });
});

describe("workspace symbols without a file", () => {
  test("merged across servers without duplicates", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write({
      ...TS_BASE,
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, target: "es2022", noEmit: true }, include: ["src", "lib"] }),
      "src/main.ts": 'import { sharedHelper } from "../lib/shared";\nexport const answer = sharedHelper();\n',
      "lib/tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, target: "es2022", noEmit: true } }),
      "lib/shared.ts": "export function sharedHelper(): number {\n  return 42;\n}\n",
    });
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    // Two servers, the outer one's project holding the inner one's files: both find sharedHelper.
    await call(client, "lsp", { action: "hover", file: "src/main.ts", line: 2, symbol: "sharedHelper" });
    await call(client, "lsp", { action: "hover", file: "lib/shared.ts", line: 1, symbol: "sharedHelper" });
    expect(t.run.resources.lsp!.supervisor.running()).toHaveLength(2);
    const search = await call(client, "lsp", { action: "symbols", query: "sharedHelper" });
    expect(search.isError).toBe(false);
    const rows = search.data.results as { name: string; path: string; line: number }[];
    expect(rows.filter((r) => r.name === "sharedHelper")).toEqual([expect.objectContaining({ path: "lib/shared.ts", line: 1 })]);
  });

  test("a root that cannot search (tsserver's No Project: only a package.json) is a note; the others still answer", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write({
      "app/package.json": "{}",
      "app/tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src"] }),
      "app/src/main.ts": "export function mainEntry(): number {\n  return 1;\n}\n",
      "tools/package.json": "{}",
      "tools/run.js": "export function runTool() {\n  return 2;\n}\n",
    });
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    await call(client, "lsp", { action: "hover", file: "app/src/main.ts", line: 1, symbol: "mainEntry" });
    // Restarted, the tools server holds no open file: tsserver then has no project to search.
    await call(client, "lsp", { action: "hover", file: "tools/run.js", line: 1, symbol: "runTool" });
    expect((await call(client, "lsp", { action: "reload", file: "tools/run.js" })).text).toContain("restarted");
    const search = await call(client, "lsp", { action: "symbols", query: "mainEntry" });
    expect(search.isError).toBe(false);
    expect(search.text).toContain("app/src/main.ts:1: function mainEntry");
    expect(search.text).not.toContain("    at ");
    expect(search.text).toMatch(/note: typescript \(tools\) could not search: .*No Project/);
  });

  test("Go: a symbol of the standard library is marked as outside the workspace", async () => {
    requireBinary("gopls", "apt-get install gopls golang-go");
    await using dir = await tempDir();
    await dir.write({ "go.mod": "module example.com/w\n\ngo 1.19\n", "main.go": 'package main\n\nimport "os"\n\nfunc main() {\n\t_ = os.Args\n}\n' });
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    const definition = await call(client, "lsp", { action: "definition", file: "main.go", line: 6, symbol: "Args" });
    const [place] = definition.data.results as Place[];
    expect(place).toMatchObject({ outside: "library", preview: expect.stringContaining("Args") });
    expect(place!.path).toMatch(/^\/.*\/src\/os\/proc\.go$/);
    expect(definition.text).toContain(`${place!.path}:${place!.line}:${place!.column} (outside the workspace): `);
  });
});

describe("a file outside the workdir reached through a symlink inside it", () => {
  test("definition and references give its path with no text; the standard library keeps its text", async () => {
    requireBinary("pyright-langserver", "npm i -D pyright");
    await using outside = await tempDir("sidecar-outside-");
    await outside.write({ "mod.py": "SECRET_TOKEN = 'do not show this line'\n" });
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": '[project]\nname = "w"\nversion = "0"\n', "app.py": "import os\nfrom link_dir.mod import SECRET_TOKEN\n\nprint(SECRET_TOKEN, os.sep)\n" });
    await symlink(outside.path, join(dir.path, "link_dir"));
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    const direct = await call(client, "lsp", { action: "symbols", file: "link_dir/mod.py" });
    expect(direct.text).toContain("is outside the workspace");
    const definition = await call(client, "lsp", { action: "definition", file: "app.py", line: 4, symbol: "SECRET_TOKEN" });
    expect(definition.isError).toBe(false);
    expect(definition.text).not.toContain("do not show");
    const places = definition.data.results as Place[];
    expect(places).toHaveLength(1);
    expect(places[0]).toMatchObject({ outside: "link", line: 1 });
    expect(places[0]!.preview).toBe(LINKED_OUT_PREVIEW);
    expect(definition.text).toContain(LINKED_OUT_PREVIEW);
    const references = await call(client, "lsp", { action: "references", file: "app.py", line: 4, symbol: "SECRET_TOKEN" });
    expect(references.text).not.toContain("do not show");
    expect((references.data.results as Place[]).filter((p) => p.outside === "link")).toHaveLength(1);
    // os.sep's definition is in pyright's bundled typeshed: a library, shown with its text.
    const library = await call(client, "lsp", { action: "definition", file: "app.py", line: 4, symbol: "sep" });
    const [stub] = library.data.results as Place[];
    expect(stub).toMatchObject({ outside: "library", preview: expect.stringContaining("sep") });
  });
});

describe('diagnostics "*": each checker once per project', () => {
  test("pyright runs once for nested Python roots, and its findings are not repeated", async () => {
    requireBinary("pyright", "npm i -D pyright");
    await using dir = await tempDir();
    await dir.write({
      "pyproject.toml": '[project]\nname = "w"\nversion = "0"\n',
      "top.py": "a: int = 'one'\n",
      "examples/one/pyproject.toml": '[project]\nname = "one"\nversion = "0"\n',
      "examples/one/m.py": "b: int = 'two'\n",
      "examples/two/setup.py": "",
      "examples/two/m.py": "c: int = 'three'\n",
    });
    await mkdir(join(dir.path, "examples/two/pkg"), { recursive: true });
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const check = await call(await t.client(), "lsp", { action: "diagnostics", file: "*" });
    expect(check.text.split("\n").filter((line) => line.startsWith("python in "))).toEqual(["python in .: `pyright --outputjson`, 3 finding(s)"]);
    const rows = check.data.results as { path: string; line: number }[];
    expect(rows.map((r) => r.path).sort()).toEqual(["examples/one/m.py", "examples/two/m.py", "top.py"]);
  });
});
