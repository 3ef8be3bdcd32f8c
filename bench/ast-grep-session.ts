// Benchmark: the way an agent searches, per language, against the ast-grep CLI in the same run.
// For each language: a fresh sidecar on that language's checkout, then five different searches,
// one second apart (an agent refining its question), summed against ast-grep's five runs of the
// same patterns; the cold call (process start + first search) against one ast-grep run; the same
// search repeated at once and after an idle pause; and the sidecar's RSS after the session.
// Usage: bun bench/ast-grep-session.ts --corpus DIR [--binary dist/sidecar] [--only LANG] [--runs N] [--cold-runs N] [--idle-seconds N] [--ast-grep-nice N] [--cache-mib N]
// --cold-runs N: cold calls per round (default 1), each in a fresh sidecar beside one more
// ast-grep run of the same pattern, in alternating order; the cold column is the median of every
// call's ratio. A single cold call moves by ±20 % on a shared machine; the next column shows how
// far, the middle half of the calls' ratios (25th to 75th percentile).
// --cache-mib N: the parser's cacheMiB (source whose trees each worker keeps; default 24): a small
// one shows what a session costs when trees are dropped for memory.
// The fixed column: the same first search on a workdir of one small file of the language, from
// spawning the process: what a cold call costs before any file of the checkout is read.
// --ast-grep-nice N: run the CLI N nice steps down, as the sidecar's parse workers run (10): on a
// machine busy with other work, nice 0 against nice 10 compares priorities more than code.
// --corpus DIR: a folder holding these checkouts, each in a folder of this name: eslint
// (JavaScript), core (vuejs/core, TypeScript), mypy (Python), prometheus (Go), tokio (Rust),
// commons-lang (Java), redis (C), imgui (C++). Each is the workdir of its language's sessions. The
// corpus is fetched by hand, never committed, and CI never runs this.
import { resolve } from "node:path";
import { availableParallelism, loadavg } from "node:os";
import { spawnSidecar, type SpawnedSidecar } from "../build/spawn-sidecar.ts";
import { residentBytes } from "../src/platform/resident-memory.ts";
import { astGrepRun } from "./ast-grep-corpus.ts";
import { SESSIONS } from "./ast-grep-sessions.ts";
import { cpuSeconds } from "./cpu-time.ts";
import { countOption, optionArg } from "./args.ts";
import { median, percentile } from "./stats.ts";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const USAGE = "bun bench/ast-grep-session.ts --corpus DIR [--binary dist/sidecar] [--only LANG] [--runs N] [--cold-runs N] [--idle-seconds N] [--ast-grep-nice N] [--cache-mib N]";
const corpusArg = optionArg("--corpus");
if (!corpusArg) {
  console.error(`--corpus DIR is required.\nUsage: ${USAGE}`);
  process.exit(2);
}
const corpus = resolve(corpusArg);
const binary = resolve(optionArg("--binary") ?? "dist/sidecar");
const only = optionArg("--only");
const RUNS = countOption("--runs", 2, USAGE);
const COLD_RUNS = countOption("--cold-runs", 1, USAGE);
const IDLE_SECONDS = countOption("--idle-seconds", 8, USAGE);
const AST_GREP_NICE = countOption("--ast-grep-nice", 0, USAGE, 0);
const CACHE_MIB = optionArg("--cache-mib") === undefined ? undefined : countOption("--cache-mib", 24, USAGE, 0);
/** The parser settings every sidecar of the run gets. */
const PARSER = CACHE_MIB === undefined ? {} : { cacheMiB: CACHE_MIB };
/** A one-file workdir per language, for the fixed cost: the file's extension. */
const EXTENSIONS: Record<string, string> = { javascript: "js", typescript: "ts", python: "py", go: "go", rust: "rs", java: "java", c: "c", cpp: "cpp" };
/** The pause between an agent's searches: it reads each answer before it asks again. */
const THINK_MS = 1000;


const config = join(tmpdir(), "sidecar-bench-session.json");

async function search(sidecar: SpawnedSidecar, client: Awaited<ReturnType<SpawnedSidecar["connect"]>>, pattern: string, language: string): Promise<{ ms: number; total: number }> {
  const started = performance.now();
  const result = await client.callTool({ name: "ast_grep", arguments: { pattern, language, max_results: 50 } }, undefined, { timeout: 600_000 });
  const ms = performance.now() - started;
  if (result.isError) throw new Error(`sidecar failed on ${pattern}: ${JSON.stringify(result.content).slice(0, 400)}\n${sidecar.stderr().slice(-2000)}`);
  return { ms, total: (result.structuredContent as { total: number }).total };
}

interface Round {
  astGrepSession: number;
  session: number;
  /** Each of the session's searches, ms, in order. */
  searches: number[];
  /** CPU seconds: ast-grep's five runs; the sidecar's whole process from spawn to the session's end (warm-up included). */
  astGrepSessionCpu: number;
  sessionCpu: number;
  astGrepFirstCpu: number;
  coldCpu: number;
  astGrepFirst: number;
  cold: number;
  /** Each cold call of the round over the ast-grep run beside it: the first is cold / astGrepFirst. */
  coldRatios: number[];
  /** Of the cold call, the process's start: spawn to an initialized MCP session (no search yet). */
  start: number;
  /** The cold call on a workdir of one small file: spawn to the first answer. */
  fixed: number;
  repeat: number;
  repeatIdle: number;
  rssMb: number;
  differs: string[];
}

/** One round for a language: the session in a fresh sidecar, then cold / repeat / repeat after idle in another. */
async function round(language: string, workdir: string, astGrep: string, patterns: string[]): Promise<Round> {
  const fixed = await fixedCost(language, patterns[0]!);
  writeFileSync(config, JSON.stringify({ workdir, resources: { parser: PARSER } }));
  const cli = patterns.map((pattern) => astGrepRun({ language, astGrepLanguage: astGrep, pattern }, workdir, AST_GREP_NICE));
  const differs: string[] = [];
  let session = 0;
  const searches: number[] = [];
  let sessionCpu = 0;
  let rssMb = 0;
  {
    const sidecar = await spawnSidecar([binary, "serve", "--config", config]);
    try {
      const client = await sidecar.connect();
      await client.listTools();
      for (const [k, pattern] of patterns.entries()) {
        await Bun.sleep(THINK_MS);
        const answer = await search(sidecar, client, pattern, language);
        session += answer.ms;
        searches.push(answer.ms);
        if (answer.total !== cli[k]!.count) differs.push(`${pattern}: sidecar ${answer.total}, ast-grep ${cli[k]!.count}`);
      }
      rssMb = residentBytes(sidecar.child.pid!)! / 2 ** 20;
      sessionCpu = cpuSeconds(sidecar.child.pid!);
    } finally {
      await sidecar.stop();
    }
  }
  // Cold: from spawning the process to the first answer, as ast-grep's run is from spawn to exit.
  const started = performance.now();
  const sidecar = await spawnSidecar([binary, "serve", "--config", config]);
  try {
    const client = await sidecar.connect();
    const start = performance.now() - started;
    const first = await search(sidecar, client, patterns[0]!, language);
    const cold = performance.now() - started;
    const coldCpu = cpuSeconds(sidecar.child.pid!);
    void first;
    const repeat = (await search(sidecar, client, patterns[0]!, language)).ms;
    await Bun.sleep(IDLE_SECONDS * 1000);
    const repeatIdle = (await search(sidecar, client, patterns[0]!, language)).ms;
    await sidecar.stop();
    const coldRatios = [cold / cli[0]!.ms];
    for (let k = 1; k < COLD_RUNS; k++) coldRatios.push(await coldPair(language, astGrep, workdir, patterns[0]!, k % 2 === 1));
    return {
      astGrepSession: cli.reduce((sum, r) => sum + r.ms, 0),
      session,
      searches,
      astGrepSessionCpu: cli.reduce((sum, r) => sum + r.cpu, 0),
      sessionCpu,
      astGrepFirstCpu: cli[0]!.cpu,
      coldCpu,
      astGrepFirst: cli[0]!.ms,
      cold,
      coldRatios,
      start,
      fixed,
      repeat,
      repeatIdle,
      rssMb,
      differs,
    };
  } finally {
    await sidecar.stop();
  }
}

/** A fresh sidecar on the config as last written: ms from spawning it to its answer to `pattern`. */
async function spawnToFirstAnswer(language: string, pattern: string): Promise<number> {
  const started = performance.now();
  const sidecar = await spawnSidecar([binary, "serve", "--config", config]);
  try {
    await search(sidecar, await sidecar.connect(), pattern, language);
    return performance.now() - started;
  } finally {
    await sidecar.stop();
  }
}

/** One more cold call (config as the round wrote it) over an ast-grep run of the same pattern, made first or after it. */
async function coldPair(language: string, astGrep: string, workdir: string, pattern: string, astGrepFirst: boolean): Promise<number> {
  const astGrepMs = () => astGrepRun({ language, astGrepLanguage: astGrep, pattern }, workdir, AST_GREP_NICE).ms;
  const before = astGrepFirst ? astGrepMs() : undefined;
  const cold = await spawnToFirstAnswer(language, pattern);
  return cold / (before ?? astGrepMs());
}

/** Spawn to the first answer on a workdir of one small file of the language (written to a temporary folder). */
async function fixedCost(language: string, pattern: string): Promise<number> {
  const workdir = mkdtempSync(join(tmpdir(), "sidecar-bench-fixed-"));
  try {
    writeFileSync(join(workdir, `one.${EXTENSIONS[language] ?? language}`), `${pattern}\n`);
    writeFileSync(config, JSON.stringify({ workdir, resources: { parser: PARSER } }));
    return await spawnToFirstAnswer(language, pattern);
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
}

const rows: string[][] = [["language", "ast-grep 5× ms", "session ms", "searches ms", "session ×", "session CPU ×", "cold ×", "cold middle half ×", "of it start ms", "fixed ms", "cold CPU ×", "repeat ×", `after ${IDLE_SECONDS} s ×`, "RSS MB", "same counts"]];
const ratios = { session: [] as number[], cold: [] as number[], repeat: [] as number[], idle: [] as number[] };
const loads = [loadavg()[0]!];
for (const [language, { checkout, astGrep, patterns }] of Object.entries(SESSIONS)) {
  if (only !== undefined && language !== only) continue;
  const workdir = join(corpus, checkout);
  if (!existsSync(workdir)) {
    console.log(`  ${language}: no ${workdir}, left out`);
    continue;
  }
  const rounds: Round[] = [];
  for (let k = 0; k < RUNS; k++) rounds.push(await round(language, workdir, astGrep, patterns));
  loads.push(loadavg()[0]!);
  const m = (pick: (r: Round) => number) => median(rounds.map(pick));
  const session = m((r) => r.session / r.astGrepSession);
  const coldRatios = rounds.flatMap((r) => r.coldRatios);
  const cold = median(coldRatios);
  const repeat = m((r) => r.repeat / r.astGrepFirst);
  const idle = m((r) => r.repeatIdle / r.astGrepFirst);
  ratios.session.push(session);
  ratios.cold.push(cold);
  ratios.repeat.push(repeat);
  ratios.idle.push(idle);
  const differs = rounds.flatMap((r) => r.differs);
  for (const line of new Set(differs)) console.log(`  ${language} differs: ${line}`);
  rows.push([
    language,
    m((r) => r.astGrepSession).toFixed(0),
    m((r) => r.session).toFixed(0),
    patterns.map((_, k) => m((r) => r.searches[k]!).toFixed(0)).join("+"),
    session.toFixed(2),
    m((r) => r.sessionCpu / r.astGrepSessionCpu).toFixed(2),
    cold.toFixed(2),
    `${percentile(coldRatios, 25).toFixed(2)}–${percentile(coldRatios, 75).toFixed(2)}`,
    m((r) => r.start).toFixed(0),
    m((r) => r.fixed).toFixed(0),
    m((r) => r.coldCpu / r.astGrepFirstCpu).toFixed(2),
    repeat.toFixed(2),
    idle.toFixed(2),
    m((r) => r.rssMb).toFixed(0),
    differs.length === 0 ? "yes" : "NO",
  ]);
}
const widths = rows[0]!.map((_, k) => Math.max(...rows.map((r) => r[k]!.length)));
for (const row of rows) console.log(row.map((cell, k) => cell.padEnd(widths[k]!)).join("  "));
console.log(
  `median over languages, each the median of ${RUNS} rounds${COLD_RUNS > 1 ? ` (cold: of ${RUNS * COLD_RUNS} calls)` : ""}: session ${median(ratios.session).toFixed(2)}× (target ≤ 0.5×, ≤ 1.0× each), ` +
    `cold ${median(ratios.cold).toFixed(2)}× (≤ 1.5× each), repeat ${median(ratios.repeat).toFixed(2)}× (≤ 0.2×), after idle ${median(ratios.idle).toFixed(2)}× (≤ 0.15×)`,
);
if (AST_GREP_NICE > 0) console.log(`ast-grep ran at nice +${AST_GREP_NICE}`);
if (CACHE_MIB !== undefined) console.log(`the sidecar ran with cacheMiB ${CACHE_MIB}`);
console.log(`load average (1 min) during the run: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${availableParallelism()} cores`);
