// Drives the debug tool through a real run and the official MCP SDK client, for the adapter tests.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RunConfig } from "../../src/config/schema.ts";
import { procStatFields } from "../../src/platform/proc-stat.ts";
import { call as callTool } from "../helpers/call.ts";
import { isReaped } from "../helpers/processes.ts";
import { until } from "../helpers/until.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/** Per-test bound for tests that start real adapters: a cold `go build` on a loaded CI machine is slow. */
export const ADAPTER_TEST_TIMEOUT_MS = 240_000;

export interface DebugReply {
  text: string;
  data: Record<string, any>;
  isError: boolean;
}

export interface DebugHarness extends AsyncDisposable {
  t: TestRun;
  call(args: Record<string, unknown>, signal?: AbortSignal): Promise<DebugReply>;
  /** Calls and fails the test with the tool's own words when it answered isError. */
  ok(args: Record<string, unknown>): Promise<DebugReply>;
}

export async function debugHarness(workdir: string, settings: Record<string, unknown> = {}, run: RunConfig = {}): Promise<DebugHarness> {
  // The parser resource too, as the embedded defaults have it: breakpoint lines are checked with tree-sitter.
  const t = await startTestRun(workdir, { ...run, conversation: "c1", resources: { parser: {}, debugAdapters: settings } });
  const client: Client = await t.client();
  const call = async (args: Record<string, unknown>, signal?: AbortSignal): Promise<DebugReply> => {
    const { text, data, isError } = await callTool(client, "debug", args, signal ? { signal } : {});
    return { text, data, isError };
  };
  return {
    t,
    call,
    async ok(args) {
      const reply = await call(args);
      if (reply.isError) throw new Error(`debug ${JSON.stringify(args)} failed: ${reply.text}`);
      return reply;
    },
    [Symbol.asyncDispose]: () => t[Symbol.asyncDispose](),
  };
}

/** A Python program that loops for minutes, one iteration every 50 ms (line 3 runs each time). */
export const PYTHON_LOOP = "import time\nfor i in range(100000):\n    x = i\n    time.sleep(0.05)\n";

export interface StoppedLoop extends DebugHarness {
  /** The launch's answer: stopped at the breakpoint on line 3. */
  launched: DebugReply;
}

/**
 * PYTHON_LOOP in a temporary workspace, launched under debugpy and stopped at a breakpoint on line
 * 3; disposing it closes the run, then removes the workspace.
 */
export async function stoppedPythonLoop(settings: Record<string, unknown> = {}): Promise<StoppedLoop> {
  requireTool("/usr/bin/python3", "apt install python3-debugpy");
  const dir = await tempDir();
  await dir.write({ "pyproject.toml": "", "loop.py": PYTHON_LOOP });
  const h = await debugHarness(dir.path, settings);
  await h.ok({ operation: "breakpoints", file: "loop.py", lines: [3] });
  const launched = await h.ok({ operation: "launch", program: "loop.py" });
  return {
    ...h,
    launched,
    async [Symbol.asyncDispose]() {
      await h[Symbol.asyncDispose]();
      await dir[Symbol.asyncDispose]();
    },
  };
}

/** Fails with the install command when a component the test drives is missing. */
export function requireTool(path: string, install: string): void {
  if (!existsSync(path)) throw new Error(`${path} is missing; install it with: ${install}`);
}

/** Fails with the install command when /usr/bin/python3 or its debugpy is missing. */
export function requireDebugpy(): void {
  requireTool("/usr/bin/python3", "apt install python3-debugpy");
  const probe = spawnSync("/usr/bin/python3", ["-c", "import debugpy"]);
  if (probe.status !== 0) throw new Error("debugpy is missing for /usr/bin/python3; install it with: apt install python3-debugpy");
}

/** Whether a pid is still alive: the one answer of test/helpers/processes.ts (a zombie is dead). */
export { isAlive as alive } from "../helpers/processes.ts";

/** How many status polls a test makes while waiting for program output (200 ms apart). */
const OUTPUT_POLLS = 300;

/** Polls `status` until the program's output so far contains `needle`. */
export async function untilOutput(h: DebugHarness, seen: string, needle: string): Promise<void> {
  let output = seen;
  for (let poll = 0; poll < OUTPUT_POLLS && !output.includes(needle); poll++) {
    await Bun.sleep(200);
    output += (await h.ok({ operation: "status" })).data.output ?? "";
  }
  if (!output.includes(needle)) throw new Error(`the program never printed ${JSON.stringify(needle)}; output: ${output}`);
}

/**
 * Kills a debuggee server started with `detached: true` and everything in its session: its group,
 * and the programs it started in groups of their own (`dlv debug` runs its build in a new process
 * group, so killing dlv's group left that program running with init as its parent).
 */
export function killSession(pid: number | undefined): void {
  if (pid === undefined) return;
  const members = readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number).filter((member) => procStatFields(member)?.[3] === String(pid));
  for (const member of [pid, ...members]) {
    try {
      process.kill(member, "SIGKILL");
    } catch {
      // it exited when the debugger let go of it
    }
  }
}

/** How long a test waits for a process to disappear. */
const EXIT_WAIT_MS = 20_000;

/**
 * Waits (bounded) until the pid is reaped; false if it outlived the wait. Reaped, not merely dead:
 * the tests next ask the sidecar about the death, and an adapter that is a zombie has not yet been
 * seen to exit (the call then failed on the closed connection instead of naming the death).
 */
export async function gone(pid: number): Promise<boolean> {
  return until(`pid ${pid} to be reaped`, () => isReaped(pid), { limitMs: EXIT_WAIT_MS }).then(
    () => true,
    () => false,
  );
}

/** How many 200 ms polls a test waits for a debuggee server to open its port. */
const LISTEN_POLLS = 600;

/**
 * Waits until something listens on 127.0.0.1:port, read from /proc/net/tcp — a probe connection
 * would be taken by single-client servers (lldb-server gdbserver) as their one debugger.
 */
export async function untilListening(port: number): Promise<void> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (let poll = 0; poll < LISTEN_POLLS; poll++) {
    const table = await Bun.file("/proc/net/tcp").text();
    if (table.split("\n").some((row) => row.trim().split(/\s+/)[1]?.endsWith(`:${hexPort}`) && row.trim().split(/\s+/)[3] === "0A")) return;
    await Bun.sleep(200);
  }
  throw new Error(`nothing listened on port ${port} within ${(LISTEN_POLLS * 200) / 1000} s`);
}

/** The count the program writes to count.txt, or -1 while it has written none. */
export function count(dir: string): number {
  try {
    return Number(readFileSync(join(dir, "count.txt"), "utf8")) || -1;
  } catch {
    return -1;
  }
}

/** Waits (bounded) until the program's count passes `above`: it is running, not just alive. */
export async function untilCountPasses(dir: string, above: number): Promise<number> {
  for (let poll = 0; poll < 150; poll++) {
    const now = count(dir);
    if (now > above) return now;
    await Bun.sleep(100);
  }
  throw new Error(`the program's count stayed at ${count(dir)} for 15 s: it is not running`);
}
