// Name paths in every position action, `body` and references with the definition around each use,
// against the real servers: typescript-language-server, pyright, gopls and clangd.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { call, LSP_CONFIG } from "./fixtures.ts";
import { writeSymbolProjects } from "./symbol-fixtures.ts";

let dir: TempDir;
let run: TestRun;
let client: Client;

beforeAll(async () => {
  dir = await tempDir();
  await writeSymbolProjects(dir);
  run = await startTestRun(dir.path, LSP_CONFIG);
  client = await run.client();
});

afterAll(async () => {
  await run?.[Symbol.asyncDispose]();
  await dir?.[Symbol.asyncDispose]();
});

const lsp = (args: Record<string, unknown>) => call(client, "lsp", args);
const errorOf = (r: { data: Record<string, unknown> }) => (r.data.error as { code: string } | undefined)?.code;

describe("a name path addresses a definition in every position action", () => {
  test("Class/method goes to the method, not the function of the same name", async () => {
    const r = await lsp({ action: "definition", file: "ts/src/parser.ts", name_path: "Parser/parseArgs" });
    expect(r.isError).toBe(false);
    expect(r.data.results).toEqual([{ path: "ts/src/parser.ts", line: 4, column: 3, preview: "parseArgs(argv: string[]): string[] {" }]);
  });

  test("a bare name that matches two definitions is ambiguous_symbol, listing each with its line", async () => {
    const r = await lsp({ action: "hover", file: "ts/src/parser.ts", name_path: "parseArgs" });
    expect(r.isError).toBe(true);
    expect(errorOf(r)).toBe("ambiguous_symbol");
    expect(r.text).toContain("Parser/parseArgs (method, line 4)");
    expect(r.text).toContain("parseArgs (function, line 14)");
  });

  test("name#2 picks the second match in source order", async () => {
    const r = await lsp({ action: "hover", file: "ts/src/parser.ts", name_path: "parseArgs#2" });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("function parseArgs(text: string): string[]");
  });

  test("a path that names nothing is symbol_not_found with the nearest names", async () => {
    const r = await lsp({ action: "references", file: "ts/src/parser.ts", name_path: "Parser/parseArg" });
    expect(errorOf(r)).toBe("symbol_not_found");
    expect(r.text).toContain("Parser/parseArgs (line 4)");
  });

  test("outer/inner names a nested function (pyright)", async () => {
    const r = await lsp({ action: "hover", file: "py/pkg/cli.py", name_path: "main/helper" });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("def helper() -> int");
  });

  test("gopls's (*Parser).Parse is Parser/Parse", async () => {
    const r = await lsp({ action: "definition", file: "go/shapes.go", name_path: "Parser/Parse" });
    expect(r.data.results).toEqual([{ path: "go/shapes.go", line: 9, column: 18, preview: "func (p *Parser) Parse(argv []string) []string {" }]);
  });

  test("passing both a name path and line + symbol is refused", async () => {
    const r = await lsp({ action: "hover", file: "ts/src/parser.ts", name_path: "Parser", line: 2, symbol: "Parser" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("either name_path or line and symbol");
  });
});

describe("references say which definition holds each use", () => {
  test.each([
    ["TypeScript", "ts/src/parser.ts", "Parser/parseArgs", "ts/src/parser.ts", 9, "Parser/run"],
    ["Python", "py/pkg/cli.py", "Parser/parse_args", "py/pkg/cli.py", 13, "Parser/run"],
    ["Go", "go/shapes.go", "Parser/Parse", "go/shapes.go", 20, "Run"],
    ["C", "c/calc.c", "add_one", "c/calc.c", 9, "main"],
  ])("%s", async (_language, file, namePath, usePath, useLine, holder) => {
    const r = await lsp({ action: "references", file, name_path: namePath });
    expect(r.isError).toBe(false);
    const rows = r.data.results as { path: string; line: number; in?: string }[];
    expect(rows.find((row) => row.path === usePath && row.line === useLine)?.in).toBe(holder);
    expect(r.text).toContain(`(in ${holder})`);
  });
});

describe("body shows the definition's whole text, doc comment and decorators included", () => {
  test.each([
    ["TypeScript", "ts/src/parser.ts", "Parser/parseArgs", 3, 6, "/** Reads the arguments. */"],
    ["Python", "py/pkg/cli.py", "Parser/parse_args", 7, 10, "@functools.cache"],
    ["Go", "go/shapes.go", "Parser/Parse", 8, 15, "// Parse reads the arguments."],
    ["C", "c/calc.c", "add_one", 3, 6, "/* Adds one. */"],
  ])("%s", async (_language, file, namePath, first, last, opening) => {
    const r = await lsp({ action: "body", file, name_path: namePath });
    expect(r.isError).toBe(false);
    expect(r.data.start_line).toBe(first);
    expect(r.data.end_line).toBe(last);
    const rows = r.data.results as { line: number; text: string }[];
    expect(rows[0]).toEqual({ line: first, text: expect.stringContaining(opening) });
    expect(rows.map((row) => row.line)).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
  });

  test("depth 1 shows a class with its methods' signatures, not their bodies", async () => {
    const r = await lsp({ action: "body", file: "py/pkg/cli.py", name_path: "Parser", depth: 1 });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("def parse_args(self, argv: str) -> list[str]:");
    expect(r.text).toContain("def run(self, argv: str) -> int:");
    expect(r.text).not.toContain("return len(self.parse_args(argv))");
    expect(r.text).toMatch(/body of run: lines 13–13 left out/);
  });

  test("line + symbol at a use reads the definition it uses", async () => {
    const r = await lsp({ action: "body", file: "c/calc.c", line: 9, symbol: "add_one" });
    expect(r.data.name_path).toBe("add_one");
    expect(r.data.start_line).toBe(3);
  });

  test("without file, the workspace symbol search finds the one file that defines it", async () => {
    const r = await lsp({ action: "body", name_path: "Parser/parse_args" });
    expect(r.isError).toBe(false);
    expect(r.data.path).toBe("py/pkg/cli.py");
  });
});

test("lsp_rename takes a name path", async () => {
  const r = await call(client, "lsp_rename", { file: "ts/src/parser.ts", name_path: "Parser/run", new_name: "execute" });
  expect(r.isError).toBe(false);
  expect(r.text).toContain("Renamed run to execute");
  expect(await Bun.file(`${dir.path}/ts/src/parser.ts`).text()).toContain("  execute(argv: string[]): number {");
});
