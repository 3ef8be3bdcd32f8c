// ast_grep's syntax_tree option through a real run and the official MCP client: a snippet's tree,
// a file's lines, the depth limit, how a pattern parsed, and what it refuses.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call } from "./call.ts";

setDefaultTimeout(30_000);

const PARSER = { resources: { parser: {} } };

describe("ast_grep shows what the grammar sees", () => {
  test("a snippet's named nodes with fields and positions, and how a pattern parsed", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const r = await call(client, "ast_grep", { syntax_tree: { code: "try:\n    a()\nexcept ValueError:\n    pass\n" }, language: "python", pattern: "print($A)" });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('the pattern "print($A)" parsed as statement; its root is a call node');
    expect(r.text).toContain("    $A (one named node)");
    expect(r.text).toContain("  try_statement 1:1-4:9");
    expect(r.text).toContain("    body: block 2:5-2:8");
    expect(r.text).toContain('      value: identifier 3:8-3:18 "ValueError"');
    expect(r.data.syntax_tree).toBe(r.text);
  });

  test("a file's lines, to the depth asked, with what was left out counted", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.js": "const a = 1;\nfoo(bar(baz(1)));\nconst b = 2;\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const r = await call(await t.client(), "ast_grep", { syntax_tree: { lines: "2", depth: 2 }, path: "a.js" });
    expect(r.isError).toBe(false);
    expect(r.text.split("\n").slice(0, 4)).toEqual(["expression_statement 2:1-2:18", "  call_expression 2:1-2:17", '    function: identifier 2:1-2:4 "foo"', "    arguments: arguments 2:4-2:17"]);
    expect(r.text).not.toContain("const");
    expect(r.text).toMatch(/note: \d+ deeper or later node\(s\) not shown/);
  });

  test("a broken snippet's ERROR nodes are drawn and counted", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, PARSER);
    const r = await call(await t.client(), "ast_grep", { syntax_tree: { code: "foo(;" }, language: "javascript" });
    expect(r.text).toContain("ERROR");
    expect(r.text).toMatch(/note: \d+ ERROR or MISSING node\(s\)/);
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ["a rule", { syntax_tree: { code: "x" }, language: "javascript", rule: "rule: {kind: identifier}" }, "invalid_arguments"],
    ["code without a language", { syntax_tree: { code: "x" } }, "invalid_arguments"],
    ["a directory as path", { syntax_tree: {}, path: "." }, "file_not_found"],
    ["a pattern that does not parse", { syntax_tree: {}, language: "javascript", pattern: "foo((" }, "invalid_pattern"],
  ];
  test.each(refusals)("refuses %s", async (_what, args, code) => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, PARSER);
    const r = await call(await t.client(), "ast_grep", args);
    expect(r.isError).toBe(true);
    expect((r.data.error as { code: string }).code).toBe(code);
  });
});
