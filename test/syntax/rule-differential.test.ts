// Differential test of the rule language: each rule config is run by the real ast-grep CLI
// (`scan --inline-rules`) and by sidecar's search on the same file, and must find the same ranges;
// rewrites (fix, transform) must leave the same file as `ast-grep scan --update-all`.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { readRuleConfig } from "../../src/syntax/rules/validate.ts";
import { SyntaxService } from "../../src/syntax/service.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { astGrep, astGrepFix, byPosition } from "./ast-grep-cli.ts";
import { FIX_CASES, RULE_SAMPLES, WORKED_EXAMPLE_CODE, type RuleSample } from "./rule-cases.ts";

setDefaultTimeout(30_000);

const KEYS = [
  "pattern", "pattern.context", "pattern.selector", "pattern.strictness", "kind", "regex", "nthChild", "nthChild.ofRule", "range",
  "inside", "has", "precedes", "follows", "stopBy.neighbor", "stopBy.end", "stopBy.rule", "inside.field", "has.field",
  "all", "any", "not", "matches", "utils", "constraints",
];
const LANGUAGES = ["typescript", "javascript", "python", "go", "rust", "java", "c", "cpp"];

function config(sample: { language: string }, yaml: string): string {
  return `id: differential\nlanguage: ${sample.language}\n${yaml}`;
}

test("every rule key is exercised in each of TypeScript, JavaScript, Python, Go, Rust, Java, C and C++", () => {
  const missing = LANGUAGES.flatMap((language) => {
    const covered = new Set(RULE_SAMPLES.filter((s) => s.language === language).flatMap((s) => s.rules.filter((c) => !c.none).flatMap((c) => c.keys)));
    return KEYS.filter((key) => !covered.has(key)).map((key) => `${language}: ${key}`);
  });
  expect(missing).toEqual([]);
  const rewritten = new Set(FIX_CASES.map((c) => c.language));
  expect(LANGUAGES.filter((language) => !rewritten.has(language))).toEqual([]);
});

describe.each(RULE_SAMPLES.map((s) => [s.language, s] as const))("rules agree with ast-grep scan: %s", (_language, sample: RuleSample) => {
  let dir: TempDir;
  let syntax: SyntaxService;
  beforeAll(async () => {
    dir = await tempDir();
    await dir.write({ [sample.file]: sample.code });
    // One parse worker: the rule travels to it and is compiled and matched there, as in a run.
    syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, workers: 1 });
  });
  afterAll(async () => {
    await syntax.close();
    await dir[Symbol.asyncDispose]();
  });

  test.each(sample.rules.map((c) => [c.yaml.replace(/\n\s*/g, " "), c] as const))("%s", async (_name, c) => {
    const text = config(sample, c.yaml);
    const theirs = astGrep("", sample.language, join(dir.path, sample.file), text);
    if (c.none) expect(theirs).toEqual([]);
    else expect(theirs.length).toBeGreaterThan(0); // a case both sides miss proves nothing
    const answer = await syntax.search({ pattern: "", rule: await readRuleConfig(text, false), path: sample.file });
    const ours = answer.outcomes.flatMap((o) => o.matches.map((m) => `${m.start.line}:${m.start.column}-${m.end.line}:${m.end.column} ${m.text.split("\n")[0]}`));
    expect(ours.sort(byPosition)).toEqual(theirs);
  });
});

describe("rule rewrites leave the file ast-grep's fix leaves", () => {
  test.each(FIX_CASES.map((c) => [c.language, c.yaml.replace(/\n\s*/g, " "), c] as const))("%s: %s", async (_language, _name, c) => {
    const sample = RULE_SAMPLES.find((s) => s.file === c.file)!;
    await using dir = await tempDir();
    await dir.write({ [c.file]: sample.code });
    const text = config(sample, c.yaml);
    const rule = await readRuleConfig(text, true);
    const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, workers: 0 });
    let updated: string | undefined;
    try {
      const answer = await syntax.search({ pattern: "", rule, path: c.file, rewrite: rule.fix! });
      updated = answer.outcomes[0]?.rewrite?.updated;
    } finally {
      await syntax.close();
    }
    astGrepFix(text, join(dir.path, c.file));
    const theirs = readFileSync(join(dir.path, c.file), "utf8");
    expect(theirs).not.toBe(sample.code); // the fix changed something
    expect(updated).toBe(theirs);
  });
});

describe("the worked examples of docs/ast-grep.md agree with ast-grep", () => {
  const docs = readFileSync(join(import.meta.dir, "../../docs/ast-grep.md"), "utf8");
  const section = docs.slice(docs.indexOf("### Worked examples"));
  const examples = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
  test("there are five, one per question of the issue", () => {
    expect(examples.length).toBe(WORKED_EXAMPLE_CODE.length);
  });
  test.each(WORKED_EXAMPLE_CODE.map((c, k) => [c.language, c.file, k] as const))("%s: %s", async (_language, _file, k) => {
    const sample = WORKED_EXAMPLE_CODE[k]!;
    await using dir = await tempDir();
    await dir.write({ [sample.file]: sample.code });
    const text = config(sample, examples[k]!);
    const theirs = astGrep("", sample.language, join(dir.path, sample.file), text);
    expect(theirs.length).toBeGreaterThan(0);
    const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, workers: 0 });
    try {
      const answer = await syntax.search({ pattern: "", rule: await readRuleConfig(text, false), path: sample.file });
      const ours = answer.outcomes.flatMap((o) => o.matches.map((m) => `${m.start.line}:${m.start.column}-${m.end.line}:${m.end.column} ${m.text.split("\n")[0]}`));
      expect(ours.sort(byPosition)).toEqual(theirs);
      expect(theirs.some((m) => m.includes("comment"))).toBe(false);
    } finally {
      await syntax.close();
    }
  });
});
