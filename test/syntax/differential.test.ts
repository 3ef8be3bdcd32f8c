// Differential test: sidecar's matcher against the real ast-grep CLI on the same files.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { SyntaxService } from "../../src/syntax/service.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { DIFFERENTIAL_CASES, LADDER_ONLY_CASES } from "./differential-cases.ts";

const AST_GREP = join(import.meta.dir, "../../node_modules/.bin/ast-grep");

interface AstGrepMatch {
  text: string;
  range: { start: { line: number; column: number }; end: { line: number; column: number } };
}

function astGrep(pattern: string, language: string, file: string): string[] {
  if (!existsSync(AST_GREP)) throw new Error("ast-grep CLI missing: run `npm ci` (devDependency @ast-grep/cli).");
  let out: string;
  try {
    out = execFileSync(AST_GREP, ["run", "-p", pattern, "-l", language, "--json=compact", file], { encoding: "utf8", stdio: "pipe" });
  } catch (error) {
    // ast-grep exits 1 when nothing matched; its JSON answer is still on stdout.
    const failed = error as { status?: number; stdout?: string };
    if (failed.status !== 1 || failed.stdout === undefined) throw error;
    out = failed.stdout;
  }
  return (JSON.parse(out) as AstGrepMatch[]).map(
    (m) => `${m.range.start.line + 1}:${m.range.start.column + 1}-${m.range.end.line + 1}:${m.range.end.column + 1} ${m.text.split("\n")[0]}`,
  );
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
    const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, workers: 0 });
    try {
      const answer = await syntax.search({ pattern, path: c.file });
      const ours = answer.outcomes.flatMap((o) =>
        o.matches.map((m) => `${m.start.line}:${m.start.column}-${m.end.line}:${m.end.column} ${m.text.split("\n")[0]}`),
      );
      const theirs = astGrep(pattern, c.astGrepLanguage, join(dir.path, c.file));
      expect(theirs.length).toBeGreaterThan(0); // a case both sides miss proves nothing
      expect(ours).toEqual(theirs);
    } finally {
      await syntax.close();
    }
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
