// The first ast_grep call of a fresh sidecar: its latency when it comes right after the ready line
// and when it comes after a pause (an agent reading tools/list first), with the idle RSS and thread
// count before it. Parse workers start on the first structural call, so this is what that costs.
// Usage: bun bench/ast-grep-first-call.ts [BINARY] [RUNS=7]   (default dist/sidecar)
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawnSidecar } from "../build/spawn-sidecar.ts";
import { residentBytes } from "../src/platform/resident-memory.ts";
import { median, ms } from "./stats.ts";
import { countArg } from "./args.ts";

const binary = resolve(process.argv[2] ?? "dist/sidecar");
const RUNS = countArg(3, "RUNS", 7, "bun bench/ast-grep-first-call.ts [BINARY] [RUNS=7]");
const PAUSE_MS = 1000;

// A small mixed workspace: the first call's cost is starting workers and loading grammars, not parsing.
const workdir = mkdtempSync(join(tmpdir(), "sidecar-first-call-"));
mkdirSync(join(workdir, "src"));
for (let k = 0; k < 40; k++) {
  writeFileSync(join(workdir, "src", `m${k}.ts`), `export function f${k}(a: number) {\n  console.log(a ?? ${k});\n  return a;\n}\n`);
  writeFileSync(join(workdir, "src", `m${k}.py`), `def f${k}(a):\n    print(a)\n    return a\n`);
}
const config = join(workdir, "..", `${workdir.split("/").pop()}.json`);
writeFileSync(config, JSON.stringify({ workdir, resources: { parser: {} } }));

const rssMb = (pid: number) => residentBytes(pid)! / 2 ** 20;
const threads = (pid: number) => readdirSync(`/proc/${pid}/task`).length;

async function firstCall(pauseMs: number): Promise<{ ms: number; rss: number; threadsBefore: number; threadsAfter: number }> {
  const sidecar = await spawnSidecar([binary, "serve", "--config", config]);
  try {
    const client = await sidecar.connect();
    await client.listTools();
    await Bun.sleep(pauseMs);
    const pid = sidecar.child.pid!;
    const rss = rssMb(pid);
    const threadsBefore = threads(pid);
    const started = performance.now();
    const result = await client.callTool({ name: "ast_grep", arguments: { pattern: "console.log($$$A)", language: "typescript" } });
    const elapsed = performance.now() - started;
    if (result.isError || (result.structuredContent as { total: number }).total !== 40) throw new Error(`unexpected answer: ${JSON.stringify(result.content)}`);
    return { ms: elapsed, rss, threadsBefore, threadsAfter: threads(pid) };
  } finally {
    await sidecar.stop();
  }
}

for (const pause of [0, PAUSE_MS]) {
  const runs = [];
  for (let k = 0; k < RUNS; k++) runs.push(await firstCall(pause));
  console.log(
    `first ast_grep call ${pause === 0 ? "right after tools/list" : `${pause} ms after tools/list`}: median ${ms(median(runs.map((r) => r.ms)))} over ${RUNS}; ` +
      `before it: RSS median ${median(runs.map((r) => r.rss)).toFixed(1)} MB, threads ${median(runs.map((r) => r.threadsBefore))} (after: ${median(runs.map((r) => r.threadsAfter))})`,
  );
}
rmSync(workdir, { recursive: true, force: true });
rmSync(config, { force: true });
