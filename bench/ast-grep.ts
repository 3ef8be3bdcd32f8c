// Benchmark: sidecar's ast_grep (through its MCP HTTP API) against the ast-grep CLI on the same
// corpus — checks both find the same matches, prints medians and the sidecar/ast-grep ratios for a
// cold first query (fresh sidecar) and a warm repeat, and the sidecar's RSS after each.
// CPU seconds (user + system) are printed beside the wall times: on a machine shared with other
// work the wall ratio swings with the load, the CPU each tool spent on the same search does not.
// Usage: bun bench/ast-grep.ts [--binary dist/sidecar] [--corpus DIR] [--cold-runs N] [--only TEXT] [--ast-grep-nice N]
//        [--ast-grep-nice N]
// --only TEXT: just the cases whose pattern contains TEXT. --ast-grep-nice N: run the CLI N nice
// steps down, as the sidecar's parse workers run (10): on a machine busy with other work, a search
// at nice 0 against one whose parsing runs at nice 10 compares priorities more than code.
// --corpus DIR: a folder holding checkouts of mypy, prometheus, tokio, redis, commons-lang, leveldb,
// imgui, flutter/samples and vuejs/core (one folder each, any names); without it a smaller corpus is
// copied from node_modules and the system's Python library.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "../build/spawn-sidecar.ts";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { astGrepRun, buildCorpus, CORPUS_CASES, DEFAULT_CASES, type Case } from "./ast-grep-corpus.ts";
import { cpuSeconds } from "./cpu-time.ts";
import { join } from "node:path";
import { countOption, optionArg } from "./args.ts";
import { median } from "./stats.ts";

const root = join(import.meta.dir, "..");
const binary = optionArg("--binary");
const sidecarCommand = binary !== undefined ? [binary] : [process.execPath, join(root, "src/main.ts")];
const WARM_RUNS = 3;
const CLI_RUNS = 3;
const USAGE = "bun bench/ast-grep.ts [--binary dist/sidecar] [--corpus DIR] [--cold-runs N] [--only TEXT] [--ast-grep-nice N]";
const COLD_RUNS = countOption("--cold-runs", 3, USAGE);
const AST_GREP_NICE = countOption("--ast-grep-nice", 0, USAGE, 0);

/** Resident memory of a process in MB (parse workers are threads of it). */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
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

const corpusOption = optionArg("--corpus");
const corpus = corpusOption ?? buildCorpus();
const only = optionArg("--only");
const CASES = (corpusOption ? CORPUS_CASES : DEFAULT_CASES).filter((c) => only === undefined || c.pattern.includes(only));
const rows: string[][] = [["pattern", "lang", "matches", "ast-grep ms", "cold ms", "warm ms", "cold ×", "warm ×", "CPU s ast-grep/cold", "CPU ×", "RSS cold/warm MB", "same"]];
const coldRatios: number[] = [];
const cpuRatios: number[] = [];
const loads: number[] = [loadavg()[0]!];
const warmRatios: number[] = [];
for (const c of CASES) {
  const cli = Array.from({ length: CLI_RUNS }, () => astGrepRun(c, corpus, AST_GREP_NICE));
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
