// A kernel starts at the sidecar's own priority (the eval call is waiting for it) and is lowered,
// every thread and its scheduling group, before its first cell runs (cells may compute for minutes).
// Linux: nice values and autogroups are read from /proc, where CI runs.
import { expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { getPriority } from "node:os";
import { join } from "node:path";
import { KernelProcess } from "../../src/kernel/kernel-process.ts";
import { launchPlan, pythonProgram, type LaunchPlan } from "../../src/kernel/launch.ts";
import { programTrust } from "../../src/platform/executables.ts";
import { procStatFields } from "../../src/platform/proc-stat.ts";
import { CHILD_NICE_STEPS } from "../../src/process/group.ts";
import { autogroupNice } from "../helpers/autogroup.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { KERNEL_TEST_TIMEOUT_MS, requireSystemPython, SYSTEM_PYTHON } from "./helpers.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");
const lowered = Math.min(19, getPriority(process.pid) + CHILD_NICE_STEPS);

/** The plan, or the test fails with why there is none. */
function planned(plan: LaunchPlan | string): LaunchPlan {
  if (typeof plan === "string") throw new Error(plan);
  return plan;
}

function threadNices(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => Number(procStatFields(pid, Number(tid))?.[16]));
}

async function lastValue(kernel: KernelProcess, code: string): Promise<string> {
  const outcome = await kernel.run(code, { inactivityMs: 60_000, signal: new AbortController().signal, callTool: async () => ({ ok: true, result: null }) });
  expect(outcome.ending).toEqual({ kind: "finished", status: "ok" });
  return JSON.stringify(outcome.output);
}

test("the python kernel starts at the sidecar's priority and runs its cells CHILD_NICE_STEPS below it, behind a wrapper too", async () => {
  requireSystemPython();
  await using dir = await tempDir();
  const plan = planned(launchPlan("python", { python: SYSTEM_PYTHON }, programTrust("none", dir.path), []));
  // The driver's first line notes the priority it started at, where a cell can read it.
  const program = `import os; os.environ["START_NICE"] = str(os.nice(0))\n${pythonProgram()}`;
  // A wrapper that forks the interpreter rather than exec it, as a pyenv shim does.
  const wrapped: LaunchPlan = { ...plan, argv: ["sh", "-c", '"$0" "$@"; exit $?', SYSTEM_PYTHON, "-c", program] };
  const kernel = new KernelProcess(wrapped, dir.path);
  try {
    await kernel.started();
    const seen = await lastValue(kernel, 'import os\n(os.environ["START_NICE"], os.nice(0), os.getpid())');
    const [, worker] = /, (\d+)\)/.exec(seen)!;
    expect(Number(worker)).not.toBe(kernel.pid);
    expect(seen).toContain(`('${getPriority(process.pid)}', ${lowered}, ${worker})`);
    for (const pid of [kernel.pid!, Number(worker)]) expect(threadNices(pid).every((nice) => nice === lowered)).toBe(true);
    if (existsSync("/proc/sys/kernel/sched_autogroup_enabled")) expect(autogroupNice(kernel.pid!)).toBe(Math.min(19, autogroupNice(process.pid) + CHILD_NICE_STEPS));
  } finally {
    await kernel.stop();
  }
}, KERNEL_TEST_TIMEOUT_MS);

test("the javascript kernel's threads, the runtime's helpers included, run CHILD_NICE_STEPS below the sidecar once it is ready", async () => {
  await using dir = await tempDir();
  const kernel = new KernelProcess(planned(launchPlan("javascript", {}, programTrust("none", dir.path), [process.execPath, MAIN])), dir.path);
  try {
    await kernel.started();
    const pid = kernel.pid!;
    expect(threadNices(pid).length).toBeGreaterThan(1);
    expect(threadNices(pid).every((nice) => nice === lowered)).toBe(true);
    expect(await lastValue(kernel, "require('node:os').getPriority()")).toContain(String(lowered));
  } finally {
    await kernel.stop();
  }
}, KERNEL_TEST_TIMEOUT_MS);
