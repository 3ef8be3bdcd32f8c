// code_action against the real servers: a missing import and organize imports (tsserver, gopls),
// what pyright offers, and a clangd fix-it: each staged, nothing written until resolve, the file
// right after it, and the project's checker clean.
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
  await dir.write({
    "ts/src/main.ts": "const parser = new Parser();\nexport const count = parser.run([\"-a\"]);\n",
    "ts/src/tidy.ts": 'import { parseArgs, Parser } from "./parser";\n\nexport const flags = parseArgs("a b");\n',
    "go/use.go": 'package shapes\n\nimport (\n\t"os"\n\t"strings"\n)\n\nfunc Joined() string {\n\treturn strings.Join(os.Args, " ")\n}\n\nfunc Upper(s string) string {\n\treturn strings.ToUpper(s)\n}\n',
    "c/typo.c": "int tally(void) {\n  int total = 2;\n  return totl + 1;\n}\n",
  });
  await dir.write({ "c/compile_commands.json": JSON.stringify(["calc.c", "typo.c"].map((file) => ({ directory: `${dir.path}/c`, file, arguments: ["cc", "-std=c11", "-c", file] }))) });
  run = await startTestRun(dir.path, { resources: { languageServers: {}, parser: {} } });
  client = await run.client();
});

afterAll(async () => {
  await run?.[Symbol.asyncDispose]();
  await dir?.[Symbol.asyncDispose]();
});

const read = (file: string) => readFile(join(dir.path, file), "utf8");

const checker = (folder: string, command: string, args: string[]) => projectChecker(dir.path, folder, command, args);

/** Lists the actions at the place, stages the one titled so, checks nothing was written, and accepts it. */
async function apply(place: Record<string, unknown>, title: RegExp): Promise<{ listed: string; staged: string; accepted: string }> {
  const listed = await call(client, "lsp", { action: "code_actions", ...place });
  expect(listed.isError).toBe(false);
  const rows = listed.data.results as { number: number; title: string }[];
  const row = rows.find((r) => title.test(r.title));
  if (!row) throw new Error(`no action matching ${title} in: ${listed.text}`);
  expect(listed.text).toContain(`${row.number}. ${row.title}`);
  const file = place.file as string;
  const before = await read(file);
  const staged = await call(client, "code_action", { ...place, action: row.number });
  expect(staged.isError).toBe(false);
  expect(staged.text).toContain("(proposed)");
  expect(await read(file)).toBe(before);
  const accepted = await call(client, "resolve", { edit_id: staged.data.edit_id, action: "accept" });
  expect(accepted.isError).toBe(false);
  return { listed: listed.text, staged: `${staged.text}\ncommand: ${staged.data.command ?? "none"}`, accepted: accepted.text };
}

describe("TypeScript (tsserver)", () => {
  test("add a missing import: numbered, staged, written by resolve, tsc clean", async () => {
    const { accepted } = await apply({ file: "ts/src/main.ts", line: 1, symbol: "Parser" }, /^Add import from/);
    expect(await read("ts/src/main.ts")).toStartWith('import { Parser } from "./parser";\n');
    expect(accepted).toContain("Diagnostics checked:");
    expect(checker("ts", "tsc", ["--noEmit", "-p", "."])).toBe("");
  });

  test("the source action that tidies imports (typescript-language-server 5 offers Remove Unused Imports) drops the unused one", async () => {
    await apply({ file: "ts/src/tidy.ts", line: 1, symbol: "Parser" }, /^Remove Unused Imports$/);
    expect(await read("ts/src/tidy.ts")).toStartWith('import { parseArgs } from "./parser";\n');
    expect(checker("ts", "tsc", ["--noEmit", "-p", "."])).toBe("");
  });

  test("an action by its exact title, and an unknown one refused with the list", async () => {
    const r = await call(client, "code_action", { file: "ts/src/main.ts", name_path: "count", action: "No such action" });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/offers (no action titled "No such action"|no code actions)/);
  });
});

describe("Go (gopls)", () => {
  test("organize imports on a file with an unused import: go vet clean after", async () => {
    await dir.write({ "go/tidy.go": 'package shapes\n\nimport (\n\t"fmt"\n\t"strings"\n)\n\nfunc Lower(s string) string {\n\treturn strings.ToLower(s)\n}\n' });
    await apply({ file: "go/tidy.go", line: 4, symbol: "fmt" }, /^Organize Imports$/);
  });

  test("an action that is a command (gopls's Fill): the edit it sends back through workspace/applyEdit is staged, not written", async () => {
    await dir.write({ "go/fill.go": 'package shapes\n\nfunc Make() Parser {\n\treturn Parser{}\n}\n' });
    const { staged } = await apply({ file: "go/fill.go", line: 4, symbol: "Parser" }, /^Fill Parser$/);
    expect(staged).toContain("command: gopls.");
    expect(await read("go/fill.go")).toContain('\treturn Parser{\n\t\tprefix: "",\n\t}\n');
    expect(checker("go", "go", ["vet", "./..."])).toBe("");
    expect(await read("go/tidy.go")).not.toContain('"fmt"');
    expect(checker("go", "go", ["vet", "./..."])).toBe("");
  });
});

describe("C (clangd)", () => {
  test("a fix-it: totl becomes total, clang clean after", async () => {
    await apply({ file: "c/typo.c", line: 3, symbol: "totl" }, /total/);
    expect(await read("c/typo.c")).toContain("return total + 1;");
    expect(checker("c", "clang", ["-std=c11", "-fsyntax-only", "-Werror", "typo.c"])).toBe("");
  });
});

describe("Python (pyright)", () => {
  test("what pyright offers at an undefined name is listed, numbered; none of it is applied without code_action", async () => {
    await dir.write({ "py/pkg/late.py": "value = Parser()\n" });
    const before = await read("py/pkg/late.py");
    const listed = await call(client, "lsp", { action: "code_actions", file: "py/pkg/late.py", line: 1, symbol: "Parser" });
    expect(listed.isError).toBe(false);
    for (const row of listed.data.results as { number: number }[]) expect(row.number).toBeGreaterThan(0);
    expect(await read("py/pkg/late.py")).toBe(before);
  });
});

test("the plan surface does not see code_action", async () => {
  const names = (await (await run.client("plan")).listTools()).tools.map((tool) => tool.name);
  expect(names).not.toContain("code_action");
});
