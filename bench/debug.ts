// Launch-to-first-stop and per-step latency per adapter: the debug tool over MCP vs raw DAP to the adapter.
// Run: bun bench/debug.ts [rounds] [adapter…]   (needs python3-debugpy, delve, golang-go, lldb-16, gcc, nodejs)
//      bun bench/debug.ts 5 node --binary dist/sidecar   (the node adapter run by the compiled binary, as users get it)
//      bun bench/debug.ts first-launch [runs] [delayMs] [otherTree]   (the run's first debugpy launch, fresh processes)
import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "../build/spawn-sidecar.ts";
import { parseConfig, settle } from "../src/config/load.ts";
import { startAdapter } from "../src/dap/adapter-process.ts";
import { adapterById, type AdapterId } from "../src/dap/catalog.ts";
import { DapConnection } from "../src/dap/connection.ts";
import { detectStatic, INITIALIZE_ARGUMENTS } from "../src/dap/detect.ts";
import { TRUST_ALL } from "../src/platform/executables.ts";
import { startRun } from "../src/run/start.ts";
import { bunPrimitives } from "../src/runtime/bun.ts";
import { lowerGroupPriority } from "../src/process/group.ts";
import { optionArg } from "./args.ts";
import { useSidecarCommand } from "../src/dap/node/locate-node.ts";
import { inspectorRound, type InspectorRound } from "./debug-inspector.ts";
import { median } from "./stats.ts";

const ROUNDS = Number(process.argv[2] ?? 3);
/** Adapters to measure (default all): `bun bench/debug.ts 5 lldb` measures lldb alone. */
const BINARY = optionArg("--binary");
const ONLY = process.argv.slice(3).filter((word, index, words) => word !== "--binary" && words[index - 1] !== "--binary");
const STEPS = 8;
/** Bound on any one wait in the raw client; a cold go build is the slow case. */
const RAW_WAIT_MS = 120_000;

interface Fixture {
  adapter: AdapterId;
  files: Record<string, string>;
  build?: string[];
  program: string;
  source: string;
  line: number;
}

const LOOP_PY = "def f(i):\n    return i * 2\n\ntotal = 0\nfor i in range(100):\n    total += f(i)\n    total -= 1\nprint(total)\n";
const LOOP_GO = "package main\n\nimport \"fmt\"\n\nfunc f(i int) int {\n\treturn i * 2\n}\n\nfunc main() {\n\ttotal := 0\n\tfor i := 0; i < 100; i++ {\n\t\ttotal += f(i)\n\t\ttotal -= 1\n\t}\n\tfmt.Println(total)\n}\n";
const LOOP_JS = "function f(i) {\n  return i * 2;\n}\n\nlet total = 0;\nfor (let i = 0; i < 100; i++) {\n  total += f(i);\n  total -= 1;\n}\nconsole.log(total);\n";
const LOOP_C = "#include <stdio.h>\nint f(int i) { return i * 2; }\nint main(void) {\n  int total = 0;\n  for (int i = 0; i < 100; i++) {\n    total += f(i);\n    total -= 1;\n  }\n  printf(\"%d\\n\", total);\n  return 0;\n}\n";

const FIXTURES: Fixture[] = [
  { adapter: "debugpy", files: { "pyproject.toml": "", "loop.py": LOOP_PY }, program: "loop.py", source: "loop.py", line: 6 },
  { adapter: "delve", files: { "go.mod": "module bench\n\ngo 1.19\n", "main.go": LOOP_GO }, program: ".", source: "main.go", line: 12 },
  {
    adapter: "lldb",
    files: { "CMakeLists.txt": "", "loop.c": LOOP_C },
    build: ["gcc", "-g", "-O0", "-o", "loop", "loop.c"],
    program: "loop",
    source: "loop.c",
    line: 6,
  },
  { adapter: "node", files: { "package.json": "{}\n", "loop.js": LOOP_JS }, program: "loop.js", source: "loop.js", line: 7 },
];

/**
 * When, in this process, a round's first `initialize` went out and its first `stopped` event came
 * in, for the raw client and the tool alike (both speak through DapConnection). The time before the
 * first is starting the adapter; after the second, building the answer. Between them is the
 * adapter's own work, where this machine's load puts seconds of noise: the two ends say where the
 * tool's added time goes even when the totals cannot.
 */
const marks: { initialize?: number; stopped?: number } = {};
const dapProto = DapConnection.prototype as unknown as { request: (...args: unknown[]) => unknown; emit: (event: DebugProtocol.Event) => void };
const sendRequest = dapProto.request;
dapProto.request = function (this: unknown, ...args: unknown[]) {
  if (args[0] === "initialize") marks.initialize ??= performance.now();
  return sendRequest.apply(this, args);
};
const emitEvent = dapProto.emit;
dapProto.emit = function (this: unknown, event: DebugProtocol.Event) {
  if (event.event === "stopped") marks.stopped ??= performance.now();
  return emitEvent.call(this, event);
};

interface Round {
  launch: number;
  step: number;
  /** From the round's start to its first initialize request. */
  toAdapter: number;
  /** From the first stopped event to the stop being known (raw: its stackTrace; tool: the answer). */
  afterStop: number;
}

function phases(began: number, ended: number): Pick<Round, "toAdapter" | "afterStop"> {
  return { toAdapter: (marks.initialize ?? NaN) - began, afterStop: ended - (marks.stopped ?? NaN) };
}


function waitEvent(connection: DapConnection, name: string): Promise<DebugProtocol.Event> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${name} event within ${RAW_WAIT_MS} ms`)), RAW_WAIT_MS);
    const off = connection.onEvent((event) => {
      if (event.event !== name) return;
      clearTimeout(timer);
      off();
      resolve(event);
    });
  });
}

/** The same request sequence the tool sends, written straight against the adapter. */
async function rawRound(fixture: Fixture, dir: string): Promise<Round> {
  const entry = adapterById(fixture.adapter);
  const found = detectStatic(entry, dir, dir, {}, TRUST_ALL);
  if (!found.usable) throw new Error(`${fixture.adapter}: ${found.detail}`);
  delete marks.initialize;
  delete marks.stopped;
  const began = performance.now();
  const output: string[] = [];
  const adapter = await startAdapter({
    command: found.command!,
    transport: entry.transport,
    cwd: dir,
    trust: TRUST_ALL,
    onProcessOutput: (text) => output.push(text),
    ...(entry.stdinVia === "adapter" ? { stdinFile: "/dev/null" } : {}),
    // As the tool starts it: at our priority until the first stop (node), else lowered at spawn.
    ...(entry.lowerPriorityAfterStart ? { lowerPriority: "when started" as const } : {}),
  });
  const dap = adapter.connection;
  try {
    await dap.request("initialize", { ...INITIALIZE_ARGUMENTS, adapterID: entry.id });
    const initialized = waitEvent(dap, "initialized");
    const stopped = waitEvent(dap, "stopped");
    const program = join(dir, fixture.program);
    const launched = dap.request("launch", entry.launchArguments({ program, args: [], cwd: dir, stdin: "/dev/null", env: {}, ...(found.python ? { python: found.python } : {}) }), RAW_WAIT_MS);
    await initialized;
    await dap.request("setBreakpoints", { source: { path: join(dir, fixture.source) }, breakpoints: [{ line: fixture.line }] });
    await dap.request("configurationDone");
    await launched;
    const threadId = ((await stopped) as DebugProtocol.StoppedEvent).body.threadId!;
    await dap.request("stackTrace", { threadId, startFrame: 0, levels: 1 });
    const launch = performance.now() - began;
    if (entry.lowerPriorityAfterStart) lowerGroupPriority(adapter.child!);
    const ends = phases(began, began + launch);
    const steps: number[] = [];
    for (let i = 0; i < STEPS; i++) {
      const t0 = performance.now();
      const next = waitEvent(dap, "stopped");
      await dap.request("next", { threadId });
      await next;
      await dap.request("stackTrace", { threadId, startFrame: 0, levels: 1 });
      steps.push(performance.now() - t0);
    }
    return { launch, step: median(steps), ...ends };
  } finally {
    await dap.request("disconnect", { terminateDebuggee: true }, 3_000).catch(() => {});
    await adapter.stop();
  }
}

/** The debug tool through a real run and the official MCP client. */
async function toolRound(client: Client, fixture: Fixture): Promise<Round> {
  const call = async (args: Record<string, unknown>) => {
    const result = await client.callTool({ name: "debug", arguments: args }, undefined, { timeout: RAW_WAIT_MS });
    if (result.isError) throw new Error(JSON.stringify(result.content));
    return result.structuredContent as Record<string, unknown>;
  };
  await call({ operation: "breakpoints", file: fixture.source, lines: [fixture.line] });
  delete marks.initialize;
  delete marks.stopped;
  const began = performance.now();
  const report = await call({ operation: "launch", program: fixture.program });
  if (report.state !== "stopped") throw new Error(`launch did not stop: ${JSON.stringify(report)}`);
  const launch = performance.now() - began;
  const ends = phases(began, began + launch);
  await call({ operation: "breakpoints", file: fixture.source, lines: [] });
  const steps: number[] = [];
  for (let i = 0; i < STEPS; i++) {
    const t0 = performance.now();
    await call({ operation: "step_over" });
    steps.push(performance.now() - t0);
  }
  await call({ operation: "terminate" });
  return { launch, step: median(steps), ...ends };
}

/** The node the adapter runs programs with (its command's --node). */
function nodeOf(dir: string): string {
  const command = detectStatic(adapterById("node"), dir, dir, {}, TRUST_ALL).command ?? [];
  const node = command[command.indexOf("--node") + 1];
  if (!command.includes("--node") || !node) throw new Error(`node: the adapter was not found (${command.join(" ")})`);
  return node;
}

async function benchAdapter(fixture: Fixture): Promise<void> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `bench-debug-${fixture.adapter}-`)));
  try {
    for (const [name, content] of Object.entries(fixture.files)) writeFileSync(join(dir, name), content);
    if (fixture.build) {
      const built = spawnSync(fixture.build[0]!, fixture.build.slice(1), { cwd: dir, encoding: "utf8" });
      if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
    }
    const run = await startRun(settle(parseConfig({ workdir: dir, conversation: "bench", resources: { debugAdapters: {} } })), bunPrimitives);
    // The run set the adapter's command to this sidecar from source; a compiled binary starts faster.
    if (BINARY) useSidecarCommand([realpathSync(BINARY)]);
    const client = await connectClient(run.url, run.surfaces.default!, "bench");
    try {
      await rawRound(fixture, dir); // warm-up: the go build cache, python bytecode, page cache
      // The tool's first launch in a run: shown on its own, not mixed into the medians of warm launches.
      // debugpy's python probe is done by now (the warm-up above asked it too): `first-launch` measures
      // a run's real first launch, in fresh processes.
      const first = await toolRound(client, fixture);
      const raw: Round[] = [];
      const tool: Round[] = [];
      // node: the V8 inspector driven directly is the reference too (no adapter in between at all).
      const inspector: InspectorRound[] = [];
      const node = fixture.adapter === "node" ? nodeOf(dir) : undefined;
      for (let round = 0; round < ROUNDS; round++) {
        if (node) inspector.push(await inspectorRound(node, dir, fixture.program, fixture.line, STEPS));
        raw.push(await rawRound(fixture, dir));
        tool.push(await toolRound(client, fixture));
      }
      const of = (rounds: Round[], key: keyof Round) => median(rounds.map((r) => r[key]));
      const row = (what: string, rawMs: number, toolMs: number) =>
        `  ${what.padEnd(22)} raw ${rawMs.toFixed(1).padStart(8)} ms   tool ${toolMs.toFixed(1).padStart(8)} ms   added ${(toolMs - rawMs).toFixed(1).padStart(7)} ms   ratio ${(toolMs / rawMs).toFixed(2)}`;
      console.log(`${fixture.adapter} (median of ${ROUNDS} rounds, ${STEPS} steps each)`);
      console.log(row("launch to first stop", of(raw, "launch"), of(tool, "launch")));
      console.log(row("  start → initialize", of(raw, "toAdapter"), of(tool, "toAdapter")));
      console.log(row("  stop event → known", of(raw, "afterStop"), of(tool, "afterStop")));
      console.log(row("step_over", of(raw, "step"), of(tool, "step")));
      console.log(`  the tool's first launch of the run: ${first.launch.toFixed(1)} ms (${first.toAdapter.toFixed(1)} ms of it before initialize)`);
      if (inspector.length) {
        const direct = (key: keyof InspectorRound) => median(inspector.map((r) => r[key]));
        console.log("  against the V8 inspector driven directly (raw = the inspector, tool = the debug tool):");
        console.log(row("launch to first stop", direct("launch"), of(tool, "launch")));
        console.log(row("step_over", direct("step"), of(tool, "step")));
      }
    } finally {
      await client.close();
      await run.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One fresh process's first debugpy launch, `delayMs` after its run started (a model's first call
 * comes some time after the run's start): prints {launch, toAdapter} as JSON. A process of its own,
 * because every probe answer is kept for the process.
 */
async function oneFirstLaunch(delayMs: number): Promise<void> {
  const fixture = FIXTURES.find((f) => f.adapter === "debugpy")!;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "bench-debug-first-")));
  try {
    for (const [name, content] of Object.entries(fixture.files)) writeFileSync(join(dir, name), content);
    const run = await startRun(settle(parseConfig({ workdir: dir, conversation: "bench", resources: { debugAdapters: {} } })), bunPrimitives);
    const client = await connectClient(run.url, run.surfaces.default!, "bench");
    try {
      await Bun.sleep(delayMs);
      const first = await toolRound(client, fixture);
      console.log(JSON.stringify({ launch: first.launch, toAdapter: first.toAdapter }));
    } finally {
      await client.close();
      await run.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `bun bench/debug.ts first-launch [runs] [delayMs] [otherTree]`: the first debugpy launch of a run,
 * in `runs` fresh processes, medians; with `otherTree` (a checkout of another commit, with its
 * node_modules), the same alternately from there, for a before/after in one run.
 */
function firstLaunches(runs: number, delayMs: number, otherTree: string | undefined): void {
  const trees = [...(otherTree ? [otherTree] : []), join(import.meta.dir, "..")];
  const seen = new Map<string, { launch: number; toAdapter: number }[]>(trees.map((tree) => [tree, []]));
  for (let run = 0; run < runs; run++) {
    for (const tree of trees) {
      const child = spawnSync(process.execPath, [join(tree, "bench/debug.ts"), "--one-first-launch", String(delayMs)], { cwd: tree, encoding: "utf8" });
      const line = child.stdout.trim().split("\n").pop() ?? "";
      if (child.status !== 0 || !line.startsWith("{")) throw new Error(`${tree}: ${child.stderr.slice(-2000)}`);
      seen.get(tree)!.push(JSON.parse(line));
    }
  }
  console.log(`debugpy: the first launch of a run, ${delayMs} ms after the run started (median of ${runs} fresh processes each)`);
  for (const tree of trees) {
    const rounds = seen.get(tree)!;
    const launch = median(rounds.map((r) => r.launch));
    const toAdapter = median(rounds.map((r) => r.toAdapter));
    console.log(`  ${tree.padEnd(28)} launch to first stop ${launch.toFixed(1).padStart(8)} ms   of it before initialize ${toAdapter.toFixed(1).padStart(8)} ms   (launches: ${rounds.map((r) => r.launch.toFixed(0)).join(", ")})`);
  }
}

if (process.argv[2] === "--one-first-launch") await oneFirstLaunch(Number(process.argv[3] ?? 0));
else if (process.argv[2] === "first-launch") firstLaunches(Number(process.argv[3] ?? 5), Number(process.argv[4] ?? 2_000), process.argv[5]);
else for (const fixture of FIXTURES) if (!ONLY.length || ONLY.includes(fixture.adapter)) await benchAdapter(fixture);
