// Differential test: sidecar's matcher against the real ast-grep CLI on the same files.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { SyntaxService } from "../../src/syntax/service.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { astGrep } from "./ast-grep-cli.ts";
import { CONTEXT_CASES, DIFFERENTIAL_CASES, LADDER_ONLY_CASES, PATTERN_RULE_CASES, type DifferentialCase } from "./differential-cases.ts";

// Each test starts a run and its parse workers (or a parser); on a loaded machine, or under
// nice -n 19, that takes seconds. Speed is measured by bench/ast-grep.ts, not here.
setDefaultTimeout(30_000);

async function ours(c: DifferentialCase, pattern: string, dir: string): Promise<string[]> {
  const syntax = new SyntaxService({ workdir: dir, source: bunPrimitives.grammars, workers: 0 });
  try {
    const answer = await syntax.search({ pattern, path: c.file, language: c.language });
    return answer.outcomes.flatMap((o) => o.matches.map((m) => `${m.start.line}:${m.start.column}-${m.end.line}:${m.end.column} ${m.text.split("\n")[0]}`));
  } finally {
    await syntax.close();
  }
}

describe("matches agree with the ast-grep CLI", () => {
  const cases = DIFFERENTIAL_CASES.flatMap((c) => c.patterns.map((pattern) => [c.language, pattern, c] as const));
  test("the cases cover at least ten languages, dart included", () => {
    const languages = new Set(DIFFERENTIAL_CASES.map((c) => c.language));
    expect(languages.size).toBeGreaterThanOrEqual(10);
    expect(languages.has("dart")).toBe(true);
  });

  test.each(cases)("%s: %s", async (_language, pattern, c) => {
    await using dir = await tempDir();
    await dir.write({ [c.file]: c.code });
    const theirs = astGrep(pattern, c.astGrepLanguage, join(dir.path, c.file));
    expect(theirs.length).toBeGreaterThan(0); // a case both sides miss proves nothing
    expect(await ours(c, pattern, dir.path)).toEqual(theirs);
  });
});

describe("a bare pattern finds what ast-grep finds with the pattern put in a context", () => {
  const cases = CONTEXT_CASES.flatMap((c) => c.patterns.map((pattern) => [c.language, pattern, c] as const));
  test.each(cases)("%s: %s", async (_language, pattern, c) => {
    await using dir = await tempDir();
    await dir.write({ [c.file]: c.code });
    const rule = [
      "id: differential",
      `language: ${c.astGrepLanguage}`,
      "rule:",
      "  pattern:",
      `    context: ${JSON.stringify(c.context.replace("PATTERN", pattern))}`,
      `    selector: ${c.selector}`,
    ].join("\n");
    const theirs = astGrep(pattern, c.astGrepLanguage, join(dir.path, c.file), rule);
    expect(theirs.length).toBeGreaterThan(0);
    expect(await ours(c, pattern, dir.path)).toEqual(theirs);
  });
});

describe("the context ladder finds calls ast-grep's plain parse misreads", () => {
  test.each(LADDER_ONLY_CASES.map((c) => [c.language, c.pattern, c] as const))("%s: %s", async (_language, pattern, c) => {
    await using dir = await tempDir();
    await dir.write({ [c.file]: c.code });
    const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, workers: 0 });
    try {
      const answer = await syntax.search({ pattern, path: c.file });
      expect(answer.outcomes.flatMap((o) => o.matches.map((m) => m.text))).toEqual(c.expected);
      expect(astGrep(pattern, c.astGrepLanguage, join(dir.path, c.file))).toEqual([]);
    } finally {
      await syntax.close();
    }
  });
});

describe("an identity rewrite finds what ast-grep finds and changes nothing", () => {
  const cases: Array<DifferentialCase & { pattern: string }> = [
    {
      // ast-grep's own rewrite joins `x = 1` onto the `def` line and dedents the rest to module level.
      language: "python",
      astGrepLanguage: "python",
      file: "a.py",
      code: "class A:\n    def f(self, a):\n        x = 1\n        return x\n\ndef g():\n    # c\n    y = 2\n    if y:\n        pass\n    return y\n",
      patterns: [],
      pattern: "def $F($$$A): $$$B",
    },
    {
      language: "javascript",
      astGrepLanguage: "javascript",
      file: "a.js",
      code: "foo(\n  a,\n  b, // c\n);\nfoo(1,2);\nfoo(/* x */ 3, 4)\n",
      patterns: [],
      pattern: "foo($A, $B)",
    },
  ];
  test.each(cases.map((c) => [c.language, c.pattern, c] as const))("%s: %s", async (_language, pattern, c) => {
    await using dir = await tempDir();
    await dir.write({ [c.file]: c.code });
    const theirs = astGrep(pattern, c.astGrepLanguage, join(dir.path, c.file));
    expect(theirs.length).toBeGreaterThan(1);
    expect(await ours(c, pattern, dir.path)).toEqual(theirs);
    const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, workers: 0 });
    try {
      const answer = await syntax.search({ pattern, path: c.file, rewrite: pattern });
      expect(answer.outcomes[0]!.rewrite!.updated).toBe(c.code);
    } finally {
      await syntax.close();
    }
  });
});

describe("a pattern finds what the ast-grep rule that says the same finds", () => {
  test.each(PATTERN_RULE_CASES.map((c) => [c.language, c.pattern, c] as const))("%s: %s", async (_language, pattern, c) => {
    await using dir = await tempDir();
    await dir.write({ [c.file]: c.code });
    const theirs = astGrep(pattern, c.language, join(dir.path, c.file), `id: differential\nlanguage: ${c.language}\n${c.rule}`);
    expect(theirs.length).toBeGreaterThan(0);
    expect(await ours({ ...c, astGrepLanguage: c.language, patterns: [] }, pattern, dir.path)).toEqual(theirs);
  });
});
