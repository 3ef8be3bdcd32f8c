// The main thread comes first: parse workers and the runtime's helper threads run at a lower thread
// priority and every child the sidecar spawns at a lower process priority, so none of them can keep
// a request waiting for a core.
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { getPriority } from "node:os";
import { join } from "node:path";
import { spawnSidecar } from "../../build/spawn-sidecar.ts";
import { HELPER_THREAD_NICE, lowerSessionGroupPriority } from "../../src/platform/priority.ts";
import { procStatFields } from "../../src/platform/proc-stat.ts";
import { CHILD_NICE, spawnGroup, stopGroup } from "../../src/process/group.ts";
import { connect as connectSyntax } from "../../src/syntax/connect.ts";
import { testConnectContext } from "../helpers/connect-context.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");

/** The nice value of one thread of a process. */
function niceOf(pid: number, tid: number): number {
  return Number(procStatFields(pid, tid)?.[16]);
}

// Thread nice values exist on Linux only, and are read from /proc: this runs where CI does.
describe("priorities", () => {
  test("a spawned child, and what it starts afterwards, run at CHILD_NICE", async () => {
    // The priority is set just after spawn, so a fork in the child's first instant would escape it;
    // servers and kernels start their helpers later than that.
    const child = spawnGroup("sh", ["-c", "sleep 0.3; sleep 30 & echo $!; wait"], { stdio: ["ignore", "pipe", "ignore"] });
    const grandchild = Number(await new Promise<string>((resolve) => child.stdout!.once("data", (d: Buffer) => resolve(d.toString()))));
    expect(getPriority(child.pid!)).toBe(CHILD_NICE);
    expect(getPriority(grandchild)).toBe(CHILD_NICE);
    expect(getPriority(process.pid)).toBe(0);
    await stopGroup(child);
  });

  // With autogroup scheduling each session shares the CPU as one unit, whatever its threads' nice
  // values, so a detached child's process nice alone would leave it level with the whole sidecar.
  test("a child leading its own session runs in a scheduling group at CHILD_NICE; ours is untouched", async () => {
    const child = spawnGroup("sleep", ["30"], { stdio: "ignore" });
    const ours = readFileSync("/proc/self/autogroup", "utf8");
    if (existsSync("/proc/sys/kernel/sched_autogroup_enabled")) {
      expect(readFileSync(`/proc/${child.pid}/autogroup`, "utf8").trim()).toEndWith(` nice ${CHILD_NICE}`);
      expect(readFileSync(`/proc/${child.pid}/autogroup`, "utf8").split(" ")[0]).not.toBe(ours.split(" ")[0]);
    } else {
      expect(lowerSessionGroupPriority(child.pid!, CHILD_NICE)).toBe(false); // a kernel without autogroup
    }
    // A child left in our session shares our group: lowering that would lower the sidecar itself.
    const attached = spawn("sleep", ["30"], { stdio: "ignore" });
    expect(lowerSessionGroupPriority(attached.pid!, CHILD_NICE)).toBe(false);
    expect(readFileSync("/proc/self/autogroup", "utf8")).toBe(ours);
    attached.kill("SIGKILL");
    await stopGroup(child);
  });

  test("a served sidecar's helper threads (JIT, GC, allocator) run below its main thread; the threads serving requests beside it do not", async () => {
    await using dir = await tempDir();
    await dir.write({ "run.json": JSON.stringify({ workdir: dir.path, resources: { parser: {} } }), "a.py": "x = 1\n" });
    await using sidecar = await spawnSidecar([process.execPath, MAIN, "serve", "--config", join(dir.path, "run.json")]);
    const client = await sidecar.connect("default");
    for (let k = 0; k < 20; k++) await client.callTool({ name: "ast_grep", arguments: { pattern: "$X = 1", language: "python" } });
    const pid = sidecar.ready.pid;
    const threads = () => readdirSync(`/proc/${pid}/task`).map((tid) => ({ tid: Number(tid), name: readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim() }));
    const serving = new Set<string>();
    const helpersAtZero = () => threads().filter(({ tid, name }) => tid !== pid && !serving.has(name) && niceOf(pid, tid) < HELPER_THREAD_NICE);
    // Threads started after the last check are caught by the next one, within HELPER_CHECK_MS.
    for (let k = 0; k < 80 && helpersAtZero().length > 0; k++) await Bun.sleep(100);
    expect(helpersAtZero()).toEqual([]);
    expect(readdirSync(`/proc/${pid}/task`).length).toBeGreaterThan(3);
    expect(niceOf(pid, pid)).toBe(0);
  }, 30_000);

  test("parse workers run below the main thread", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.py": "x = 1\n" });
    const ctx = testConnectContext(dir.path);
    const syntax = connectSyntax({}, ctx);
    await syntax.search({ pattern: "$X = 1", language: "python" }); // the workers are up once it answers
    const nices = readdirSync(`/proc/${process.pid}/task`).map((tid) => niceOf(process.pid, Number(tid)));
    expect(nices.filter((nice) => nice === 10).length).toBeGreaterThanOrEqual(1);
    expect(niceOf(process.pid, process.pid)).toBe(0);
    await ctx.lifecycle.close();
  });
});
