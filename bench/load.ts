// Load: N concurrent MCP sessions (official SDK client) on the default and plan surfaces of a real
// `sidecar serve` process, mixing tools/list, eval cells, ast_grep and lsp hover/definition, for
// two rounds. Prints throughput, p50/p99 per kind, errors, crashes, and the sidecar's RSS before,
// after round 1 and after round 2 (the leak check).
// Usage: bun bench/load.ts [SECONDS=60] [SESSIONS=50] [THINK_MS=0]
// THINK_MS=0 is a closed loop (each session calls again at once: saturation, so latency is about
// SESSIONS / throughput); a think time models agents that call, read, then call again.
// The sessions run in LOAD_PROCESSES client processes (default 5, as separate agents would), and
// a tools/list probe runs in one more (bench/list-probe.ts). A second probe, in the same round,
// calls a trivial server answering the same list (bench/reference-list-server.ts): the floor this
// machine and probe set for any server, the reference the sidecar's figure is read against. LOAD_KINDS="ast_grep,lsp hover" keeps
// only those kinds (tools/list always stays); LOAD_ROUNDS=3 runs more rounds, to tell a filling
// cache from a leak; LOAD_SETTLE_MS sets the pause before each RSS reading (default 15000, past the
// sidecar's deep reclaim);
// LOAD_SIDECAR_FLAGS="--heap-prof-md" passes runtime flags to the sidecar (profiles are written to
// its working directory when it exits), LOAD_SIDECAR_ENV="NAME=value …" environment variables;
// LOAD_CLIENT_NICE=5 runs the client processes (not the probe) at that nice value, as callers that
// yield the CPU to the sidecar, like its own children do.
// Each round also reports how long the sidecar's main thread ran and how long it waited, runnable,
// for a CPU (Linux schedstat): on a machine the load generator shares, the waiting is most of the latency.
// And where the machine's CPU went over the round: the sidecar, its children, the load generator
// (its clients and probe, which run the official SDK client) and everything else.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSidecar } from "../build/spawn-sidecar.ts";
import { lowerProcessPriority } from "../src/platform/priority.ts";
import { peakResidentBytes, residentBytes } from "../src/platform/resident-memory.ts";
import { DEEP_IDLE_MS } from "../src/run/idle-reclaim.ts";
import { processesWithMarker, waitForNoLeftovers } from "../build/leftovers.ts";
import { cpuSeconds, machineCpu } from "./cpu-time.ts";
import type { LoadClientJob } from "./load-client.ts";
import { loadKinds, type Tally } from "./load-kinds.ts";
import { ms, percentile } from "./stats.ts";
import { countArg } from "./args.ts";

const USAGE = "bun bench/load.ts [SECONDS=60] [SESSIONS=50] [THINK_MS=0]";
const SECONDS = countArg(2, "SECONDS", 60, USAGE);
const SESSIONS = countArg(3, "SESSIONS", 50, USAGE);
const THINK_MS = countArg(4, "THINK_MS", 0, USAGE, 0);
const ROUNDS = Number(process.env.LOAD_ROUNDS ?? 2);
const PROCESSES = Math.max(1, Math.min(SESSIONS, Number(process.env.LOAD_PROCESSES ?? 5)));
const CLIENT_NICE = Number(process.env.LOAD_CLIENT_NICE ?? 0);
const ONLY = process.env.LOAD_KINDS?.split(",").map((k) => k.trim());
/**
 * Settle time before each RSS reading (the resting one too, so both are read in the same state):
 * long enough for the sidecar's deep reclaim after DEEP_IDLE_MS of idle to run and settle.
 */
const SETTLE_MS = Number(process.env.LOAD_SETTLE_MS ?? DEEP_IDLE_MS + 5_000);
/** The tools/list p99 the architecture issue sets: 50 ms saturated (no think time), 5 ms at agent pace. */
const TARGET_LIST_P99_MS = THINK_MS === 0 ? 50 : 5;
/** Client processes start, connect and warm up before each round's measured window opens. */
const CLIENT_WARM_UP_MS = 5_000;
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

/** LOAD_SIDECAR_ENV="BUN_JSC_x=1 Y=2": variables for the sidecar alone (the clients keep theirs). */
function sidecarEnv(): Record<string, string> {
  const pairs = process.env.LOAD_SIDECAR_ENV?.split(" ").filter(Boolean) ?? [];
  return Object.fromEntries(pairs.map((pair) => {
    const at = pair.indexOf("=");
    return [pair.slice(0, at), pair.slice(at + 1)];
  }));
}

const marker = String(process.pid);
const sidecar = await spawnSidecar(
  [process.execPath, ...(process.env.LOAD_SIDECAR_FLAGS?.split(" ").filter(Boolean) ?? []), join(root, "src", "main.ts"), "serve", "--config", config],
  { env: { ...process.env, ...sidecarEnv(), [MARKER]: marker } },
);
const pid = sidecar.ready.pid;

function rss(): { rssMb: number; peakMb: number } {
  return { rssMb: (residentBytes(pid) ?? NaN) / 2 ** 20, peakMb: (peakResidentBytes(pid) ?? NaN) / 2 ** 20 };
}

/** A thread's time on a CPU and runnable-but-waiting for one, in seconds (Linux schedstat). */
function threadSched(tid: number): { run: number; wait: number } {
  const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ").map(Number);
  return { run: run! / 1e9, wait: wait! / 1e9 };
}


/** CPU seconds so far of the sidecar's children (every marked process but the sidecar), per pid. */
function childrenCpu(): Map<number, number> {
  return new Map(processesWithMarker(MARKER, marker).filter((p) => p !== pid).map((p) => [p, cpuSeconds(p, { reaped: true })]));
}

/** Client and probe processes of the running round. */
const generatorPids = new Set<number>();

/**
 * Where the machine's CPU went between two readings: the sidecar, its children, the load
 * generator (this process and its reaped clients and probe) and everything else.
 */
function cpuAccount() {
  const machine = machineCpu();
  // Clients and the probe still running count what they spent so far (before the round opened:
  // start-up, connecting, warming up); once reaped, their whole time is in our cutime and cstime.
  const running = [...generatorPids].reduce((sum, p) => sum + cpuSeconds(p, { reaped: true }), 0);
  return { machine, sidecar: cpuSeconds(pid), children: childrenCpu(), generator: cpuSeconds(process.pid, { reaped: true }) + running };
}

function describeCpuAccount(from: ReturnType<typeof cpuAccount>, to: ReturnType<typeof cpuAccount>): string {
  const total = to.machine.total - from.machine.total;
  const busy = to.machine.busy - from.machine.busy;
  const sidecarCpu = to.sidecar - from.sidecar;
  let children = 0;
  for (const [child, seconds] of to.children) children += seconds - (from.children.get(child) ?? 0);
  const generator = to.generator - from.generator;
  const share = (seconds: number) => `${seconds.toFixed(1)} s (${((seconds / total) * 100).toFixed(0)}%)`;
  return (
    `  the machine's ${availableParallelism()} cores: ${((busy / total) * 100).toFixed(0)}% busy; sidecar ${share(sidecarCpu)}, its children ${share(children)}, ` +
    `load generator ${share(generator)}, everything else ${share(Math.max(0, busy - sidecarCpu - children - generator))}`
  );
}

function alive(): boolean {
  return sidecar.child.exitCode === null && sidecar.child.signalCode === null;
}

const admin = await sidecar.connect("default");
const registered = new Set((await admin.listTools()).tools.map((t) => t.name));
const allKinds = loadKinds(workdir);
const kinds = allKinds.filter((k) => k.name === "tools/list" || (registered.has(k.name.split(" ")[0]!) && (!ONLY || ONLY.includes(k.name))));
const missing = allKinds.filter((k) => !kinds.includes(k)).map((k) => k.name);
if (missing.length) console.log(`left out (not registered, or not in LOAD_KINDS): ${missing.join(", ")}`);

// Warm-up: start both kernels, the language server and the parser once, so the baseline holds them.
await admin.callTool({ name: "eval", arguments: { code: "_seen = []", description: "load bench warm-up of the kernel" } });
await admin.callTool({ name: "eval", arguments: { code: "globalThis.seen = []", description: "load bench warm-up of the kernel", language: "javascript" } });
for (const kind of kinds) await kind.call(admin, 0, 0).catch(() => {});
await admin.callTool({ name: "eval", arguments: { code: "_seen.clear()", description: "load bench clears the cell ledger" } });
await admin.callTool({ name: "eval", arguments: { code: "seen.length = 0", description: "load bench clears the cell ledger", language: "javascript" } });
await Bun.sleep(SETTLE_MS);
const before = rss();
console.log(
  `sidecar pid ${pid}; ${SESSIONS} sessions (${Math.ceil(SESSIONS / 2)} default, ${Math.floor(SESSIONS / 2)} plan) in ${PROCESSES} client process(es), ` +
    `for ${SECONDS} s × ${ROUNDS} rounds, think time ${THINK_MS} ms`,
);
console.log(`kinds: ${kinds.map((k) => `${k.name}×${k.weight}`).join(", ")}`);
console.log(`RSS before: ${before.rssMb.toFixed(1)} MB`);
const answeredCells = { python: 0, javascript: 0 };

/** Runs one client process over `sessions` until `deadline`; its tally, or an error per session if it failed. */
async function clientProcess(sessions: number[], start: number, deadline: number): Promise<Tally> {
  const job: LoadClientJob = { url: sidecar.ready.url, tokens: sidecar.ready.surfaces, workdir, sessions, kinds: kinds.map((k) => k.name), start, deadline, thinkMs: THINK_MS };
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "load-client.ts"), JSON.stringify(job)], { stdout: "pipe", stderr: "pipe" });
  if (CLIENT_NICE) lowerProcessPriority(child.pid, CLIENT_NICE);
  generatorPids.add(child.pid);
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  generatorPids.delete(child.pid);
  if (code === 0) return JSON.parse(out) as Tally;
  const failed: Tally = {
    latencies: {},
    errors: { "tools/list": sessions.map(() => `client process exited ${code}: ${err.slice(-300)}`) },
    calls: 0,
    answered: { python: 0, javascript: 0 },
    clientLagMs: [],
    listUnstalledMs: [],
  };
  return failed;
}

/**
 * The reference for the probe: a trivial server answering the same tools/list (the default surface's,
 * as the probe sees it), idle in its own process beside the load (bench/reference-list-server.ts).
 */
const referenceListFile = join(workdir, "..", `${workdir.split("/").pop()}-tools.json`);
writeFileSync(referenceListFile, JSON.stringify({ tools: (await admin.listTools()).tools }));
const reference = Bun.spawn([process.execPath, join(import.meta.dir, "reference-list-server.ts"), referenceListFile], { stdout: "pipe", stderr: "inherit" });
generatorPids.add(reference.pid);
const referenceUrl = await firstLine(reference.stdout);

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the reference server exited before printing its URL: ${JSON.stringify(text)}`);
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text.split("\n")[0]!.trim();
}

/** tools/list latencies seen by a probe in its own process (bench/list-probe.ts) during the round. */
async function probeList(url: string, token: string, start: number, seconds: number): Promise<{ sdk: number[]; raw: number[] }> {
  const probe = Bun.spawn([process.execPath, join(import.meta.dir, "list-probe.ts"), url, token, String(seconds), "50", String(start)], {
    stdout: "pipe",
    stderr: "inherit",
  });
  generatorPids.add(probe.pid);
  const out = await new Response(probe.stdout).text();
  const code = await probe.exited;
  generatorPids.delete(probe.pid);
  return code === 0 ? (JSON.parse(out) as { sdk: number[]; raw: number[] }) : { sdk: [], raw: [] };
}

async function round(number: number): Promise<void> {
  const start = Date.now() + CLIENT_WARM_UP_MS;
  const deadline = start + SECONDS * 1000;
  const shares = Array.from({ length: PROCESSES }, (_, p) => Array.from({ length: SESSIONS }, (_, i) => i).filter((i) => i % PROCESSES === p));
  const running = Promise.all([
    probeList(sidecar.ready.url, sidecar.ready.surfaces.default!, start, SECONDS),
    probeList(referenceUrl, "unused", start, SECONDS),
    ...shares.map((share) => clientProcess(share, start, deadline)),
  ]);
  await Bun.sleep(start - Date.now());
  const started = performance.now();
  const schedBefore = threadSched(pid);
  const accountBefore = cpuAccount();
  const [probed, referenceProbed, ...tallies] = await running;
  const accountAfter = cpuAccount();
  const seconds = (performance.now() - started) / 1000;
  const cpu = accountAfter.sidecar - accountBefore.sidecar;
  const sched = threadSched(pid);
  const merged = (pick: (t: Tally) => Record<string, unknown[]>, name: string) => tallies.flatMap((t) => pick(t)[name] ?? []);
  const calls = tallies.reduce((n, t) => n + t.calls, 0);
  for (const t of tallies) {
    answeredCells.python += t.answered.python;
    answeredCells.javascript += t.answered.javascript;
  }
  console.log(`\nround ${number}: ${calls} calls in ${seconds.toFixed(1)} s = ${(calls / seconds).toFixed(1)} calls/s`);
  console.log(`  sidecar CPU ${cpu.toFixed(1)} s (${((cpu / seconds) * 100).toFixed(0)}% of one core; ${((cpu * 1000) / calls).toFixed(2)} ms per call)`);
  console.log(
    `  sidecar main thread: on a CPU ${(sched.run - schedBefore.run).toFixed(1)} s, runnable but waiting for a CPU ${(sched.wait - schedBefore.wait).toFixed(1)} s` +
      `${CLIENT_NICE ? ` (client processes at nice ${CLIENT_NICE})` : ""}`,
  );
  console.log(describeCpuAccount(accountBefore, accountAfter));
  for (const kind of kinds) {
    const times = merged((t) => t.latencies, kind.name) as number[];
    const errors = merged((t) => t.errors, kind.name) as string[];
    console.log(
      `  ${kind.name.padEnd(16)} ${String(times.length).padStart(6)} ok  p50 ${ms(percentile(times, 50)).padStart(9)}  p99 ${ms(percentile(times, 99)).padStart(9)}  errors ${errors.length}`,
    );
    for (const message of [...new Set(errors)].slice(0, 3)) console.log(`      ${message}`);
  }
  const list = merged((t) => t.latencies, "tools/list") as number[];
  console.log(`  tools/list p99 ${ms(percentile(list, 99))} vs the ${TARGET_LIST_P99_MS} ms target: ${(percentile(list, 99) / TARGET_LIST_P99_MS).toFixed(2)}× (seen by the loaded sessions)`);
  for (const via of ["sdk", "raw"] as const) {
    const [seen, floor] = [probed[via], referenceProbed[via]];
    const how = via === "sdk" ? "through the SDK client" : "as raw JSON-RPC (the server and the wire alone)";
    console.log(
      `  tools/list probe in its own process, every 100 ms ${how}: ${seen.length} calls, p50 ${ms(percentile(seen, 50))}, p99 ${ms(percentile(seen, 99))}; ` +
        `the reference server (idle, the same list; the floor any server would be seen at): p50 ${ms(percentile(floor, 50))}, p99 ${ms(percentile(floor, 99))}; ` +
        `the sidecar's p99 is ${(percentile(seen, 99) / percentile(floor, 99)).toFixed(2)}× that`,
    );
  }
  const lag = tallies.flatMap((t) => t.clientLagMs);
  console.log(`  client processes' own event-loop lag (included in the sessions' latencies): p50 ${ms(percentile(lag, 50))}, p99 ${ms(percentile(lag, 99))}, max ${ms(Math.max(...lag))}`);
  const unstalled = tallies.flatMap((t) => t.listUnstalledMs);
  console.log(`  tools/list over the ${unstalled.length} of ${list.length} session calls no stall of their client process overlapped: p50 ${ms(percentile(unstalled, 50))}, p99 ${ms(percentile(unstalled, 99))}`);
  console.log(`  sidecar alive: ${alive()}`);
  await Bun.sleep(SETTLE_MS);
  const now = rss();
  afterRounds.push(now.rssMb);
  // Against round 1 is the leak check: the same load again should find the heaps it grew the first time.
  const vsFirst = number > 1 ? `, ${((now.rssMb / afterRounds[0]! - 1) * 100).toFixed(1)}% vs after round 1` : "";
  console.log(`  RSS after round ${number}: ${now.rssMb.toFixed(1)} MB (${((now.rssMb / before.rssMb - 1) * 100).toFixed(1)}% vs before${vsFirst}; peak ${now.peakMb.toFixed(1)} MB)`);
}

const afterRounds: number[] = [];
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
reference.kill();
rmSync(workdir, { recursive: true, force: true });
rmSync(config, { force: true });
rmSync(referenceListFile, { force: true });
if (existsSync(workdir)) console.log(`could not remove ${workdir}`);
