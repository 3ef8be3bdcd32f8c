// lsp_rename is checked before anything is written: a keyword is refused outright, and an edit the
// server would make that brings errors (a name colliding with another) is refused unless forced.
import { describe, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call, LSP_CONFIG, requireBinary, TS_PROJECT } from "./fixtures.ts";

const GREETINGS = "export function greet(): string {\n  return \"hi\";\n}\n\nexport function echo(): string {\n  return \"echo\";\n}\n";

describe("lsp_rename checks the rename before writing it", () => {
  test("Python and TypeScript: a keyword is refused before any server is asked (pyright and tsserver would write `def class(`)", async () => {
    requireBinary("pyright-langserver", "npm i -D pyright");
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": '[project]\nname = "w"\nversion = "0"\n', "m.py": "def run() -> int:\n    return 1\n\nrun()\n", ...TS_PROJECT });
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    const py = await call(client, "lsp_rename", { file: "m.py", line: 1, symbol: "run", new_name: "class" });
    expect(py.isError).toBe(true);
    expect(py.text).toContain('"class" is a Python keyword');
    expect(await readFile(join(dir.path, "m.py"), "utf8")).toBe("def run() -> int:\n    return 1\n\nrun()\n");
    const ts = await call(client, "lsp_rename", { file: "src/shapes.ts", line: 7, symbol: "Circle", new_name: "class" });
    expect(ts.isError).toBe(true);
    expect(ts.text).toContain('"class" is a TypeScript/JavaScript keyword');
    expect(await readFile(join(dir.path, "src/shapes.ts"), "utf8")).toContain("export class Circle implements Shape {");
  }, 240_000);

  test("TypeScript: a name that collides with another function is refused with the errors it would bring; force writes it", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write({ ...TS_PROJECT, "src/greetings.ts": GREETINGS, "src/use.ts": 'import { greet } from "./greetings.js";\nexport const said = greet();\n' });
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    const refused = await call(client, "lsp_rename", { file: "src/greetings.ts", line: 1, symbol: "greet", new_name: "echo" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("The rename of greet to echo was not written: checked through the typescript server before writing, it would bring");
    expect(refused.text).toContain("src/greetings.ts:1: error 2393");
    expect(refused.text).toContain("pass force: true to write it anyway");
    // Nothing on disk changed, and the server has the disk's text back: the file is clean.
    expect(await readFile(join(dir.path, "src/greetings.ts"), "utf8")).toBe(GREETINGS);
    const clean = await call(client, "lsp", { action: "diagnostics", file: "src/greetings.ts" });
    expect(clean.text).toBe("No errors or warnings in src/greetings.ts.");

    const forced = await call(client, "lsp_rename", { file: "src/greetings.ts", line: 1, symbol: "greet", new_name: "echo", force: true });
    expect(forced.isError).toBe(false);
    expect(await readFile(join(dir.path, "src/greetings.ts"), "utf8")).toStartWith("export function echo(): string {");
    expect(forced.text).toContain("new diagnostic");
    expect((forced.data.diagnostics as { new: { code?: string }[] }).new.some((d) => d.code === "2393")).toBe(true);
  }, 240_000);

  test("a clean rename says its diagnostics were checked, never an empty note", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write(TS_PROJECT);
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const r = await call(await t.client(), "lsp_rename", { file: "src/shapes.ts", line: 14, symbol: "totalArea", new_name: "sumOfAreas" });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("Diagnostics checked: nothing new.");
  }, 240_000);
});
