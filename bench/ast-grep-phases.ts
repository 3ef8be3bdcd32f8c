// Benchmark: where a first search's time goes, per language, beside ast-grep's run of the same
// pattern on the same checkout. In this process (no MCP, no compiled binary): a fresh SyntaxService
// with as many parse workers as the sidecar starts, then the session's first pattern at once, as
// an agent's first call comes before the warm-up has done much. The phases (src/syntax/search-phases.ts):
// start (workers started), plan (a worker compiles the pattern, walks and splits), jobs (until the
// last worker answers), and within the jobs, summed over the workers: load (grammar and compile),
// read, prefilter, parse, match (matching, records, keeping). Medians of --runs fresh services.
// --session: instead, the whole session as bench/ast-grep-session.ts runs it (warm-up at start,
// then each of the five patterns one second apart), one row per search, from one fresh service.
// Usage: bun bench/ast-grep-phases.ts --corpus DIR [--only LANG] [--runs N] [--session]
// DIR holds the checkouts bench/ast-grep-sessions.ts names (fetched by hand; CI never runs this).
import { availableParallelism, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { bunPrimitives } from "../src/runtime/bun.ts";
import { SyntaxService } from "../src/syntax/service.ts";
import type { SearchPhases } from "../src/syntax/search-phases.ts";
import { countOption, optionArg } from "./args.ts";
import { astGrepRun } from "./ast-grep-corpus.ts";
import { SESSIONS } from "./ast-grep-sessions.ts";
import { median } from "./stats.ts";
import { engineAsServe } from "./engine.ts";

/** Before anything is measured: the bench runs the engine as serve does (bench/engine.ts). */
const ENGINE = engineAsServe();

const USAGE = "bun bench/ast-grep-phases.ts --corpus DIR [--only LANG] [--runs N] [--session]";
const corpusArg = optionArg("--corpus");
if (!corpusArg) {
  console.error(`--corpus DIR is required.\nUsage: ${USAGE}`);
  process.exit(2);
}
const corpus = resolve(corpusArg);
const only = optionArg("--only");
const RUNS = countOption("--runs", 3, USAGE);
const SESSION = process.argv.includes("--session");
/** As bench/ast-grep-session.ts: the pause before each search. */
const THINK_MS = 1000;

interface Sample {
  wall: number;
  phases: SearchPhases;
  parsed: number;
  candidates: number;
}

async function firstSearch(workdir: string, language: string, pattern: string): Promise<Sample> {
  const syntax = new SyntaxService({ workdir, source: bunPrimitives.grammars, spawnWorker: bunPrimitives.spawnParseWorker, workers: availableParallelism() });
  try {
    const started = performance.now();
    const answer = await syntax.search({ pattern, language, maxRecords: 50 });
    const wall = performance.now() - started;
    if (!answer.phases) throw new Error(`${language}: the search ran without workers`);
    return { wall, phases: answer.phases, parsed: answer.stats.parsed, candidates: answer.stats.candidates };
  } finally {
    await syntax.close();
  }
}

/** Rows as a markdown table, the first row its header. */
function printTable(rows: string[][]): void {
  console.log(`| ${rows[0]!.join(" | ")} |\n|${rows[0]!.map(() => "---").join("|")}|\n${rows.slice(1).map((r) => `| ${r.join(" | ")} |`).join("\n")}`);
}

if (SESSION) {
  const columns = ["language", "search", "ast-grep ms", "ms", "×", "plan", "jobs", "load Σ", "read Σ", "prefilter Σ", "parse Σ", "match Σ", "parsed (of them resumed) / cached / candidates"];
  const rows: string[][] = [columns];
  const loads = [loadavg()[0]!];
  for (const [language, { checkout, astGrep, patterns }] of Object.entries(SESSIONS)) {
    if (only && only !== language) continue;
    const workdir = join(corpus, checkout);
    const cli = patterns.map((pattern) => astGrepRun({ language, astGrepLanguage: astGrep, pattern }, workdir).ms);
    const syntax = new SyntaxService({ workdir, source: bunPrimitives.grammars, spawnWorker: bunPrimitives.spawnParseWorker, workers: availableParallelism() });
    try {
      syntax.warmUp();
      for (const [k, pattern] of patterns.entries()) {
        await Bun.sleep(THINK_MS);
        const started = performance.now();
        const answer = await syntax.search({ pattern, language, maxRecords: 50 });
        const wall = performance.now() - started;
        const p = answer.phases;
        const f = (n: number | undefined) => (n === undefined ? "-" : n.toFixed(0));
        const s = answer.stats;
        rows.push([language, pattern, f(cli[k]), f(wall), (wall / cli[k]!).toFixed(2), f(p?.plan), f(p?.jobs), f(p?.work.load), f(p?.work.read), f(p?.work.prefilter), f(p?.work.parse), f(p?.work.match), `${s.parsed} (${s.resumed}) / ${s.cached} / ${s.candidates}`]);
      }
    } finally {
      await syntax.close();
    }
    loads.push(loadavg()[0]!);
  }
  console.log(`the session in one fresh service per language (warm-up, then a search a second); Σ: summed over ${availableParallelism()} workers; load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; ${ENGINE}`);
  printTable(rows);
  process.exit(0);
}

const columns = ["language", "ast-grep ms", "first search ms", "×", "start", "plan", "jobs", "load Σ", "read Σ", "prefilter Σ", "parse Σ", "match Σ", "parsed / candidates"];
const rows: string[][] = [columns];
const loads = [loadavg()[0]!];
for (const [language, { checkout, astGrep, patterns }] of Object.entries(SESSIONS)) {
  if (only && only !== language) continue;
  const workdir = join(corpus, checkout);
  const pattern = patterns[0]!;
  const samples: Sample[] = [];
  const cli: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    cli.push(astGrepRun({ language, astGrepLanguage: astGrep, pattern }, workdir).ms);
    samples.push(await firstSearch(workdir, language, pattern));
    loads.push(loadavg()[0]!);
  }
  const m = (pick: (s: Sample) => number) => median(samples.map(pick));
  const astGrepMs = median(cli);
  const wall = m((s) => s.wall);
  const f = (n: number) => n.toFixed(0);
  rows.push([
    language,
    f(astGrepMs),
    f(wall),
    (wall / astGrepMs).toFixed(2),
    f(m((s) => s.phases.start)),
    f(m((s) => s.phases.plan)),
    f(m((s) => s.phases.jobs)),
    f(m((s) => s.phases.work.load)),
    f(m((s) => s.phases.work.read)),
    f(m((s) => s.phases.work.prefilter)),
    f(m((s) => s.phases.work.parse)),
    f(m((s) => s.phases.work.match)),
    `${samples[0]!.parsed} / ${samples[0]!.candidates}`,
  ]);
}
console.log(`pattern: each language's first session pattern; ${RUNS} fresh services each, medians; Σ: summed over ${availableParallelism()} workers; load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; ${ENGINE}`);
printTable(rows);
