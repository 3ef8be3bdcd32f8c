// Benchmarks the eval kernels: cold first cell (start + one cell), where its time goes (start to
// ready, then the cell), and warm cell round trips, against starting the bare interpreter in the same run.
// `bun bench/eval.ts` — uses dist/sidecar for the JavaScript kernel when built, else the source.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { missingBridge } from "../src/kernel/bridge-client.ts";
import { KernelFactory, type CellRequest } from "../src/kernel/factory.ts";
import { KernelProcess } from "../src/kernel/kernel-process.ts";
import { launchPlan, type KernelLanguage } from "../src/kernel/launch.ts";
import { TRUST_ALL } from "../src/platform/executables.ts";
import { median } from "./stats.ts";

const COLD_RUNS = 7;
const WARM_RUNS = 200;
const TARGET_COLD_MS = 150;
const TARGET_WARM_MS = 5;
const PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";

const root = join(import.meta.dir, "..");
const binary = join(root, "dist", "sidecar");
const selfCommand = existsSync(binary) ? [binary] : [process.execPath, join(root, "src", "main.ts")];
const signal = new AbortController().signal;


function factory(): KernelFactory {
  return new KernelFactory({ python: PYTHON }, root, TRUST_ALL, selfCommand, missingBridge());
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

async function cold(language: KernelLanguage, code: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const kernels = factory();
    const started = performance.now();
    await kernels.execute(request(language, code));
    times.push(performance.now() - started);
    await kernels.close();
  }
  return median(times);
}

/** The cold first cell in two parts: spawn until the kernel says ready, then the first cell. */
async function coldParts(language: KernelLanguage): Promise<{ readyMs: number; cellMs: number }> {
  const ready: number[] = [];
  const cell: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const plan = launchPlan(language, { python: PYTHON }, TRUST_ALL, selfCommand);
    if (typeof plan === "string") throw new Error(plan);
    const kernel = new KernelProcess(plan, root);
    const started = performance.now();
    await kernel.started();
    const readyAt = performance.now();
    await kernel.run("1 + 1", { inactivityMs: 60_000, signal, callTool: async () => ({ ok: true, result: null }) });
    ready.push(readyAt - started);
    cell.push(performance.now() - readyAt);
    await kernel.stop();
  }
  return { readyMs: median(ready), cellMs: median(cell) };
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

console.log(`eval kernels — python ${PYTHON}, javascript ${selfCommand.join(" ")}; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
const baselines = { python: [PYTHON, "-c", "pass"], javascript: [...selfCommand, "--version"] };
const prints = { python: "print(1 + 1)", javascript: "console.log(1 + 1)" };
for (const language of ["python", "javascript"] as const) {
  const bareMs = bareStart(baselines[language]);
  const coldMs = await cold(language, "1 + 1");
  const printingMs = await cold(language, prints[language]);
  const { readyMs, cellMs } = await coldParts(language);
  const warmMs = await warm(language);
  const ratio = (ms: number) => `${(ms / TARGET_COLD_MS).toFixed(2)}× the ${TARGET_COLD_MS} ms target, ${(ms / bareMs).toFixed(2)}× bare start`;
  console.log(`${language.padEnd(10)} bare process start (${baselines[language].join(" ")}) median ${bareMs.toFixed(1)} ms`);
  console.log(`${language.padEnd(10)} cold first cell \`1 + 1\` median ${coldMs.toFixed(1)} ms (${ratio(coldMs)}, ${COLD_RUNS} runs)`);
  console.log(`${language.padEnd(10)} cold first cell \`${prints[language]}\` median ${printingMs.toFixed(1)} ms (${ratio(printingMs)})`);
  console.log(`${language.padEnd(10)} of which: spawn to ready median ${readyMs.toFixed(1)} ms, first cell median ${cellMs.toFixed(1)} ms`);
  console.log(`${language.padEnd(10)} warm round trip median ${warmMs.toFixed(2)} ms (${(warmMs / TARGET_WARM_MS).toFixed(2)}× the ${TARGET_WARM_MS} ms target, ${WARM_RUNS} runs)`);
}
console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
