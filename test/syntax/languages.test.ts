// Every embedded language: its pattern finds the fixture's code, an identity rewrite changes
// nothing, a real rewrite stages the expected file, and where ast-grep has the language it finds the same.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { GRAMMAR_IDS } from "../../src/syntax/grammars.ts";
import { SyntaxService } from "../../src/syntax/service.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { LANGUAGE_CASES, type LanguageCase } from "./language-cases.ts";

// Each case loads a grammar; on a loaded machine that takes seconds.
setDefaultTimeout(30_000);

const AST_GREP = join(import.meta.dir, "../../node_modules/.bin/ast-grep");

async function search(c: LanguageCase, rewrite?: string) {
  await using dir = await tempDir();
  await dir.write({ [c.file]: c.code });
  const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, workers: 0 });
  try {
    const answer = await syntax.search({ pattern: c.pattern, path: c.file, language: c.language, rewrite });
    const theirs = c.astGrep ? astGrepStarts(c, join(dir.path, c.file)) : undefined;
    return { answer, theirs };
  } finally {
    await syntax.close();
  }
}

function astGrepStarts(c: LanguageCase, file: string): string[] {
  let out: string;
  try {
    out = execFileSync(AST_GREP, ["run", "-p", c.pattern, "-l", c.astGrep!, "--json=compact", file], { encoding: "utf8", stdio: "pipe" });
  } catch (error) {
    const failed = error as { status?: number; stdout?: string };
    if (failed.status !== 1 || failed.stdout === undefined) throw error;
    out = failed.stdout;
  }
  return (JSON.parse(out) as Array<{ text: string; range: { start: { line: number; column: number } } }>).map((m) => `${m.range.start.line + 1}:${m.range.start.column + 1} ${m.text.split("\n")[0]}`);
}

describe("every embedded language", () => {
  test("has a fixture here", () => {
    expect(LANGUAGE_CASES.map((c) => c.language).sort()).toEqual([...GRAMMAR_IDS].sort());
  });

  test.each(LANGUAGE_CASES.map((c) => [c.language, c] as const))("%s: search, identity rewrite, rewrite, and ast-grep where it has the language", async (_language, c) => {
    const { answer, theirs } = await search(c);
    const found = answer.outcomes.flatMap((o) => o.matches);
    expect(found.map((m) => m.text.split("\n")[0])).toEqual(c.expected);
    if (theirs) expect(found.map((m) => `${m.start.line}:${m.start.column} ${m.text.split("\n")[0]}`)).toEqual(theirs);
    const identity = await search(c, c.pattern);
    expect(identity.answer.outcomes[0]!.rewrite!.updated).toBe(c.code);
    const rewritten = await search(c, c.rewrite);
    expect(rewritten.answer.outcomes[0]!.rewrite!.updated).toBe(c.rewritten);
  });
});
