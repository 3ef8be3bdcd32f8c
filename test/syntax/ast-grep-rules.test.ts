// The rule argument of ast_grep and ast_edit through a real run and the official MCP client:
// YAML and JSON configs, the pre-filter and its note, and every kind of refusal.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { readRuleConfig } from "../../src/syntax/rules/validate.ts";
import { SyntaxService } from "../../src/syntax/service.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call } from "../helpers/call.ts";

setDefaultTimeout(30_000);

const PARSER = { resources: { parser: {} } };

const LOOPS = `async function load(urls) {
  for (const u of urls) {
    await fetch(u); // await in a loop
  }
  await done();
}
`;

describe("ast_grep with a rule", () => {
  test("a YAML rule and the same rule as a JSON object find the await inside a loop, not the one after it", async () => {
    await using dir = await tempDir();
    await dir.write({ "src/load.js": LOOPS, "src/other.js": "const x = 1;\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const yaml = "rule:\n  pattern: await $X\n  inside:\n    kind: for_in_statement\n    stopBy: end\n";
    const fromYaml = await call(client, "ast_grep", { rule: yaml, language: "javascript" });
    expect(fromYaml.isError).toBe(false);
    const matches = fromYaml.data.matches as Array<{ path: string; start: { line: number }; bindings: Record<string, string> }>;
    expect(matches.map((m) => [m.path, m.start.line, m.bindings.X])).toEqual([["src/load.js", 3, "fetch(u)"]]);
    const fromJson = await call(client, "ast_grep", { rule: { rule: { pattern: "await $X", inside: { kind: "for_in_statement", stopBy: "end" } } }, language: "javascript" });
    expect(fromJson.data.matches).toEqual(fromYaml.data.matches);
    // The language may come in the config, as in an ast-grep rule file.
    const inConfig = await call(client, "ast_grep", { rule: `language: javascript\n${yaml}` });
    expect(inConfig.data.matches).toEqual(fromYaml.data.matches);
  });

  test("a rule needing no literal says every file was parsed; one with a literal skips files without it", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.js": LOOPS, "b.js": "const x = 1;\n", "c.js": "let y = 2;\n" });
    const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, workers: 1 });
    try {
      const byKind = await syntax.search({ pattern: "", rule: await readRuleConfig("rule: {kind: await_expression}", false), language: "javascript" });
      expect(byKind.stats.candidates).toBe(3);
      const withLiteral = await syntax.search({ pattern: "", rule: await readRuleConfig("rule: {kind: call_expression, regex: '^fetch\\('}", false), language: "javascript" });
      expect(withLiteral.stats.candidates).toBe(1);
      const inPattern = await syntax.search({ pattern: "", rule: await readRuleConfig("rule: {any: [{pattern: 'done()'}, {pattern: 'await done()'}]}", false), language: "javascript" });
      expect(inPattern.stats.candidates).toBe(1);
      expect(inPattern.outcomes.flatMap((o) => o.matches.map((m) => m.text))).toEqual(["await done()", "done()"]);
    } finally {
      await syntax.close();
    }
    await using t = await startTestRun(dir.path, PARSER);
    const r = await call(await t.client(), "ast_grep", { rule: "rule: {kind: await_expression}", language: "javascript" });
    expect(r.data.notes as string[]).toContainEqual(expect.stringContaining("every file was parsed"));
    const literal = await call(await t.client(), "ast_grep", { rule: "rule: {pattern: 'await $X'}", language: "javascript" });
    expect((literal.data.notes as string[]).some((n) => n.includes("every file was parsed"))).toBe(false);
  });

  const refusals: Array<[string, Record<string, unknown>, string, RegExp[]]> = [
    ["an unknown key, with its path and the keys valid there", { rule: "rule:\n  has:\n    knd: call_expression\n" }, "invalid_pattern", [/`rule\.has` has an unknown key `knd` \(did you mean `kind`\?\)/, /Valid keys there: pattern, kind, regex, nthChild, range, inside, has, precedes, follows, all, any, not, matches, stopBy, field/]],
    ["a value of the wrong type", { rule: { rule: { all: { pattern: "x" } } } }, "invalid_pattern", [/`rule\.all` is an object; expected a list of rule objects/]],
    ["a rule object with no key that matches", { rule: "rule:\n  any:\n    - {}\n" }, "invalid_pattern", [/`rule\.any\[0\]` has no key that matches a node, so it can match nothing/]],
    ["a rule whose node kinds are unknown (ast-grep refuses it too)", { rule: "rule: {regex: foo}" }, "invalid_pattern", [/does not say which node kinds it matches/, /Add `kind`/]],
    ["a YAML syntax error, with its line and column", { rule: "rule:\n  pattern: foo(\n   kind: [x\n" }, "invalid_pattern", [/not valid YAML at line \d+, column \d+/]],
    ["a kind the grammar does not have, with similar ones", { rule: "rule: {kind: call_expr}" }, "invalid_pattern", [/`rule\.kind`: javascript has no node kind "call_expr"/, /call_expression/]],
    ["a field the grammar does not have", { rule: "rule: {kind: call_expression, has: {field: callee, kind: identifier}}" }, "invalid_pattern", [/`rule\.has\.field`: javascript has no field "callee"/, /function/]],
    ["a field on precedes, which has none", { rule: "rule: {kind: identifier, precedes: {field: name, kind: identifier}}" }, "invalid_pattern", [/`rule\.precedes` has an unknown key `field`/]],
    ["a util that is not defined", { rule: "rule: {kind: identifier, matches: nope}" }, "invalid_pattern", [/`rule\.matches` names the util "nope", which `utils` does not define/]],
    ["a util that refers to itself", { rule: "utils:\n  loop: {kind: identifier, not: {matches: loop}}\nrule: {matches: loop}" }, "invalid_pattern", [/matches itself/]],
    ["a constraint on a metavariable the rule never binds", { rule: "rule: {pattern: foo($A)}\nconstraints:\n  B: {kind: identifier}" }, "invalid_pattern", [/`constraints\.B` constrains \$B, which the rule never binds \(it binds \$A\)/]],
    ["a pattern that does not parse, with its path", { rule: "rule: {pattern: 'foo(('}" }, "invalid_pattern", [/`rule\.pattern`: The pattern "foo\(\(" does not parse/]],
    ["a stopBy that is neither neighbor, end nor a rule", { rule: "rule: {kind: identifier, inside: {kind: program, stopBy: top}}" }, "invalid_pattern", [/`rule\.inside\.stopBy` is "top"; expected "neighbor", "end" or a rule object/]],
    ["an nthChild that is no position", { rule: "rule: {kind: identifier, nthChild: 'odd'}" }, "invalid_pattern", [/`rule\.nthChild` is string "odd"; expected a position/]],
    ["a transform in ast_grep, which does not rewrite", { rule: "rule: {pattern: foo($A)}\ntransform:\n  B: {substring: {source: $A}}" }, "invalid_pattern", [/has `transform`: ast_grep only searches/]],
    ["both pattern and rule", { pattern: "foo($A)", rule: "rule: {pattern: foo($A)}" }, "invalid_arguments", [/exactly one of them/]],
    ["neither pattern nor rule", {}, "invalid_arguments", [/exactly one of them/]],
    ["a directory searched with a rule and no language", { rule: "rule: {pattern: foo($A)}" }, "invalid_arguments", [/needs its language/]],
  ];
  test.each(refusals)("refuses %s", async (_what, args, code, messages) => {
    await using dir = await tempDir();
    await dir.write({ "a.js": "foo(1);\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const needsLanguage = "rule" in args && !String(messages[0]).includes("needs its language");
    const r = await call(await t.client(), "ast_grep", needsLanguage ? { ...args, language: "javascript" } : args);
    expect(r.isError).toBe(true);
    expect((r.data.error as { code: string }).code).toBe(code);
    for (const message of messages) expect(r.text).toMatch(message);
  });
});

describe("ast_edit with a rule", () => {
  test("stages the rule's fix, with a transform's new metavariable, and refuses a template with a metavariable nobody binds", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.py": "def risky():\n    try:\n        work()\n    except:\n        pass\n    print('x')\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const rule = "rule:\n  pattern: print($A)\ntransform:\n  Q:\n    replace: {source: $A, replace: \"'\", by: '\"'}\nfix: log($Q)\n";
    const staged = await call(client, "ast_edit", { rule, path: "a.py" });
    expect(staged.isError).toBe(false);
    expect(staged.data.diff as string).toContain('+    log("x")');
    const typo = await call(client, "ast_edit", { rule: "rule: {pattern: print($A)}", rewrite: "log($B)", path: "a.py" });
    expect(typo.isError).toBe(true);
    expect(typo.text).toContain("$B");
    const none = await call(client, "ast_edit", { rule: "rule: {pattern: print($A)}", path: "a.py" });
    expect((none.data.error as { code: string }).code).toBe("invalid_arguments");
  });
});
