// Every `lsp` action against real typescript-language-server (typescript@5) and pyright, through the MCP client.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { liveObjects } from "../helpers/live-objects.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { call, LSP_CONFIG, PY_PROJECT, requireBinary, TS_PROJECT } from "./fixtures.ts";

// Read-only queries share one workspace and one run: starting two servers per test would dominate the suite.
let dir: TempDir;
let run: TestRun;
let client: Client;

beforeAll(async () => {
  requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
  requireBinary("pyright-langserver", "npm i -D pyright");
  dir = await tempDir();
  await dir.write({
    ...TS_PROJECT,
    ...PY_PROJECT,
    "src/broken.ts": 'export const n: number = "text";\n',
    "src/unimported.ts": "export const disc = new Circle(1);\n",
    "pkg/broken.py": "value: int = missing_name\n",
  });
  run = await startTestRun(dir.path, LSP_CONFIG);
  client = await run.client();
});

afterAll(async () => {
  await run?.[Symbol.asyncDispose]();
  await dir?.[Symbol.asyncDispose]();
});

const lsp = (args: Record<string, unknown>) => call(client, "lsp", args);

describe("TypeScript", () => {
  test("definition goes to the declaration in the other file", async () => {
    const r = await lsp({ action: "definition", file: "src/main.ts", line: 5, symbol: "totalArea" });
    expect(r.isError).toBe(false);
    expect(r.data.results).toEqual([{ path: "src/shapes.ts", line: 14, column: 17, preview: "export function totalArea(shapes: Shape[]): number {" }]);
  });

  test("type_definition goes to the class of a variable", async () => {
    const r = await lsp({ action: "type_definition", file: "src/main.ts", line: 3, symbol: "circle" });
    expect(r.data.results).toEqual([{ path: "src/shapes.ts", line: 7, column: 14, preview: "export class Circle implements Shape {" }]);
  });

  test("implementation lists the classes implementing an interface", async () => {
    const r = await lsp({ action: "implementation", file: "src/shapes.ts", line: 2, symbol: "Shape" });
    expect(r.text).toContain("src/shapes.ts:7:14: export class Circle implements Shape {");
  });

  test("references include every use across files", async () => {
    const r = await lsp({ action: "references", file: "src/shapes.ts", line: 7, symbol: "Circle" });
    const places = (r.data.results as { path: string; line: number }[]).map((p) => `${p.path}:${p.line}`).sort();
    expect(places).toEqual(["src/main.ts:1", "src/main.ts:3", "src/main.ts:4", "src/shapes.ts:7"]);
    expect(r.data.total).toBe(4);
  });

  test("hover gives the signature and the doc comment", async () => {
    const signature = await lsp({ action: "hover", file: "src/shapes.ts", line: 14, symbol: "totalArea" });
    expect(signature.text).toContain("function totalArea(shapes: Shape[]): number");
    const doc = await lsp({ action: "hover", file: "src/main.ts", line: 3, symbol: "Circle" });
    expect(doc.text).toContain("A circle of the given radius.");
  });

  test("queries leave nothing behind on the server's lifetime (each used to keep its Promise.race until the server exited)", async () => {
    const hover = () => lsp({ action: "hover", file: "src/shapes.ts", line: 14, symbol: "totalArea" });
    await hover();
    const before = liveObjects(["Promise"]).Promise!;
    for (let i = 0; i < 300; i++) await hover();
    // Leaked races kept one promise per request (at least 300); what stays now is noise.
    expect(liveObjects(["Promise"]).Promise! - before).toBeLessThan(60);
  });

  test("symbols by query with no server running yet starts them and searches", async () => {
    await using fresh = await tempDir();
    await fresh.write(TS_PROJECT);
    await using t = await startTestRun(fresh.path, LSP_CONFIG);
    const search = await call(await t.client(), "lsp", { action: "symbols", query: "totalAr" });
    expect(search.text).toContain("src/shapes.ts:14: function totalArea");
  });

  test("symbols by file is the outline; by query searches the workspace", async () => {
    const outline = await lsp({ action: "symbols", file: "src/shapes.ts" });
    expect(outline.text).toContain("src/shapes.ts:7: class Circle");
    expect(outline.text).toContain("src/shapes.ts:9:   method area");
    const search = await lsp({ action: "symbols", query: "totalAr", file: "src/main.ts" });
    expect(search.text).toContain("src/shapes.ts:14: function totalArea");
  });

  test("diagnostics of a file", async () => {
    const file = await lsp({ action: "diagnostics", file: "src/broken.ts" });
    expect(file.data.results).toEqual([expect.objectContaining({ path: "src/broken.ts", line: 1, severity: "error", code: "2322" })]);
    const clean = await lsp({ action: "diagnostics", file: "src/main.ts" });
    expect(clean.text).toBe("No errors or warnings in src/main.ts.");
  });

  test("code_actions lists what the server offers at the symbol", async () => {
    const r = await lsp({ action: "code_actions", file: "src/broken.ts", line: 1, symbol: "n" });
    expect(r.isError).toBe(false);
    expect((r.data.results as unknown[]).length).toBeGreaterThan(0);
  });
  test("code_actions on a file never opened before offers the quick fix for its error", async () => {
    const r = await lsp({ action: "code_actions", file: "src/unimported.ts", line: 1, symbol: "Circle" });
    expect((r.data.results as { title: string }[]).map((a) => a.title)).toContain('Add import from "./shapes"');
  });
});

describe("Python", () => {
  test("definition, references and hover", async () => {
    const definition = await lsp({ action: "definition", file: "pkg/app.py", line: 4, symbol: "double_area" });
    expect(definition.data.results).toEqual([{ path: "pkg/geometry.py", line: 12, column: 5, preview: "def double_area(shape: Rectangle) -> float:" }]);
    const references = await lsp({ action: "references", file: "pkg/geometry.py", line: 1, symbol: "Rectangle" });
    const places = (references.data.results as { path: string; line: number }[]).map((p) => `${p.path}:${p.line}`).sort();
    expect(places).toEqual(["pkg/app.py:1", "pkg/app.py:3", "pkg/geometry.py:1", "pkg/geometry.py:12"]);
    const hover = await lsp({ action: "hover", file: "pkg/app.py", line: 3, symbol: "Rectangle" });
    expect(hover.text).toContain("A rectangle with a width and a height.");
  });

  test("type_definition and implementation", async () => {
    const type = await lsp({ action: "type_definition", file: "pkg/app.py", line: 3, symbol: "box" });
    expect(type.text).toContain("pkg/geometry.py:1:7: class Rectangle:");
    // pyright has no implementation provider; the answer says so instead of an empty list.
    const implementation = await lsp({ action: "implementation", file: "pkg/app.py", line: 4, symbol: "area" });
    expect(implementation.text).toBe("The python server does not offer implementation. It offers definition, references, hover, symbols, type_definition, calls.");
  });

  test("symbols by file and by query", async () => {
    const outline = await lsp({ action: "symbols", file: "pkg/geometry.py" });
    expect(outline.text).toContain("pkg/geometry.py:8:   method area");
    const search = await lsp({ action: "symbols", query: "double_ar", file: "pkg/app.py" });
    expect(search.text).toContain("pkg/geometry.py:12: function double_area");
  });

  test("diagnostics of a file (pyright answers by pull)", async () => {
    const file = await lsp({ action: "diagnostics", file: "pkg/broken.py" });
    expect(file.data.status).toBe("fresh");
    expect(file.text).toContain('pkg/broken.py:1: error reportUndefinedVariable: "missing_name" is not defined');
  });

  test("code_actions answers for a Python symbol", async () => {
    const r = await lsp({ action: "code_actions", file: "pkg/broken.py", line: 1, symbol: "missing_name" });
    expect(r.isError).toBe(false);
    expect(r.data.action).toBe("code_actions");
  });
});

describe('diagnostics "*" runs each root\'s project checker', () => {
  test("tsc and pyright findings in one list, each checker named", async () => {
    const project = await lsp({ action: "diagnostics", file: "*" });
    expect(project.text).toContain("typescript in .: `tsc --noEmit --pretty false`");
    expect(project.text).toContain("python in .: `pyright --outputjson`");
    expect(project.data.results).toContainEqual(expect.objectContaining({ path: "src/broken.ts", line: 1, code: "TS2322", source: "tsc" }));
    expect(project.data.results).toContainEqual(expect.objectContaining({ path: "pkg/broken.py", line: 1, source: "pyright", code: "reportUndefinedVariable" }));
  });
});

describe("addressing mistakes come back as errors the model can act on", () => {
  test("a navigation action without symbol", async () => {
    const r = await lsp({ action: "definition", file: "src/main.ts", line: 5 });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("definition needs file, line and symbol");
  });

  test("a symbol not on the line lists the identifiers that are", async () => {
    const r = await lsp({ action: "hover", file: "src/main.ts", line: 3, symbol: "Square" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("Identifiers on that line: const, circle, new, Circle");
  });

  test("a line past the end of the file", async () => {
    const r = await lsp({ action: "hover", file: "src/main.ts", line: 99, symbol: "x" });
    expect(r.text).toBe("src/main.ts has 6 lines; line 99 does not exist.");
  });

  test("a path outside the workspace", async () => {
    const r = await lsp({ action: "diagnostics", file: "../../etc/passwd" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("is outside the workspace");
  });

  test("a file no server handles", async () => {
    await dir.write({ "notes.md": "# notes\n" });
    const r = await lsp({ action: "diagnostics", file: "notes.md" });
    expect(r.text).toContain("No language server in the catalog handles .md");
  });

  test("status lists the running servers and why the others are not", async () => {
    const r = await lsp({ action: "status" });
    const rows = r.data.results as { server: string; root: string | null; state: string; reason: string }[];
    expect(rows).toContainEqual(expect.objectContaining({ server: "typescript", root: ".", state: "running" }));
    expect(rows).toContainEqual(expect.objectContaining({ server: "python", root: ".", state: "running" }));
    expect(rows).toContainEqual(expect.objectContaining({ server: "go", root: null, state: "unavailable", reason: "no root marker (go.mod, go.work) in the workspace" }));
  });
});
