// Benchmark of the worker roster's own overhead: spawn-to-result, kill and re-run latency, medians.
// Run: npx bun bench/workers.ts [rounds]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { vibeSettings } from "../src/config/resources/vibe.ts";
import { TRUST_ALL } from "../src/platform/executables.ts";
import { WorkerRoster } from "../src/workers/roster.ts";
import { median } from "./stats.ts";

const ROUNDS = Number(process.argv[2] ?? 15);
/** Bound on one measured step; a step that hits it is reported, not hidden. */
const STEP_LIMIT_MS = 30_000;

const workdir = mkdtempSync(join(tmpdir(), "sidecar-bench-"));
const script = join(workdir, "worker.sh");
// "quick" finishes at once; anything else runs until stopped.
writeFileSync(script, 'if [ "$(cat)" = quick ]; then echo ok; exit 0; fi\nwhile true; do echo tick; sleep 0.05; done\n');
const settings = v.parse(vibeSettings, { fast: { command: ["sh", script], concurrency: 4 }, maxSpawns: ROUNDS * 3 + 5 });
const roster = new WorkerRoster(settings, workdir, undefined, TRUST_ALL);
const never = new AbortController().signal;


async function finished(id: string): Promise<void> {
  if (!(await roster.waitUntilFinal(id, STEP_LIMIT_MS, never))) throw new Error(`${id} did not finish within ${STEP_LIMIT_MS} ms`);
}

async function progressed(id: string): Promise<void> {
  const deadline = Date.now() + STEP_LIMIT_MS;
  while (!roster.get(id).lastProgress) {
    if (Date.now() > deadline) throw new Error(`${id} printed nothing within ${STEP_LIMIT_MS} ms`);
    await Bun.sleep(5);
  }
}

/** Every spawn and send comes from the default surface, as the agent's own calls would. */
const startedBy = { surface: "default", tiers: ["read", "write", "exec"] as const };
const spawnToResult: number[] = [];
const kill: number[] = [];
const rerun: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  let start = performance.now();
  const quick = roster.spawn({ brief: "quick", label: "quick", grade: "fast", startedBy });
  await finished(quick.id);
  spawnToResult.push(performance.now() - start);

  const long = roster.spawn({ brief: "long", label: "long", grade: "fast", startedBy });
  await progressed(long.id);
  start = performance.now();
  await roster.send(long.id, "again", startedBy);
  rerun.push(performance.now() - start);
  await progressed(long.id);
  start = performance.now();
  await roster.kill(long.id);
  kill.push(performance.now() - start);
}
const bare: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const start = performance.now();
  const child = Bun.spawn(["sh", script], { stdin: new TextEncoder().encode("quick"), stdout: "pipe" });
  await new Response(child.stdout).text();
  await child.exited;
  bare.push(performance.now() - start);
}
await roster.close();
rmSync(workdir, { recursive: true, force: true });

const row = (name: string, values: number[]) => console.log(`${name.padEnd(34)} median ${median(values).toFixed(1)} ms`);
console.log(`worker roster, ${ROUNDS} rounds`);
row("bare sh spawn + read stdout", bare);
row("vibe spawn → result (done)", spawnToResult);
row("vibe send to running (stop+rerun)", rerun);
row("vibe kill of running", kill);
console.log(`roster overhead ratio (spawn→result / bare): ${(median(spawnToResult) / median(bare)).toFixed(2)}`);
