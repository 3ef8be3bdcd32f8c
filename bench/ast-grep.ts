// Benchmark: sidecar's ast_grep (through its MCP HTTP API) against the ast-grep CLI on the same
// corpus — checks both find the same matches, prints medians and the sidecar/ast-grep ratios for a
// cold first query (fresh sidecar) and a warm repeat, and the sidecar's RSS after each.
// CPU seconds (user + system) are printed beside the wall times: on a machine shared with other
// work the wall ratio swings with the load, the CPU each tool spent on the same search does not.
// Usage: bun bench/ast-grep.ts [--binary dist/sidecar] [--corpus DIR] [--cold-runs N] [--only TEXT]
//        [--ast-grep-nice N]
// --only TEXT: just the cases whose pattern contains TEXT. --ast-grep-nice N: run the CLI N nice
// steps down, as the sidecar's parse workers run (10): on a machine busy with other work, a search
// at nice 0 against one whose parsing runs at nice 10 compares priorities more than code.
// --corpus DIR: a folder holding checkouts of mypy, prometheus, tokio, redis, commons-lang, leveldb,
// imgui, flutter/samples and vuejs/core (one folder each, any names); without it a smaller corpus is
// copied from node_modules and the system's Python library.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "../build/spawn-sidecar.ts";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { cpuSeconds } from "./cpu-time.ts";
import { dirname, join, relative } from "node:path";

const root = join(import.meta.dir, "..");
const AST_GREP = join(root, "node_modules/.bin/ast-grep");
const binaryAt = process.argv.indexOf("--binary");
const sidecarCommand = binaryAt > 0 ? [process.argv[binaryAt + 1]!] : [process.execPath, join(root, "src/main.ts")];
const option = (name: string) => (process.argv.indexOf(name) > 0 ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const WARM_RUNS = 3;
const CLI_RUNS = 3;
const COLD_RUNS = Number(option("--cold-runs") ?? 3);
const MAX_BYTES = 1024 * 1024;
const AST_GREP_NICE = Number(option("--ast-grep-nice") ?? 0);

interface Case {
  language: string;
  astGrepLanguage: string;
  pattern: string;
}

/** Over the --corpus checkouts: 14 patterns in 9 languages. */
const CORPUS_CASES: Case[] = [
  { language: "python", astGrepLanguage: "python", pattern: "isinstance($X, $T)" },
  { language: "python", astGrepLanguage: "python", pattern: "raise $E($$$A)" },
  { language: "go", astGrepLanguage: "go", pattern: "if err != nil { $$$B }" },
  { language: "go", astGrepLanguage: "go", pattern: "return $A, err" },
  { language: "rust", astGrepLanguage: "rust", pattern: "$X.unwrap()" },
  { language: "rust", astGrepLanguage: "rust", pattern: "Arc::new($X)" },
  { language: "c", astGrepLanguage: "c", pattern: "zfree($P);" },
  { language: "c", astGrepLanguage: "c", pattern: "memcpy($D, $S, $N)" },
  { language: "java", astGrepLanguage: "java", pattern: "throw new IllegalArgumentException($$$A)" },
  { language: "cpp", astGrepLanguage: "cpp", pattern: "IM_ASSERT($$$A)" },
  { language: "dart", astGrepLanguage: "dart", pattern: "setState($$$A)" },
  { language: "typescript", astGrepLanguage: "typescript", pattern: "$A ?? $B" },
  { language: "typescript", astGrepLanguage: "typescript", pattern: "export function $F($$$P) { $$$B }" },
  { language: "javascript", astGrepLanguage: "javascript", pattern: "$A.forEach($$$B)" },
];

const DEFAULT_CASES: Case[] = [
  { language: "javascript", astGrepLanguage: "javascript", pattern: "console.log($$$A)" },
  { language: "javascript", astGrepLanguage: "javascript", pattern: "new Promise($$$A)" },
  { language: "javascript", astGrepLanguage: "javascript", pattern: "$A === undefined" },
  { language: "javascript", astGrepLanguage: "javascript", pattern: "Object.keys($O)" },
  { language: "typescript", astGrepLanguage: "typescript", pattern: "export declare function $F($$$P): $R;" },
  { language: "typescript", astGrepLanguage: "typescript", pattern: "$A as $T" },
  { language: "typescript", astGrepLanguage: "typescript", pattern: "$A ?? $B" },
  { language: "python", astGrepLanguage: "python", pattern: "isinstance($X, $T)" },
  { language: "python", astGrepLanguage: "python", pattern: "raise $E($$$A)" },
];

/** Copies files of the given extensions from `from` into the corpus under `as` (skipping hidden paths and big files). */
function gather(from: string, as: string, corpus: string, accept: (name: string) => boolean, limit = 4000): number {
  let copied = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (copied >= limit || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && accept(entry.name) && statSync(path).size <= MAX_BYTES) {
        const target = join(corpus, as, relative(from, path).replaceAll("node_modules", "nm"));
        mkdirSync(dirname(target), { recursive: true });
        cpSync(path, target);
        copied++;
      }
    }
  };
  if (existsSync(from)) walk(from);
  return copied;
}

function buildCorpus(): string {
  const corpus = join(tmpdir(), "sidecar-bench-corpus");
  rmSync(corpus, { recursive: true, force: true });
  mkdirSync(corpus, { recursive: true });
  const js = gather(join(root, "node_modules"), "js", corpus, (n) => n.endsWith(".js"));
  const ts = gather(join(root, "node_modules"), "ts", corpus, (n) => n.endsWith(".ts") && !n.endsWith(".d.mts"));
  const py = gather("/usr/lib/python3.11", "py", corpus, (n) => n.endsWith(".py"));
  console.log(`corpus ${corpus}: ${js} .js, ${ts} .ts, ${py} .py files`);
  return corpus;
}

/** Resident memory of a process in MB (parse workers are threads of it). */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function astGrepRun(c: Case, corpus: string): { ms: number; cpu: number; count: number; keys: Set<string> } {
  const started = performance.now();
  const cpuBefore = cpuSeconds(process.pid, { reaped: true }) - cpuSeconds(process.pid);
  const args = ["run", "-p", c.pattern, "-l", c.astGrepLanguage, "--json=compact", corpus];
  const [command, argv] = AST_GREP_NICE > 0 ? ["nice", ["-n", String(AST_GREP_NICE), AST_GREP, ...args]] : [AST_GREP, args];
  const run = spawnSync(command, argv, { encoding: "utf8", maxBuffer: 1 << 28 });
  const ms = performance.now() - started;
  const cpu = cpuSeconds(process.pid, { reaped: true }) - cpuSeconds(process.pid) - cpuBefore;
  const found = JSON.parse(run.stdout || "[]") as { file: string; range: { start: { line: number; column: number } } }[];
  // Nested matches can share a start (`a as B as C`), so the count is kept apart from the key set.
  return { ms, cpu, count: found.length, keys: new Set(found.map((m) => `${relative(corpus, m.file)}:${m.range.start.line + 1}:${m.range.start.column + 1}`)) };
}

interface Sidecar {
  child: ChildProcess;
  client: Client;
}

async function startSidecar(corpus: string): Promise<Sidecar> {
  const config = join(tmpdir(), "sidecar-bench-run.json");
  writeFileSync(config, JSON.stringify({ workdir: corpus, resources: { parser: {} } }));
  const child = spawn(sidecarCommand[0]!, [...sidecarCommand.slice(1), "serve", "--config", config], { stdio: ["ignore", "pipe", "ignore"] });
  const line: string = await new Promise((resolve, reject) => {
    child.stdout!.once("data", (d) => resolve(String(d)));
    child.once("exit", (code) => reject(new Error(`sidecar exited with ${code}`)));
  });
  const ready = JSON.parse(line.split("\n")[0]!) as { url: string; surfaces: Record<string, string> };
  const client = await connectClient(ready.url, ready.surfaces.default!, "bench");
  return { child, client };
}

async function sidecarQuery(s: Sidecar, c: Case): Promise<{ ms: number; cpu: number; total: number; keys: Set<string>; notes: string[] }> {
  const started = performance.now();
  const cpuBefore = cpuSeconds(s.child.pid!);
  const result = await s.client.callTool({ name: "ast_grep", arguments: { pattern: c.pattern, language: c.language, max_results: 1000 } }, undefined, { timeout: 600_000 });
  const ms = performance.now() - started;
  const cpu = cpuSeconds(s.child.pid!) - cpuBefore;
  if (result.isError) throw new Error(`sidecar failed: ${JSON.stringify(result.content)}`);
  const data = result.structuredContent as { total: number; matches: { path: string; start: { line: number; column: number } }[]; notes: string[] };
  return { ms, cpu, total: data.total, keys: new Set(data.matches.map((m) => `${m.path}:${m.start.line}:${m.start.column}`)), notes: data.notes };
}

const corpusOption = option("--corpus");
const corpus = corpusOption ?? buildCorpus();
const only = option("--only");
const CASES = (corpusOption ? CORPUS_CASES : DEFAULT_CASES).filter((c) => only === undefined || c.pattern.includes(only));
const rows: string[][] = [["pattern", "lang", "matches", "ast-grep ms", "cold ms", "warm ms", "cold ×", "warm ×", "CPU s ast-grep/cold", "CPU ×", "RSS cold/warm MB", "same"]];
const coldRatios: number[] = [];
const cpuRatios: number[] = [];
const loads: number[] = [loadavg()[0]!];
const warmRatios: number[] = [];
for (const c of CASES) {
  const cli = Array.from({ length: CLI_RUNS }, () => astGrepRun(c, corpus));
  const cliMs = median(cli.map((r) => r.ms));
  const colds: Array<{ ms: number; cpu: number; total: number; keys: Set<string>; notes: string[] }> = [];
  let warmMs = 0;
  let rssCold = 0;
  let rssWarm = 0;
  // Each cold run is a fresh sidecar; the last one also measures the warm repeats.
  for (let run = 0; run < COLD_RUNS; run++) {
    const sidecar = await startSidecar(corpus);
    try {
      colds.push(await sidecarQuery(sidecar, c));
      rssCold = rssOf(sidecar.child.pid!);
      if (run === COLD_RUNS - 1) {
        const warm = [];
        for (let k = 0; k < WARM_RUNS; k++) warm.push(await sidecarQuery(sidecar, c));
        warmMs = median(warm.map((r) => r.ms));
        rssWarm = rssOf(sidecar.child.pid!);
      }
    } finally {
      await sidecar.client.close().catch(() => {});
      const exited = new Promise((resolve) => (sidecar.child.exitCode !== null ? resolve(null) : sidecar.child.once("exit", resolve)));
      sidecar.child.kill("SIGTERM");
      // Reaped here, so its CPU time is not added to the next ast-grep run's (both count as reaped children).
      await exited;
    }
  }
  const cold = colds[0]!;
  const coldMs = median(colds.map((r) => r.ms));
  const cliCpu = median(cli.map((r) => r.cpu));
  const coldCpu = median(colds.map((r) => r.cpu));
  loads.push(loadavg()[0]!);
  const theirs = cli[0]!.keys;
  const theirCount = cli[0]!.count;
  // Totals are compared in full; positions for the first 1000 shown (the tool's cap).
  const same = cold.total === theirCount && [...cold.keys].every((k) => theirs.has(k));
  if (!same) {
    const missing = cold.keys.size < cold.total ? [] : [...theirs].filter((k) => !cold.keys.has(k)).slice(0, 3);
    const extra = [...cold.keys].filter((k) => !theirs.has(k)).slice(0, 3);
    console.log(`  differs for ${c.pattern}: sidecar ${cold.total}, ast-grep ${theirCount}; only ast-grep: ${missing.join(" ")}; only sidecar: ${extra.join(" ")}`);
  }
  if (cold.notes.length > 0) console.log(`  notes: ${cold.notes.join("; ").slice(0, 300)}`);
  coldRatios.push(coldMs / cliMs);
  warmRatios.push(warmMs / cliMs);
  cpuRatios.push(coldCpu / cliCpu);
  rows.push([
    c.pattern, c.language, String(cold.total), cliMs.toFixed(0), coldMs.toFixed(0), warmMs.toFixed(0), (coldMs / cliMs).toFixed(2), (warmMs / cliMs).toFixed(2),
    `${cliCpu.toFixed(2)}/${coldCpu.toFixed(2)}`, (coldCpu / cliCpu).toFixed(2), `${rssCold}/${rssWarm}`, same ? "yes" : "NO",
  ]);
}
const widths = rows[0]!.map((_, k) => Math.max(...rows.map((r) => r[k]!.length)));
for (const row of rows) console.log(row.map((cell, k) => cell.padEnd(widths[k]!)).join("  "));
if (AST_GREP_NICE > 0) console.log(`ast-grep ran at nice +${AST_GREP_NICE}`);
console.log(`median ratio sidecar/ast-grep: cold ${median(coldRatios).toFixed(2)}×, warm ${median(warmRatios).toFixed(2)}× (targets ≤ 1.0×, ≤ 0.2×); cold CPU ${median(cpuRatios).toFixed(2)}×`);
console.log(`load average (1 min) during the run: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${availableParallelism()} cores`);
