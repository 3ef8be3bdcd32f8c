// symbol_edit against the real servers (typescript-language-server, pyright, gopls, clangd): each
// operation stages a diff, resolve writes it with diagnostics, the text lands re-indented in the
// file's own unit with its blank-line habit, the project's checker is clean after, and an edit that
// breaks the syntax is refused before it is staged.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { call, requireBinary } from "./fixtures.ts";
import { projectChecker, writeSymbolProjects } from "./symbol-fixtures.ts";

let dir: TempDir;
let run: TestRun;
let client: Client;

beforeAll(async () => {
  requireBinary("clang", "apt-get install clang");
  dir = await tempDir();
  await writeSymbolProjects(dir);
  run = await startTestRun(dir.path, { resources: { languageServers: {}, parser: {} } });
  client = await run.client();
});

afterAll(async () => {
  await run?.[Symbol.asyncDispose]();
  await dir?.[Symbol.asyncDispose]();
});

const read = (file: string) => readFile(join(dir.path, file), "utf8");

const checker = (folder: string, command: string, args: string[]) => projectChecker(dir.path, folder, command, args);

/** Stages, checks the proposal wrote nothing, accepts, and answers resolve's text. */
async function stageAndAccept(file: string, args: Record<string, unknown>): Promise<{ staged: string; accepted: string }> {
  const before = await read(file);
  const staged = await call(client, "symbol_edit", { file, ...args });
  expect(staged.isError).toBe(false);
  expect(staged.text).toContain("(proposed)");
  expect(await read(file)).toBe(before);
  const accepted = await call(client, "resolve", { edit_id: staged.data.edit_id, action: "accept" });
  expect(accepted.isError).toBe(false);
  return { staged: staged.text, accepted: accepted.text };
}

describe("TypeScript", () => {
  test("replace_body keeps the signature and indents the statements two spaces deeper, as the file does", async () => {
    const { staged, accepted } = await stageAndAccept("ts/src/parser.ts", {
      name_path: "Parser/run",
      operation: "replace_body",
      text: "const flags = this.parseArgs(argv);\nif (flags.length > 1) {\n    return 2;\n}\nreturn flags.length;",
    });
    expect(staged).toContain("+    if (flags.length > 1) {");
    expect(await read("ts/src/parser.ts")).toContain(
      ["  run(argv: string[]): number {", "    const flags = this.parseArgs(argv);", "    if (flags.length > 1) {", "      return 2;", "    }", "    return flags.length;", "  }", "}"].join("\n"),
    );
    expect(accepted).toContain("Diagnostics checked: nothing new");
    expect(checker("ts", "tsc", ["--noEmit", "-p", "."])).toBe("");
  });

  test("an edit that leaves a syntax error is refused with where it breaks, and nothing is staged", async () => {
    const before = await read("ts/src/parser.ts");
    const r = await call(client, "symbol_edit", { file: "ts/src/parser.ts", name_path: "Parser/parseArgs", operation: "replace_body", text: "return argv.filter((a) => a.startsWith(\"-\");" });
    expect(r.isError).toBe(true);
    expect((r.data.error as { code: string }).code).toBe("syntax_error");
    expect(r.text).toMatch(/syntax errors it did not have: line 5, column \d+/);
    expect(await read("ts/src/parser.ts")).toBe(before);
  });

  test("delete of the file's last function takes the gap above it along", async () => {
    await stageAndAccept("ts/src/parser.ts", { name_path: "/parseArgs", operation: "delete" });
    const text = await read("ts/src/parser.ts");
    expect(text).not.toContain("export function parseArgs");
    expect(text.endsWith("  }\n}\n")).toBe(true);
  });
});

describe("Python", () => {
  test("insert_after puts a tab-indented method under the class at four spaces, one blank line apart", async () => {
    await stageAndAccept("py/pkg/cli.py", { name_path: "Parser/parse_args", operation: "insert_after", text: "def count(self, argv: str) -> int:\n\treturn len(argv.split())" });
    expect(await read("py/pkg/cli.py")).toContain(
      ['        return argv.split()', "", "    def count(self, argv: str) -> int:", "        return len(argv.split())", "", "    def run(self, argv: str) -> int:"].join("\n"),
    );
    expect(checker("py", "pyright", ["pkg"])).toBe("");
  });

  test("insert_before a top-level function leaves two blank lines, as the file does", async () => {
    await stageAndAccept("py/pkg/cli.py", { name_path: "main", operation: "insert_before", text: "def version() -> str:\n    return \"1\"" });
    expect(await read("py/pkg/cli.py")).toContain(['        return len(self.parse_args(argv))', "", "", "def version() -> str:", '    return "1"', "", "", "def main() -> int:"].join("\n"));
  });

  test("replace_body of a decorated method replaces its block, decorator and signature kept", async () => {
    await stageAndAccept("py/pkg/cli.py", { name_path: "Parser/parse_args", operation: "replace_body", text: "return [a for a in argv.split() if a]" });
    expect(await read("py/pkg/cli.py")).toContain(["    @functools.cache", "    def parse_args(self, argv: str) -> list[str]:", "        return [a for a in argv.split() if a]", "", "    def count"].join("\n"));
    expect(checker("py", "pyright", ["pkg"])).toBe("");
  });
});

describe("Go", () => {
  test("replace of a method with its doc comment, written with spaces, lands with the file's tabs", async () => {
    await stageAndAccept("go/shapes.go", {
      name_path: "Parser/Parse",
      operation: "replace",
      text: "// Parse prefixes each argument.\nfunc (p *Parser) Parse(argv []string) []string {\n    out := make([]string, 0, len(argv))\n    for _, a := range argv {\n        out = append(out, p.prefix+a)\n    }\n    return out\n}",
    });
    const text = await read("go/shapes.go");
    expect(text).toContain("// Parse prefixes each argument.\nfunc (p *Parser) Parse(argv []string) []string {\n\tout := make([]string, 0, len(argv))\n\tfor _, a := range argv {\n\t\tout = append(out, p.prefix+a)\n\t}\n\treturn out\n}\n\n// Run");
    expect(text).not.toContain("// Parse reads the arguments.");
    expect(checker("go", "go", ["vet", "./..."])).toBe("");
  });

  test("a replace_body that changes nothing stages nothing and says so", async () => {
    const r = await call(client, "symbol_edit", { file: "go/shapes.go", name_path: "Run", operation: "replace_body", text: 'p := &Parser{prefix: "-"}\nreturn len(p.Parse(argv))' });
    expect(r.isError).toBe(false);
    expect(r.text).toBe("Nothing staged: go/shapes.go already reads so.");
    expect(r.data.edit_id).toBeUndefined();
  });
});

describe("C", () => {
  test("insert_before main and replace_body of main: clang is clean after", async () => {
    await stageAndAccept("c/calc.c", { name_path: "main", operation: "insert_before", text: "static int twice(int n) {\n    return n * 2;\n}" });
    await stageAndAccept("c/calc.c", { name_path: "main", operation: "replace_body", text: 'printf("%d\\n", twice(add_one(2)));\nreturn 0;' });
    expect(await read("c/calc.c")).toContain(
      ["}", "", "static int twice(int n) {", "  return n * 2;", "}", "", "int main(void) {", '  printf("%d\\n", twice(add_one(2)));', "  return 0;", "}"].join("\n"),
    );
    expect(checker("c", "clang", ["-std=c11", "-fsyntax-only", "-Wall", "-Werror", "calc.c"])).toBe("");
  });

  test("a delete that breaks a caller is staged (it parses), and resolve names what it broke", async () => {
    const { accepted } = await stageAndAccept("c/calc.c", { name_path: "twice", operation: "delete" });
    expect(accepted).toContain("1 new diagnostic after this write");
    expect(accepted).toContain("c/calc.c:9: warning -Wimplicit-function-declaration: Implicit declaration of function 'twice'");
  });
});

test("the plan surface does not see symbol_edit", async () => {
  const names = (await (await run.client("plan")).listTools()).tools.map((tool) => tool.name);
  expect(names).toContain("lsp");
  expect(names).not.toContain("symbol_edit");
});
