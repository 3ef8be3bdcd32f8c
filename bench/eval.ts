// Benchmarks the eval kernels: cold first cell (start + one cell) and warm cell round trips.
// `bun bench/eval.ts` — uses dist/sidecar for the JavaScript kernel when built, else the source.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { missingBridge } from "../src/kernel/bridge-client.ts";
import { KernelFactory, type CellRequest } from "../src/kernel/factory.ts";
import type { KernelLanguage } from "../src/kernel/launch.ts";

const COLD_RUNS = 7;
const WARM_RUNS = 200;
const TARGET_COLD_MS = 150;
const TARGET_WARM_MS = 5;
const PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";

const root = join(import.meta.dir, "..");
const binary = join(root, "dist", "sidecar");
const selfCommand = existsSync(binary) ? [binary] : [process.execPath, join(root, "src", "main.ts")];
const signal = new AbortController().signal;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function factory(): KernelFactory {
  return new KernelFactory({ python: PYTHON }, root, selfCommand, missingBridge());
}

function request(language: KernelLanguage, code: string): CellRequest {
  return { language, code, reset: false, signal };
}

/** What merely starting the process costs here: a loaded machine slows both sides alike. */
function bareStart(argv: readonly string[]): number {
  const times: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const started = performance.now();
    spawnSync(argv[0]!, argv.slice(1), { stdio: "ignore" });
    times.push(performance.now() - started);
  }
  return median(times);
}

async function cold(language: KernelLanguage): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const kernels = factory();
    const started = performance.now();
    await kernels.execute(request(language, "1 + 1"));
    times.push(performance.now() - started);
    await kernels.close();
  }
  return median(times);
}

async function warm(language: KernelLanguage): Promise<number> {
  const kernels = factory();
  await kernels.execute(request(language, "x = 0"));
  const times: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    const started = performance.now();
    await kernels.execute(request(language, "1 + 1"));
    times.push(performance.now() - started);
  }
  await kernels.close();
  return median(times);
}

console.log(`eval kernels — python ${PYTHON}, javascript ${selfCommand.join(" ")}`);
const baselines = { python: [PYTHON, "-c", "pass"], javascript: [...selfCommand, "--version"] };
for (const language of ["python", "javascript"] as const) {
  const bareMs = bareStart(baselines[language]);
  const coldMs = await cold(language);
  const warmMs = await warm(language);
  console.log(`${language.padEnd(10)} bare process start (${baselines[language].join(" ")}) median ${bareMs.toFixed(1)} ms`);
  console.log(
    `${language.padEnd(10)} cold first cell median ${coldMs.toFixed(1)} ms (${(coldMs / TARGET_COLD_MS).toFixed(2)}× the ${TARGET_COLD_MS} ms target, ${COLD_RUNS} runs); ` +
      `warm round trip median ${warmMs.toFixed(2)} ms (${(warmMs / TARGET_WARM_MS).toFixed(2)}× the ${TARGET_WARM_MS} ms target, ${WARM_RUNS} runs)`,
  );
}
