// The main thread comes first: parse workers and the runtime's helper threads run at a lower thread
// priority and every child the sidecar spawns at a lower process priority, so none of them can keep
// a request waiting for a core. Every one is relative to the sidecar's own nice: started under
// `nice`, nothing it starts is raised above it.
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { getPriority } from "node:os";
import { join } from "node:path";
import { spawnSidecar } from "../../build/spawn-sidecar.ts";
import { HELPER_THREAD_STEPS, lowerSessionGroupPriority, niceBelowOwn } from "../../src/platform/priority.ts";
import { procStatFields } from "../../src/platform/proc-stat.ts";
import { CHILD_NICE_STEPS, spawnGroup, stopGroup } from "../../src/process/group.ts";
import { connect as connectSyntax } from "../../src/syntax/connect.ts";
import { testConnectContext } from "../helpers/connect-context.ts";
import { autogroupNice } from "../helpers/autogroup.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");

/** The nice value of one thread of a process. */
function niceOf(pid: number, tid: number): number {
  return Number(procStatFields(pid, tid)?.[16]);
}

function threadsOf(pid: number): { tid: number; name: string }[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => ({ tid: Number(tid), name: readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim() }));
}

// Thread nice values exist on Linux only, and are read from /proc: this runs where CI does.
describe("priorities", () => {
  test("a spawned child, and what it starts afterwards, run CHILD_NICE_STEPS below this process", async () => {
    // The priority is set just after spawn, so a fork in the child's first instant would escape it;
    // servers and kernels start their helpers later than that.
    const ours = getPriority(process.pid);
    const child = spawnGroup("sh", ["-c", "sleep 0.3; sleep 30 & echo $!; wait"], { stdio: ["ignore", "pipe", "ignore"] });
    const grandchild = Number(await new Promise<string>((resolve) => child.stdout!.once("data", (d: Buffer) => resolve(d.toString()))));
    expect(getPriority(child.pid!)).toBe(Math.min(19, ours + CHILD_NICE_STEPS));
    expect(getPriority(grandchild)).toBe(Math.min(19, ours + CHILD_NICE_STEPS));
    expect(getPriority(process.pid)).toBe(ours);
    await stopGroup(child);
  });

  // With autogroup scheduling each session shares the CPU as one unit, whatever its threads' nice
  // values, so a detached child's process nice alone would leave it level with the whole sidecar.
  test("a child leading its own session runs in a scheduling group CHILD_NICE_STEPS below ours; ours is untouched", async () => {
    const child = spawnGroup("sleep", ["30"], { stdio: "ignore" });
    const ours = readFileSync("/proc/self/autogroup", "utf8");
    const oursNice = autogroupNice(process.pid);
    if (existsSync("/proc/sys/kernel/sched_autogroup_enabled")) {
      expect(readFileSync(`/proc/${child.pid}/autogroup`, "utf8").trim()).toEndWith(` nice ${Math.min(19, oursNice + CHILD_NICE_STEPS)}`);
      expect(readFileSync(`/proc/${child.pid}/autogroup`, "utf8").split(" ")[0]).not.toBe(ours.split(" ")[0]);
    } else {
      expect(lowerSessionGroupPriority(child.pid!, CHILD_NICE_STEPS)).toBe(false); // a kernel without autogroup
    }
    // A child left in our session shares our group: lowering that would lower the sidecar itself.
    const attached = spawn("sleep", ["30"], { stdio: "ignore" });
    expect(lowerSessionGroupPriority(attached.pid!, CHILD_NICE_STEPS)).toBe(false);
    expect(readFileSync("/proc/self/autogroup", "utf8")).toBe(ours);
    attached.kill("SIGKILL");
    await stopGroup(child);
  });

  test("a served sidecar's helper threads (JIT, GC, allocator) run below its main thread", async () => {
    await using dir = await tempDir();
    await dir.write({ "run.json": JSON.stringify({ workdir: dir.path, resources: { parser: {} } }), "a.py": "x = 1\n" });
    await using sidecar = await spawnSidecar([process.execPath, MAIN, "serve", "--config", join(dir.path, "run.json")]);
    const client = await sidecar.connect("default");
    for (let k = 0; k < 20; k++) await client.callTool({ name: "ast_grep", arguments: { pattern: "$X = 1", language: "python" } });
    const pid = sidecar.ready.pid;
    const main = niceOf(pid, pid);
    const helpersLevelWithMain = () => threadsOf(pid).filter(({ tid }) => tid !== pid && niceOf(pid, tid) < Math.min(19, main + HELPER_THREAD_STEPS));
    // Threads started after the last check are caught by the next one, within HELPER_CHECK_MS.
    for (let k = 0; k < 80 && helpersLevelWithMain().length > 0; k++) await Bun.sleep(100);
    expect(helpersLevelWithMain()).toEqual([]);
    expect(threadsOf(pid).length).toBeGreaterThan(3);
    expect(main).toBe(getPriority(process.pid));
  }, 30_000);

  test("started under nice, the sidecar raises nothing it starts above itself", async () => {
    await using dir = await tempDir();
    await dir.write({ "run.json": JSON.stringify({ workdir: dir.path, resources: { parser: {}, kernels: {} } }), "a.py": "x = 1\n" });
    const under = Math.max(15, getPriority(process.pid));
    await using sidecar = await spawnSidecar(["nice", "-n", String(under - getPriority(process.pid)), process.execPath, MAIN, "serve", "--config", join(dir.path, "run.json")]);
    const client = await sidecar.connect("default");
    await client.callTool({ name: "ast_grep", arguments: { pattern: "$X = 1", language: "python" } });
    const cell = await client.callTool({ name: "eval", arguments: { code: "import os\nos.nice(0)", description: "read the kernel's nice value" } });
    const pid = sidecar.ready.pid;
    expect(niceOf(pid, pid)).toBe(under);
    // The kernel (a child) and the parse workers (threads) are at or below the sidecar, never above.
    expect(JSON.stringify(cell.content)).toContain(String(Math.min(19, under + CHILD_NICE_STEPS)));
    for (const { tid } of threadsOf(pid)) expect(niceOf(pid, tid)).toBeGreaterThanOrEqual(under);
  }, 60_000);

  test("parse workers run below the main thread", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.py": "x = 1\n" });
    const ctx = testConnectContext(dir.path);
    const syntax = connectSyntax({}, ctx);
    await syntax.search({ pattern: "$X = 1", language: "python" }); // the workers are up once it answers
    const workerNice = niceBelowOwn(10);
    const nices = threadsOf(process.pid).map(({ tid }) => niceOf(process.pid, tid));
    expect(nices.filter((nice) => nice === workerNice).length).toBeGreaterThanOrEqual(1);
    expect(niceOf(process.pid, process.pid)).toBe(getPriority(process.pid));
    await ctx.lifecycle.close();
  });
});
