// Load: N concurrent MCP sessions (official SDK client) on the default and plan surfaces of a real
// `sidecar serve` process, mixing tools/list, eval cells, ast_grep and lsp hover/definition, for
// two rounds. Prints throughput, p50/p99 per kind, errors, crashes, and the sidecar's RSS before,
// after round 1 and after round 2 (the leak check).
// Usage: bun bench/load.ts [SECONDS=60] [SESSIONS=50] [THINK_MS=0]
// LOAD_KINDS="ast_grep,lsp hover" keeps only those kinds (tools/list always stays); LOAD_ROUNDS=3
// runs more rounds, to tell a filling cache from a leak. LOAD_SIDECAR_FLAGS="--heap-prof-md" passes
// runtime flags to the sidecar (profiles are written to its working directory when it exits).
// THINK_MS=0 is a closed loop (each session calls again at once: saturation, so latency is about
// SESSIONS / throughput); a think time models agents that call, read, then call again.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { spawnSidecar } from "../build/spawn-sidecar.ts";
import { processesWithMarker, waitForNoLeftovers } from "../build/leftovers.ts";
import { ms, percentile } from "./stats.ts";

const SECONDS = Number(process.argv[2] ?? 60);
const SESSIONS = Number(process.argv[3] ?? 50);
const THINK_MS = Number(process.argv[4] ?? 0);
const ROUNDS = Number(process.env.LOAD_ROUNDS ?? 2);
const ONLY = process.env.LOAD_KINDS?.split(",").map((k) => k.trim());
/** A call that takes longer than this is counted as an error (the SDK's own default is 60 s). */
const CALL_TIMEOUT_MS = 120_000;
/** Settle time before reading RSS, so freed sessions and buffers can be collected. */
const SETTLE_MS = Number(process.env.LOAD_SETTLE_MS ?? 3_000);
const TARGET_LIST_P99_MS = 20;
const PYTHON = "/usr/bin/python3";
const MARKER = "SIDECAR_LOAD_BENCH";

const root = join(import.meta.dir, "..");
const workdir = mkdtempSync(join(tmpdir(), "sidecar-load-"));
// The fixture is this repository's own sources: real TypeScript for ast_grep and the language server.
for (const part of ["src", "test", "bench", "tsconfig.json", "package.json"]) cpSync(join(root, part), join(workdir, part), { recursive: true });
const config = join(workdir, "..", `${workdir.split("/").pop()}.json`);
writeFileSync(
  config,
  JSON.stringify({ workdir, conversation: "load", resources: { parser: {}, languageServers: {}, kernels: { python: PYTHON } } }),
);

const marker = String(process.pid);
const sidecar = await spawnSidecar([process.execPath, ...(process.env.LOAD_SIDECAR_FLAGS?.split(" ").filter(Boolean) ?? []), join(root, "src", "main.ts"), "serve", "--config", config], {
  env: { ...process.env, [MARKER]: marker },
});
const pid = sidecar.ready.pid;

interface Kind {
  name: string;
  surfaces: readonly string[];
  weight: number;
  call(client: Client, session: number, sequence: number): Promise<object>;
}

/** Python cells append their id, so the end of the run can prove no answered cell was lost. */
const answeredCells = { python: 0, javascript: 0 };
const evalCall = (language: "python" | "javascript") => async (client: Client, session: number, sequence: number) => {
  const code = language === "python" ? `_seen.append(${session * 1e6 + sequence}); len(_seen)` : `globalThis.seen.push(${session * 1e6 + sequence}); seen.length`;
  const result = await client.callTool({ name: "eval", arguments: { code, description: "load bench cell counting its calls", language } }, undefined, {
    timeout: CALL_TIMEOUT_MS,
    resetTimeoutOnProgress: true,
    onprogress: () => {},
  });
  if (!result.isError) answeredCells[language]++;
  return result;
};

const fixtureLine = (file: string, needle: string) => readFileSync(join(workdir, file), "utf8").split("\n").findIndex((l) => l.includes(needle)) + 1;
const hoverFile = "src/tool/budget.ts";
const hoverLine = fixtureLine(hoverFile, "export function capList");
const definitionFile = "src/run/start.ts";
const definitionLine = fixtureLine(definitionFile, "const services = connectServices(");

const KINDS: Kind[] = [
  // Raw tools/list: the SDK's listTools() also compiles an output-schema validator per tool on the
  // client, which on this shared machine costs more CPU than the server's answer.
  { name: "tools/list", surfaces: ["default", "plan"], weight: 4, call: async (c) => (await c.request({ method: "tools/list" }, ListToolsResultSchema), {}) },
  { name: "eval python", surfaces: ["default"], weight: 1, call: evalCall("python") },
  { name: "eval javascript", surfaces: ["default"], weight: 1, call: evalCall("javascript") },
  {
    name: "ast_grep",
    surfaces: ["default", "plan"],
    weight: 1,
    call: (c) => c.callTool({ name: "ast_grep", arguments: { pattern: "await $X.close()", language: "typescript" } }, undefined, { timeout: CALL_TIMEOUT_MS }),
  },
  {
    name: "lsp hover",
    surfaces: ["default", "plan"],
    weight: 1,
    call: (c) => c.callTool({ name: "lsp", arguments: { action: "hover", file: hoverFile, line: hoverLine, symbol: "capList" } }, undefined, { timeout: CALL_TIMEOUT_MS }),
  },
  {
    name: "lsp definition",
    surfaces: ["default", "plan"],
    weight: 1,
    call: (c) =>
      c.callTool({ name: "lsp", arguments: { action: "definition", file: definitionFile, line: definitionLine, symbol: "connectServices" } }, undefined, {
        timeout: CALL_TIMEOUT_MS,
      }),
  },
];

function rss(): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? NaN);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
}

/** The sidecar's own CPU time so far (user + system, seconds), threads included. */
function cpuSeconds(): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

function alive(): boolean {
  return sidecar.child.exitCode === null && sidecar.child.signalCode === null;
}

const admin = await sidecar.connect("default");
const registered = new Set((await admin.listTools()).tools.map((t) => t.name));
const kinds = KINDS.filter(
  (k) => k.name === "tools/list" || (registered.has(k.name.split(" ")[0]!) && (!ONLY || ONLY.includes(k.name))),
);
const missing = KINDS.filter((k) => !kinds.includes(k)).map((k) => k.name);
if (missing.length) console.log(`left out (not registered, or not in LOAD_KINDS): ${missing.join(", ")}`);

// Warm-up: start both kernels, the language server and the parser once, so the baseline holds them.
await admin.callTool({ name: "eval", arguments: { code: "_seen = []", description: "load bench warm-up of the kernel" } });
await admin.callTool({ name: "eval", arguments: { code: "globalThis.seen = []", description: "load bench warm-up of the kernel", language: "javascript" } });
for (const kind of kinds) await kind.call(admin, 0, 0).catch(() => {});
answeredCells.python = answeredCells.javascript = 0;
await admin.callTool({ name: "eval", arguments: { code: "_seen.clear()", description: "load bench clears the cell ledger" } });
await admin.callTool({ name: "eval", arguments: { code: "seen.length = 0", description: "load bench clears the cell ledger", language: "javascript" } });
await Bun.sleep(SETTLE_MS);
const before = rss();
console.log(`sidecar pid ${pid}; ${SESSIONS} sessions (${Math.ceil(SESSIONS / 2)} default, ${Math.floor(SESSIONS / 2)} plan) for ${SECONDS} s × ${ROUNDS} rounds, think time ${THINK_MS} ms`);
console.log(`kinds: ${kinds.map((k) => `${k.name}×${k.weight}`).join(", ")}`);
console.log(`RSS before: ${before.rssMb.toFixed(1)} MB`);

interface Tally {
  latencies: Map<string, number[]>;
  errors: Map<string, string[]>;
  calls: number;
}

async function session(index: number, deadline: number, tally: Tally): Promise<void> {
  const surface = index % 2 === 0 ? "default" : "plan";
  const mine = kinds.flatMap((k) => (k.surfaces.includes(surface) ? Array<Kind>(k.weight).fill(k) : []));
  const client = await sidecar.connect(surface);
  let sequence = 0;
  try {
    while (Date.now() < deadline && alive()) {
      const kind = mine[Math.floor(Math.random() * mine.length)]!;
      sequence++;
      const started = performance.now();
      try {
        const result = (await kind.call(client, index + 1, sequence)) as { isError?: boolean; content?: unknown };
        if (result.isError) throw new Error(JSON.stringify(result.content).slice(0, 300));
        tally.latencies.get(kind.name)!.push(performance.now() - started);
      } catch (error) {
        tally.errors.get(kind.name)!.push((error as Error).message.slice(0, 300));
      }
      tally.calls++;
      if (THINK_MS) await Bun.sleep(THINK_MS * (0.5 + Math.random()));
    }
  } finally {
    await client.close();
  }
}

/** tools/list latencies seen by a probe in its own process (bench/list-probe.ts) during the round. */
async function probeList(seconds: number): Promise<number[]> {
  const probe = Bun.spawn([process.execPath, join(import.meta.dir, "list-probe.ts"), sidecar.ready.url, sidecar.ready.surfaces.default!, String(seconds)], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(probe.stdout).text();
  return (await probe.exited) === 0 ? (JSON.parse(out) as number[]) : [];
}

async function round(number: number): Promise<void> {
  const tally: Tally = { latencies: new Map(kinds.map((k) => [k.name, []])), errors: new Map(kinds.map((k) => [k.name, []])), calls: 0 };
  const started = performance.now();
  const cpuBefore = cpuSeconds();
  const deadline = Date.now() + SECONDS * 1000;
  const probe = probeList(SECONDS);
  await Promise.all(Array.from({ length: SESSIONS }, (_, i) => session(i, deadline, tally)));
  const probed = await probe;
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds() - cpuBefore;
  console.log(`\nround ${number}: ${tally.calls} calls in ${seconds.toFixed(1)} s = ${(tally.calls / seconds).toFixed(1)} calls/s`);
  console.log(`  sidecar CPU ${cpu.toFixed(1)} s (${((cpu / seconds) * 100).toFixed(0)}% of one core; ${((cpu * 1000) / tally.calls).toFixed(2)} ms per call)`);
  for (const kind of kinds) {
    const times = tally.latencies.get(kind.name)!;
    const errors = tally.errors.get(kind.name)!;
    console.log(
      `  ${kind.name.padEnd(16)} ${String(times.length).padStart(6)} ok  p50 ${ms(percentile(times, 50)).padStart(9)}  p99 ${ms(percentile(times, 99)).padStart(9)}  errors ${errors.length}`,
    );
    for (const message of [...new Set(errors)].slice(0, 3)) console.log(`      ${message}`);
  }
  const list = tally.latencies.get("tools/list")!;
  console.log(`  tools/list p99 ${ms(percentile(list, 99))} vs the ${TARGET_LIST_P99_MS} ms target: ${(percentile(list, 99) / TARGET_LIST_P99_MS).toFixed(2)}× (seen by the loaded sessions)`);
  console.log(
    `  tools/list probe in its own process, every 50 ms: ${probed.length} calls, p50 ${ms(percentile(probed, 50))}, p99 ${ms(percentile(probed, 99))} ` +
      `vs the ${TARGET_LIST_P99_MS} ms target: ${(percentile(probed, 99) / TARGET_LIST_P99_MS).toFixed(2)}×`,
  );
  console.log(`  sidecar alive: ${alive()}`);
  await Bun.sleep(SETTLE_MS);
  const now = rss();
  console.log(`  RSS after round ${number}: ${now.rssMb.toFixed(1)} MB (${((now.rssMb / before.rssMb - 1) * 100).toFixed(1)}% vs before; peak ${now.peakMb.toFixed(1)} MB)`);
}

for (let i = 1; i <= ROUNDS && alive(); i++) await round(i);

// Nothing lost: every cell answered ok must be in its kernel's ledger, and no kernel restarted.
const kept = async (language: "python" | "javascript") => {
  const result = await admin.callTool({
    name: "eval",
    arguments: { code: language === "python" ? "len(_seen)" : "seen.length", description: "load bench counts the cells kept", language },
  });
  const text = (result.content as { text?: string }[]).map((c) => c.text ?? "").join("");
  return Number(text.match(/Out\[\d+\]: (\d+)/)?.[1] ?? NaN);
};
if (alive() && registered.has("eval")) {
  for (const language of ["python", "javascript"] as const) {
    const count = await kept(language);
    console.log(`${language} cells answered ok: ${answeredCells[language]}; kept in the kernel: ${count} (${count === answeredCells[language] ? "nothing lost" : "MISMATCH"})`);
  }
}
const crashed = !alive();
const childrenBefore = processesWithMarker(MARKER, marker).filter((p) => p !== pid).length;
await admin.close();
const code = await sidecar.stop();
const left = await waitForNoLeftovers(MARKER, marker, 5_000);
console.log(`sidecar crashed during the run: ${crashed}; exit code on SIGTERM ${code}; children before stop ${childrenBefore}, left after: ${left.length}`);
rmSync(workdir, { recursive: true, force: true });
rmSync(config, { force: true });
if (existsSync(workdir)) console.log(`could not remove ${workdir}`);
