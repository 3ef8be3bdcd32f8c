// debug with child_processes over real debugpy (Debian 12's 1.6, which announces a child with its debugpyAttach event).
import { describe, expect, test } from "bun:test";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, debugHarness, gone, requireDebugpy, type DebugHarness } from "./harness.ts";

/** The child: its breakpoint line (4) runs only in the child process. */
const CHILD = `import os

def work(n):
    total = n * 2
    return total

print("child", os.getpid(), work(21))
`;

/** Starts the child with subprocess and waits for it. */
const PARENT = `import subprocess, sys
print("parent starts", flush=True)
subprocess.run([sys.executable, "child.py"], check=True)
print("parent done")
`;

/** A multiprocessing worker that loops until it is killed (line 6 runs in the worker only). */
const POOL = `import multiprocessing, time

def spin(label):
    n = 0
    while True:
        n += 1
        time.sleep(0.05)

if __name__ == "__main__":
    worker = multiprocessing.Process(target=spin, args=("w",))
    worker.start()
    worker.join()
`;

/** Runs a child that exits with code 3, then one that kills itself with SIGTERM, and prints what each returned. */
const EXIT_PARENT = `import subprocess, sys
for name in ("fails", "killed"):
    print(name, "returned", subprocess.run([sys.executable, name + ".py"]).returncode, flush=True)
`;
const EXITS_WITH_3 = `import os, sys
print("fails pid", os.getpid(), flush=True)
sys.exit(3)
`;
const KILLED_BY_SIGTERM = `import os, signal
print("killed pid", os.getpid(), flush=True)
os.kill(os.getpid(), signal.SIGTERM)
`;

/** POOL's main block with two workers instead of one. */
const TWO_WORKERS = 'workers = [multiprocessing.Process(target=spin, args=(str(i),)) for i in range(2)]\n    for worker in workers:\n        worker.start()\n    for worker in workers:\n        worker.join()';

/**
 * Launches two multiprocessing workers with a breakpoint both hit; returns once both are stopped:
 * the first reported by the launch, the other's stop kept while no call waited for it.
 */
async function twoWorkersStopped(dir: TempDir, h: DebugHarness): Promise<{ first: number; other: number }> {
  await dir.write({ "pyproject.toml": "", "pool.py": POOL.replace('worker = multiprocessing.Process(target=spin, args=("w",))\n    worker.start()\n    worker.join()', TWO_WORKERS) });
  await h.ok({ operation: "breakpoints", file: "pool.py", lines: [6] });
  const launched = await h.ok({ operation: "launch", program: "pool.py", child_processes: true });
  const first: number = launched.data.process.pid;
  for (let poll = 0; poll < 150; poll++) {
    const processes: { pid: number; role: string; state: string }[] = (await h.ok({ operation: "status" })).data.processes;
    const other = processes.find((p) => p.role === "child" && p.pid !== first && p.state === "stopped")?.pid;
    if (other !== undefined) return { first, other };
    await Bun.sleep(200);
  }
  throw new Error("the second worker never stopped at its breakpoint");
}

describe("debug child processes (debugpy)", () => {
  test("a breakpoint in a subprocess's code stops there, named by the child's pid; calls act on the child; the run ends cleanly", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "parent.py": PARENT, "child.py": CHILD });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    await h.ok({ operation: "breakpoints", file: "child.py", lines: [4] });

    const launched = await h.ok({ operation: "launch", program: "parent.py", child_processes: true });
    expect(launched.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { file: "child.py", line: 4 } });
    expect(launched.data.process.role).toBe("child");
    const childPid: number = launched.data.process.pid;
    expect(launched.text).toContain(`in the child process ${childPid}`);
    expect(launched.data.output).toContain("parent starts");

    // The status lists both processes; the child is the one calls act on.
    const status = await h.ok({ operation: "status" });
    const processes: { pid: number; role: string; state: string; focus: boolean }[] = status.data.processes;
    expect(processes.map((p) => [p.role, p.state, p.focus])).toEqual([
      ["main", "running", false],
      ["child", "stopped", true],
    ]);
    expect(processes[1]!.pid).toBe(childPid);
    expect(processes[0]!.pid).not.toBe(childPid);
    expect(status.text).toContain(`*child ${childPid} stopped at child.py:4`);

    // evaluate reads the child's frame: n exists only there.
    expect((await h.ok({ operation: "evaluate", expression: "n" })).data.result).toBe("21");

    // Continuing the child lets it finish normally (its parent's check=True passes), then the parent.
    const ended = await h.ok({ operation: "continue" });
    expect(ended.data.state).toBe("exited");
    expect(ended.data.exit_code).toBe(0);
    expect(ended.data.output).toContain(`child ${childPid} 42`);
    expect(ended.data.output).toContain("parent done");
    expect(ended.data.process_events).toContain(`child process ${childPid} exited with code 0`);
    // The debugger's own warnings in the child (frozen modules, Debian's unvendored pydevd) are not the program's output.
    expect(ended.data.output + launched.data.output).not.toContain("pydevd");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a multiprocessing worker stops at its breakpoint, steps there, and terminate ends it with the main process", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "pool.py": POOL });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    await h.ok({ operation: "breakpoints", file: "pool.py", lines: [6] });

    const launched = await h.ok({ operation: "launch", program: "pool.py", child_processes: true });
    expect(launched.data).toMatchObject({ state: "stopped", frame: { file: "pool.py", line: 6, name: "spin" }, process: { role: "child" } });
    const workerPid: number = launched.data.process.pid;
    const mainPid: number = (await h.ok({ operation: "status" })).data.processes[0].pid;
    expect(mainPid).not.toBe(workerPid);

    const stepped = await h.ok({ operation: "step_over" });
    expect(stepped.data).toMatchObject({ state: "stopped", reason: "step", frame: { line: 7 }, process: { pid: workerPid, role: "child" } });

    // A breakpoint set now reaches the worker too: moving it to line 7 stops there next.
    await h.ok({ operation: "breakpoints", file: "pool.py", lines: [7] });
    const again = await h.ok({ operation: "continue" });
    expect(again.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { line: 7 }, process: { pid: workerPid } });

    const terminated = await h.ok({ operation: "terminate" });
    expect(terminated.text).toContain(`child process ${workerPid}`);
    expect(await gone(workerPid)).toBe(true);
    expect(await gone(mainPid)).toBe(true);
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("two workers stopped at once: the stop no call waited for answers the next continue, with its own pid", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    const { other } = await twoWorkersStopped(dir, h);
    const kept = await h.ok({ operation: "continue" });
    expect(kept.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { line: 6 }, process: { role: "child", pid: other } });
    expect(kept.text).toContain(`in the child process ${other}`);
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("pid names the stopped process a call acts on: evaluate and continue reach the other worker, ids of the one left are stale", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    const { other } = await twoWorkersStopped(dir, h);

    // Each worker's label is its own: "0" in one, "1" in the other.
    const firstLabel = (await h.ok({ operation: "evaluate", expression: "label" })).data.result;
    const frameOfFirst: number = (await h.ok({ operation: "stack" })).data.frames[0].id;
    const otherLabel = (await h.ok({ operation: "evaluate", expression: "label", pid: other })).data.result;
    expect([firstLabel, otherLabel].sort()).toEqual(["'0'", "'1'"]);
    // The focus stays on the process named: the next call without pid acts on it too.
    expect((await h.ok({ operation: "evaluate", expression: "label" })).data.result).toBe(otherLabel);
    const status = await h.ok({ operation: "status" });
    expect(status.text).toContain(`*child ${other} stopped`);
    expect(status.data).toMatchObject({ state: "stopped", frame: { line: 6 }, process: { pid: other } });
    const stale = await h.call({ operation: "scopes", frame_id: frameOfFirst });
    expect(stale.isError).toBe(true);
    expect(stale.text).toContain("stale");

    // continue with pid resumes that worker; it loops back to its breakpoint and is reported by its pid.
    const again = await h.ok({ operation: "continue", pid: other });
    expect(again.data).toMatchObject({ state: "stopped", frame: { line: 6 }, process: { role: "child", pid: other } });

    const unknown = await h.call({ operation: "stack", pid: 1 });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain("No process of this debug session has pid 1");
    expect(unknown.text).toContain(String(other));
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a child's exit is told with its exit code, and a child killed by a signal as that signal", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "parent.py": EXIT_PARENT, "fails.py": EXITS_WITH_3, "killed.py": KILLED_BY_SIGTERM });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    // debugpy stops on a SystemExit with a non-zero code (the uncaught filter); continuing lets it exit.
    const launched = await h.ok({ operation: "launch", program: "parent.py", child_processes: true });
    expect(launched.data).toMatchObject({ state: "stopped", reason: "exception", frame: { file: "fails.py" }, process: { role: "child" } });
    const ended = await h.ok({ operation: "continue" });
    expect(ended.data.state).toBe("exited");
    expect(ended.data.exit_code).toBe(0);
    // Each child prints its pid; its parent prints what subprocess.run returned (the truth to match).
    const output = launched.data.output + ended.data.output;
    expect(output).toContain("fails returned 3");
    expect(output).toContain("killed returned -15");
    const failsPid = Number(/fails pid (\d+)/.exec(output)?.[1]);
    const killedPid = Number(/killed pid (\d+)/.exec(output)?.[1]);
    expect(ended.data.process_events).toContain(`child process ${failsPid} exited with code 3`);
    expect(ended.data.process_events).toContain(`child process ${killedPid} was killed by SIGTERM (signal 15)`);
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("without child_processes the child runs undebugged, and the answer says so", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "parent.py": PARENT, "child.py": CHILD });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    await h.ok({ operation: "breakpoints", file: "child.py", lines: [4] });
    const launched = await h.ok({ operation: "launch", program: "parent.py" });
    expect(launched.data.state).toBe("exited");
    expect(launched.data.output).toContain("parent done");
    expect(launched.text).toContain("Child processes are not debugged");
    expect(launched.text).toContain("child_processes: true");
    expect(launched.data.process).toBeUndefined();
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("child_processes with an adapter other than debugpy is refused with a sentence", async () => {
    await using dir = await tempDir();
    await dir.write({ "go.mod": "module x\n\ngo 1.19\n", "main.go": "package main\n\nfunc main() {}\n" });
    await using h = await debugHarness(dir.path);
    const refused = await h.call({ operation: "launch", program: "main.go", child_processes: true });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("child_processes works with debugpy (Python programs) only");
  }, ADAPTER_TEST_TIMEOUT_MS);
});
