// The floor under a cold first search on web-tree-sitter, against the ast-grep CLI: bare threads
// parse exactly the files the sidecar's prefilter lets through (its own TextFacts over its own
// compiled pattern), split by bytes, sharing modules compiled once (as the sidecar's pool does),
// with no walk, no matching and no sidecar code around them. The first pass is what any search on
// this stack pays the first time a process parses a language; the last pass is the steady speed
// once the engine has optimised the grammar. ast-grep's time is for its whole run (walk, parse of
// every file of the language, match), on the same corpus.
// Usage: bun bench/wasm-floor.ts [--corpus DIR] [--only TEXT] [--threads N=2] [--passes N=3]
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { bunPrimitives } from "../src/runtime/bun.ts";
import { compiledGrammars, GrammarLoader, grammarForPath } from "../src/syntax/grammars.ts";
import { FileHomes } from "../src/syntax/file-homes.ts";
import { FileSearcher, type FileRef } from "../src/syntax/file-search.ts";
import { ParseCache } from "../src/syntax/parse-cache.ts";
import { TextFacts } from "../src/syntax/text-facts.ts";
import { walkFiles } from "../src/syntax/walk.ts";
import { astGrepRun, buildCorpus, CORPUS_CASES, DEFAULT_CASES } from "./ast-grep-corpus.ts";
import { countOption, optionArg } from "./args.ts";
import { median } from "./stats.ts";
import type { FloorJob } from "./wasm-floor-worker.ts";
import { engineAsServe } from "./engine.ts";

/** Before anything is measured: the bench runs the engine as serve does (bench/engine.ts). */
const ENGINE = engineAsServe();

const USAGE = "bun bench/wasm-floor.ts [--corpus DIR] [--only TEXT] [--threads N=2] [--passes N=3]";
const THREADS = countOption("--threads", 2, USAGE);
const PASSES = Math.max(2, countOption("--passes", 3, USAGE));
const corpusOption = optionArg("--corpus");
if (corpusOption !== undefined && !existsSync(corpusOption)) throw new Error(`--corpus ${corpusOption} does not exist: pass a folder of checkouts (bench/ast-grep.ts says which), or leave it out for the copied corpus.`);
const corpus = corpusOption ?? buildCorpus();
const only = optionArg("--only");
const cases = (corpusOption ? CORPUS_CASES : DEFAULT_CASES).filter((c) => only === undefined || c.pattern.includes(only));

const modules = compiledGrammars(bunPrimitives.grammars);
const loader = new GrammarLoader(modules);
const searcher = new FileSearcher((id) => loader.parser(id), new ParseCache());

/** The files of `language` that the sidecar's prefilter would parse for `pattern`. */
async function candidates(language: string, pattern: string): Promise<FileRef[]> {
  const compiled = await searcher.compile(language, pattern);
  const { files } = walkFiles(corpus, { root: corpus, accept: (name) => grammarForPath(name) === language, maxFileBytes: 1024 * 1024 });
  return files.filter((f) => new TextFacts().holdsAll(readFileSync(f.path, "utf8"), compiled));
}

/** Split as the pool splits a cold search (largest first to the lightest thread). */
function split(files: FileRef[], count: number): string[][] {
  return new FileHomes(FileHomes.memory(), count).split(files).map((share) => share.map((f) => f.path));
}

/** Each pass's wall time over all threads (the slowest thread's), in a fresh set of threads. */
async function parsePasses(language: string, shares: string[][]): Promise<number[]> {
  // Fresh modules too: a module an earlier case's threads optimised would carry its machine code over.
  const fresh = compiledGrammars(bunPrimitives.grammars);
  const [runtime, grammar] = await Promise.all([fresh.runtimeModule(), fresh.grammarModule(language)]);
  const perThread = await Promise.all(
    shares.map(
      (files) =>
        new Promise<number[]>((resolve, reject) => {
          const worker = new Worker(new URL("./wasm-floor-worker.ts", import.meta.url));
          worker.onmessage = (event: MessageEvent<number[]>) => {
            resolve(event.data);
            worker.terminate();
          };
          worker.onerror = (event) => reject(new Error(event.message));
          worker.postMessage({ runtime, grammar, language, files, passes: PASSES } satisfies FloorJob);
        }),
    ),
  );
  return Array.from({ length: PASSES }, (_, pass) => Math.max(...perThread.map((times) => times[pass]!)));
}

const rows = [["pattern", "lang", "files", "MB", "ast-grep ms", "first pass ms", "last pass ms", "first ×", "last ×"]];
const firstRatios: number[] = [];
const loads = [loadavg()[0]!];
for (const c of cases) {
  const files = await candidates(c.language, c.pattern);
  if (files.length === 0) {
    console.log(`  ${c.pattern}: no ${c.language} file of the corpus holds what the pattern needs; left out of the median`);
    continue;
  }
  const cli = median([0, 1, 2].map(() => astGrepRun(c, corpus).ms));
  const passes = await parsePasses(c.language, split(files, THREADS));
  const first = passes[0]!;
  const last = passes[PASSES - 1]!;
  firstRatios.push(first / cli);
  loads.push(loadavg()[0]!);
  const mb = files.reduce((n, f) => n + f.size, 0) / 1e6;
  rows.push([c.pattern, c.language, String(files.length), mb.toFixed(1), cli.toFixed(0), first.toFixed(0), last.toFixed(0), (first / cli).toFixed(2), (last / cli).toFixed(2)]);
}
const widths = rows[0]!.map((_, k) => Math.max(...rows.map((r) => r[k]!.length)));
for (const row of rows) console.log(row.map((cell, k) => cell.padEnd(widths[k]!)).join("  "));
console.log(`median first-pass ratio (bare parse of the candidates, ${THREADS} threads) / ast-grep: ${median(firstRatios).toFixed(2)}×`);
console.log(`load average (1 min) during the run: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${availableParallelism()} cores; corpus ${join(corpus)}`);
console.log(ENGINE);
