// Startup and protocol overhead of the compiled binary: cold start to the ready line (median of
// 20), tools/list round trip on loopback (p50/p99 over 1000), RSS after start, after the round trips
// and idle past the deep reclaim.
// Usage: bun bench/startup.ts [BINARY]   (default dist/sidecar; build it with `bun compile.ts`)
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawnSidecar } from "../build/spawn-sidecar.ts";
import { residentBytes } from "../src/platform/resident-memory.ts";
import { DEEP_IDLE_MS } from "../src/run/idle-reclaim.ts";
import { median, ms, percentile } from "./stats.ts";

const binary = resolve(process.argv[2] ?? "dist/sidecar");
if (!existsSync(binary)) {
  console.error(`${binary} does not exist; build it first with \`bun compile.ts\`.`);
  process.exit(2);
}
const workdir = mkdtempSync(join(tmpdir(), "sidecar-bench-"));

const COLD_STARTS = 20;
const ROUND_TRIPS = 1000;

const starts: number[] = [];
for (let i = 0; i < COLD_STARTS; i++) {
  const t0 = performance.now();
  const sidecar = await spawnSidecar([binary, "serve", "--workdir", workdir]);
  starts.push(performance.now() - t0);
  await sidecar.stop();
}

const rssMb = (pid: number) => residentBytes(pid)! / 2 ** 20;
const sidecar = await spawnSidecar([binary, "serve", "--workdir", workdir]);
await Bun.sleep(1000);
const startedRss = rssMb(sidecar.child.pid!);
const client = await sidecar.connect("default");
const listedBySdk = (await client.listTools()).tools.length;
// Raw JSON-RPC over the SDK's session: the SDK client compiles a JSON Schema validator per tool on
// every listTools(), which is the client's cost, not the server's.
const sessionId = (client.transport as unknown as { sessionId: string }).sessionId;
const headers = {
  Authorization: `Bearer ${sidecar.ready.surfaces.default}`,
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "Mcp-Session-Id": sessionId,
  "Mcp-Protocol-Version": "2025-06-18",
};
async function listTools(id: number): Promise<number> {
  const response = await fetch(sidecar.ready.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" }) });
  const text = await response.text();
  return (text.match(/"name":/g) ?? []).length;
}
if ((await listTools(0)) < listedBySdk) throw new Error("raw tools/list returned fewer tools than the SDK saw");
for (let i = 0; i < 50; i++) await listTools(i + 1); // warm-up
const trips: number[] = [];
for (let i = 0; i < ROUND_TRIPS; i++) {
  const t0 = performance.now();
  await listTools(100 + i);
  trips.push(performance.now() - t0);
}
await Bun.sleep(500);
const burstRss = rssMb(sidecar.child.pid!);
// Idle as the run sees it: past the deep reclaim's wait (src/run/idle-reclaim.ts) and its settling.
await Bun.sleep(DEEP_IDLE_MS + 2_000);
const idleRss = rssMb(sidecar.child.pid!);
await sidecar.stop();
rmSync(workdir, { recursive: true, force: true });

const tools = (await Bun.$`${binary} tools`.quiet().json()).tools.length as number;
console.log(`binary: ${binary} (${tools} tools on the default surface with embedded defaults)`);
console.log(`cold start to ready line: median ${ms(median(starts))} over ${COLD_STARTS} (target ≤ 150 ms)`);
console.log(`tools/list round trip (raw JSON-RPC, ${listedBySdk} tools): p50 ${ms(percentile(trips, 50))}, p99 ${ms(percentile(trips, 99))} over ${ROUND_TRIPS} (target p50 ≤ 2 ms)`);
console.log(`RSS 1 s after the ready line: ${startedRss.toFixed(1)} MB; 500 ms after ${ROUND_TRIPS + 50} tools/list: ${burstRss.toFixed(1)} MB; idle ${(DEEP_IDLE_MS + 2_000) / 1000} s after them: ${idleRss.toFixed(1)} MB (target ≤ 60 MB)`);
