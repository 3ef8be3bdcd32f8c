// lsp_rename against real servers: a rename across files lands in every file at once, with its diagnostics.
import { describe, expect, test } from "bun:test";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call, LSP_CONFIG, PY_PROJECT, requireBinary, TS_PROJECT } from "./fixtures.ts";

describe("lsp_rename", () => {
  test("TypeScript: renames a class in its file and in the importing file", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write(TS_PROJECT);
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const r = await call(await t.client(), "lsp_rename", { file: "src/shapes.ts", line: 7, symbol: "Circle", new_name: "Disc" });
    expect(r.isError).toBe(false);
    expect(r.data.files).toEqual(["src/main.ts", "src/shapes.ts"]);
    expect(r.text).not.toContain("diagnostics timed out");
    expect(r.data.diagnostics).toEqual({ status: "fresh", new: [], already: 0, fixed: 0 });
    expect(await readFile(join(dir.path, "src/main.ts"), "utf8")).toContain('import { Disc, totalArea } from "./shapes.js";\n\nconst circle = new Disc(2);');
    expect(await readFile(join(dir.path, "src/shapes.ts"), "utf8")).toContain("export class Disc implements Shape {");
    // The server saw the new text: a query on the renamed symbol works at once.
    const refs = await call(await t.client(), "lsp", { action: "references", file: "src/main.ts", line: 3, symbol: "Disc" });
    expect(refs.data.total).toBe(4);
  });

  test("Python: renames a function across modules", async () => {
    requireBinary("pyright-langserver", "npm i -D pyright");
    await using dir = await tempDir();
    await dir.write(PY_PROJECT);
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const r = await call(await t.client(), "lsp_rename", { file: "pkg/geometry.py", line: 12, symbol: "double_area", new_name: "twice_area" });
    expect(r.isError).toBe(false);
    expect(r.data.files).toEqual(["pkg/app.py", "pkg/geometry.py"]);
    expect(await readFile(join(dir.path, "pkg/app.py"), "utf8")).toContain("from pkg.geometry import Rectangle, twice_area\n");
    expect(await readFile(join(dir.path, "pkg/geometry.py"), "utf8")).toContain("def twice_area(shape: Rectangle) -> float:");
    // Every renamed file reached pyright before any was checked: the importer's old name is no error.
    expect(r.data.diagnostics).toEqual({ status: "fresh", new: [], already: 0, fixed: 0 });
  });

  test("a file changed on disk after the server opened it is renamed on its current text", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write(TS_PROJECT);
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    expect((await call(client, "lsp", { action: "hover", file: "src/main.ts", line: 3, symbol: "circle" })).isError).toBe(false);
    const main = join(dir.path, "src/main.ts");
    await writeFile(main, `// a header a formatter added\n${await readFile(main, "utf8")}`);
    const r = await call(client, "lsp_rename", { file: "src/shapes.ts", line: 7, symbol: "Circle", new_name: "Disc" });
    expect(r.isError).toBe(false);
    expect(await readFile(main, "utf8")).toBe(
      '// a header a formatter added\nimport { Disc, totalArea } from "./shapes.js";\n\nconst circle = new Disc(2);\nconst shapes = [circle, new Disc(3)];\nconsole.log(totalArea(shapes), circle.area());\n',
    );
  });

  test("a file the server never opened, changed on disk since the server read it, is renamed on its current text", async () => {
    requireBinary("pyright-langserver", "npm i -D pyright");
    await using dir = await tempDir();
    await dir.write(PY_PROJECT);
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    // pyright reads app.py from disk while it analyses the project; only geometry.py is opened.
    expect((await call(client, "lsp", { action: "references", file: "pkg/geometry.py", line: 12, symbol: "double_area" })).data.total).toBe(3);
    const app = join(dir.path, "pkg/app.py");
    await writeFile(app, `# one\n# two\n# three\n${await readFile(app, "utf8")}`);
    const r = await call(client, "lsp_rename", { file: "pkg/geometry.py", line: 12, symbol: "double_area", new_name: "twice_area" });
    expect(r.isError).toBe(false);
    expect(await readFile(app, "utf8")).toBe("# one\n# two\n# three\nfrom pkg.geometry import Rectangle, twice_area\n\nbox = Rectangle(2, 3)\nprint(twice_area(box), box.area())\n");
  });

  test("a symbol of several names and a new name that is no identifier are refused before any server is asked", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write(TS_PROJECT);
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    const dotted = await call(client, "lsp_rename", { file: "src/main.ts", line: 5, symbol: "circle.area", new_name: "size" });
    expect(dotted.isError).toBe(true);
    expect(dotted.text).toContain('symbol "circle.area" holds 2 names (circle, area); a position is one identifier. Pass the one you mean, e.g. "area".');
    const digit = await call(client, "lsp_rename", { file: "src/shapes.ts", line: 7, symbol: "Circle", new_name: "1abc" });
    expect(digit.isError).toBe(true);
    expect(digit.text).toContain("new_name: expected an identifier");
    expect(await readFile(join(dir.path, "src/shapes.ts"), "utf8")).toContain("export class Circle implements Shape {");
  });

  test("$ and # are TypeScript's: a Python rename to add$2 is refused and nothing changes", async () => {
    requireBinary("pyright-langserver", "npm i -D pyright");
    await using dir = await tempDir();
    await dir.write(PY_PROJECT);
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const r = await call(await t.client(), "lsp_rename", { file: "pkg/geometry.py", line: 12, symbol: "double_area", new_name: "double$area" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe('new_name "double$area" is not a Python identifier: use letters, digits and _, not starting with a digit. Nothing was changed.');
    expect(await readFile(join(dir.path, "pkg/geometry.py"), "utf8")).toContain("def double_area(shape: Rectangle) -> float:");
  });

  test("a name the server will not rename is refused and nothing changes", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write(TS_PROJECT);
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const before = await readFile(join(dir.path, "src/main.ts"), "utf8");
    const r = await call(await t.client(), "lsp_rename", { file: "src/main.ts", line: 5, symbol: "log", new_name: "write" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe('"log" on line 5 cannot be renamed: You cannot rename elements that are defined in the standard TypeScript library.');
    expect(await readFile(join(dir.path, "src/main.ts"), "utf8")).toBe(before);
  });

  test("the plan surface does not see lsp_rename at all, but sees lsp", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const names = (await (await t.client("plan")).listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(["lsp"]);
  });
});
