// One search thread on its own, without the pool, the HTTP layer or other threads: the CPU and wall
// time of a cold search over this repository's TypeScript, then of warm repeats (trees cached). It
// is what a parse worker does per job, so profile it with `bun --cpu-prof-md`.
// Usage: bun bench/search-thread.ts [PATTERN='await $X.close()'] [REPEATS=1000] [ROOT=this repo]
import { realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { Glob } from "bun";
import { bunGrammarSource } from "../src/runtime/grammar-source.bun.ts";
import { FileSearcher } from "../src/syntax/file-search.ts";
import { GrammarLoader } from "../src/syntax/grammars.ts";
import { ParseCache } from "../src/syntax/parse-cache.ts";

const pattern = process.argv[2] ?? "await $X.close()";
const repeats = Number(process.argv[3] ?? 1000);
const root = realpathSync(process.argv[4] ?? join(import.meta.dir, ".."));
const files = [...new Glob("**/*.ts").scanSync(root)]
  .filter((rel) => !rel.startsWith("node_modules/") && !rel.includes("/node_modules/"))
  .map((rel) => {
    const path = join(root, rel);
    const info = statSync(path);
    return { path, size: info.size, mtimeMs: info.mtimeMs };
  });
const loader = new GrammarLoader(bunGrammarSource);
const job = { root, language: "typescript", pattern, files };
// The grammar loads once per thread; a throwaway searcher keeps that out of the cold figure.
await new FileSearcher((id) => loader.parser(id), new ParseCache()).run({ ...job, files: files.slice(0, 1) });
const searcher = new FileSearcher((id) => loader.parser(id), new ParseCache());

function timed<T>(run: () => Promise<T>): Promise<{ result: T; wallMs: number; cpuMs: number }> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  return run().then((result) => {
    const used = process.cpuUsage(cpu);
    return { result, wallMs: performance.now() - wall, cpuMs: (used.user + used.system) / 1000 };
  });
}

const cold = await timed(() => searcher.run(job));
const matches = cold.result.outcomes.reduce((sum, outcome) => sum + outcome.count, 0);
console.log(`${files.length} files under ${root}, pattern ${JSON.stringify(pattern)}: ${cold.result.stats.candidates} candidates, ${matches} matches`);
console.log(`cold: ${cold.wallMs.toFixed(0)} ms wall, ${cold.cpuMs.toFixed(0)} ms CPU (all threads: GC helpers count)`);
const warm = await timed(async () => {
  for (let k = 0; k < repeats; k++) await searcher.run(job);
});
console.log(`warm, mean of ${repeats}: ${(warm.wallMs / repeats).toFixed(2)} ms wall, ${(warm.cpuMs / repeats).toFixed(2)} ms CPU per search`);
searcher.close();
