// Rule searches (issue 41) against `ast-grep scan` over the bench corpus: a fresh SyntaxService's
// first search of each rule (cold: workers start, files read and parsed) and its second (warm),
// each against ast-grep's whole run measured in the same round. Medians over the rounds; the
// matches must agree, or the figures mean nothing. Usage: bun bench/ast-grep-rules.ts [rounds]
import { execFileSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { bunPrimitives } from "../src/runtime/bun.ts";
import { readRuleConfig } from "../src/syntax/rules/validate.ts";
import { SyntaxService } from "../src/syntax/service.ts";
import { countArg } from "./args.ts";
import { buildCorpus } from "./ast-grep-corpus.ts";
import { median, ms } from "./stats.ts";
import { engineAsServe } from "./engine.ts";

/** Before anything is measured: the bench runs the engine as serve does (bench/engine.ts). */
const ENGINE = engineAsServe();

const AST_GREP = join(import.meta.dir, "../node_modules/.bin/ast-grep");
const rounds = countArg(2, "rounds", 3, "usage: bun bench/ast-grep-rules.ts [rounds]");

const RULES = [
  { language: "javascript", name: "await inside a loop", yaml: "rule:\n  pattern: await $X\n  inside:\n    stopBy: end\n    any:\n      - kind: for_statement\n      - kind: for_in_statement\n      - kind: while_statement" },
  { language: "javascript", name: "console.log not in a test", yaml: "rule:\n  pattern: console.log($$$A)\n  not:\n    inside:\n      stopBy: end\n      pattern: test($$$)" },
  { language: "python", name: "except: with no type", yaml: "rule:\n  kind: except_clause\n  not:\n    has:\n      any:\n        - kind: identifier\n        - kind: attribute\n        - kind: tuple\n        - kind: as_pattern" },
  { language: "typescript", name: "function with no try (kind only)", yaml: "rule:\n  kind: function_declaration\n  not:\n    has:\n      kind: try_statement\n      stopBy: end" },
];

function astGrepScan(language: string, yaml: string, corpus: string): { ms: number; count: number } {
  const started = performance.now();
  let out: string;
  try {
    out = execFileSync(AST_GREP, ["scan", "--inline-rules", `id: bench\nlanguage: ${language}\n${yaml}`, "--json=compact", corpus], { encoding: "utf8", maxBuffer: 1 << 28 });
  } catch (error) {
    out = (error as { stdout: string }).stdout;
  }
  return { ms: performance.now() - started, count: (JSON.parse(out || "[]") as unknown[]).length };
}

const corpus = buildCorpus();
console.log(`${rounds} round(s), ${availableParallelism()} worker(s); ${ENGINE}`);
for (const r of RULES) {
  const cold: number[] = [];
  const warm: number[] = [];
  const theirs: number[] = [];
  let counts = "";
  for (let round = 0; round < rounds; round++) {
    const sg = astGrepScan(r.language, r.yaml, corpus);
    theirs.push(sg.ms);
    const syntax = new SyntaxService({ workdir: corpus, source: bunPrimitives.grammars });
    try {
      const rule = await readRuleConfig(r.yaml, false);
      let started = performance.now();
      const first = await syntax.search({ pattern: "", rule, language: r.language, maxRecords: 50 });
      cold.push(performance.now() - started);
      await syntax.whenIdle();
      started = performance.now();
      await syntax.search({ pattern: "", rule, language: r.language, maxRecords: 50 });
      warm.push(performance.now() - started);
      const total = first.outcomes.reduce((n, o) => n + o.count, 0);
      counts = `${total} match(es), ast-grep ${sg.count}${total === sg.count ? "" : " (DIFFERENT)"}; ${first.stats.candidates} of ${first.filesSearched} file(s) parsed`;
    } finally {
      await syntax.close();
    }
  }
  const [c, w, t] = [median(cold), median(warm), median(theirs)];
  console.log(`${r.language} ${r.name}: cold ${ms(c)} (${(c / t).toFixed(2)}×), warm ${ms(w)} (${(w / t).toFixed(2)}×), ast-grep ${ms(t)}; ${counts}`);
}
