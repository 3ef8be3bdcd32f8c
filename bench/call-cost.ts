// CPU each kind of call costs the sidecar's main thread (where every request waits its turn) and
// the whole process, measured one call at a time from one session over this repository's sources.
// Usage: bun bench/call-cost.ts [CALLS=200] [KIND...]   (COST_SIDECAR_FLAGS="--cpu-prof-md" profiles the sidecar)
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { spawnSidecar } from "../build/spawn-sidecar.ts";
import { cpuSeconds } from "./cpu-time.ts";
import { countArg } from "./args.ts";

const CALLS = countArg(2, "CALLS", 200, "bun bench/call-cost.ts [CALLS=200] [KIND...]");
const ONLY = process.argv.slice(3);
const root = join(import.meta.dir, "..");
const workdir = mkdtempSync(join(tmpdir(), "sidecar-cost-"));
for (const part of ["src", "test", "bench", "tsconfig.json", "package.json"]) cpSync(join(root, part), join(workdir, part), { recursive: true });
const config = `${workdir}.json`;
writeFileSync(config, JSON.stringify({ workdir, resources: { parser: {}, languageServers: {}, kernels: { python: "/usr/bin/python3" } } }));
const sidecar = await spawnSidecar([process.execPath, ...(process.env.COST_SIDECAR_FLAGS?.split(" ").filter(Boolean) ?? []), join(root, "src", "main.ts"), "serve", "--config", config]);
const pid = sidecar.ready.pid;
const client = await sidecar.connect("default");

/** CPU ms of one thread (the main thread's id is the pid) or of the whole process. */
function cpuMs(task?: number): number {
  return cpuSeconds(pid, { tid: task }) * 1000;
}

const line = (file: string, needle: string) => readFileSync(join(workdir, file), "utf8").split("\n").findIndex((l) => l.includes(needle)) + 1;
const kinds: Record<string, () => Promise<unknown>> = {
  "tools/list": () => client.request({ method: "tools/list" }, ListToolsResultSchema),
  "ast_grep": () => client.callTool({ name: "ast_grep", arguments: { pattern: "await $X.close()", language: "typescript" } }),
  "lsp hover": () => client.callTool({ name: "lsp", arguments: { action: "hover", file: "src/tool/budget.ts", line: line("src/tool/budget.ts", "export function capList"), symbol: "capList" } }),
  "eval python": () => client.callTool({ name: "eval", arguments: { code: "1 + 1", description: "cost probe adding two numbers" } }),
  "eval javascript": () => client.callTool({ name: "eval", arguments: { code: "1 + 1", description: "cost probe adding two numbers", language: "javascript" } }),
};
// Warm servers, kernels and the parse cache; a kind answering with an error would measure only the error path.
for (const [name, call] of Object.entries(kinds)) {
  for (let k = 0; k < 5; k++) {
    const result = (await call()) as { isError?: boolean; content?: unknown } | undefined;
    if (result?.isError) throw new Error(`${name} answered with an error: ${JSON.stringify(result.content)}`);
  }
}
console.log(`${CALLS} calls of each kind, one at a time`);
for (const [name, call] of Object.entries(kinds)) {
  if (ONLY.length > 0 && !ONLY.includes(name)) continue;
  const main0 = cpuMs(pid);
  const all0 = cpuMs();
  const started = performance.now();
  for (let k = 0; k < CALLS; k++) await call();
  const wall = (performance.now() - started) / CALLS;
  console.log(`  ${name.padEnd(16)} wall ${wall.toFixed(2)} ms; sidecar CPU per call: main thread ${((cpuMs(pid) - main0) / CALLS).toFixed(2)} ms, all threads ${((cpuMs() - all0) / CALLS).toFixed(2)} ms`);
}
await sidecar.stop();
rmSync(workdir, { recursive: true, force: true });
rmSync(config, { force: true });
