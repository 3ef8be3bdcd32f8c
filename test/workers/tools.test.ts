// vibe_* through the official MCP client with real worker processes: results, failures, wait, send, kill.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call, ok } from "../helpers/call.ts";
import { survivors } from "../helpers/processes.ts";
import { until } from "../helpers/until.ts";
import { childPids, vibeConfig } from "./helpers.ts";

/** Lets the vibe_wait request reach the server before it is cancelled (either way it must end). */
const CALL_IN_FLIGHT_MS = 200;
/** What the in-process sidecar may read for a 3 GB result file: its two ends, plus everything else a run reads meanwhile. */
const READ_BOUND_BYTES = 64 * 1024 ** 2;

/** Bytes this process (the in-process sidecar included) has read through read(2) and its kin, from /proc/self/io. */
function bytesReadByThisProcess(): number {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"))?.[1]);
}

describe("a worker that finishes", () => {
  test("its stdout, which echoes the brief it read on stdin, is the result; vibe_list shows it done", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig({ env: { WORKER_GREETING: "hello" } }));
    const client = await t.client();
    const spawned = await ok(client, "vibe_spawn", { brief: "finishes.sh\nplease count the widgets", label: "count widgets" });
    expect(spawned).toMatchObject({ worker_id: "w1", tier: "fast", generation: 1, spawned: 1 });

    const waited = await ok(client, "vibe_wait", { worker_id: "w1" });
    expect(waited).toMatchObject({ worker_id: "w1", state: "done", finished: true, result_source: "stdout", exit_code: 0 });
    expect(waited.result).toContain("please count the widgets");
    expect(waited.result).toContain(`worker w1 generation 1 in ${dir.path}`);
    expect(waited.result).toContain("tier fast, greeting hello");
    expect(readFileSync(waited.result_file, "utf8")).toContain("brief from stdin:");

    const list = await ok(client, "vibe_list");
    expect(list.total).toBe(1);
    expect(list.workers[0]).toMatchObject({ worker_id: "w1", label: "count widgets", state: "done", generation: 1 });
    expect(list.workers[0].last_result).toContain("worker w1 generation 1");
  });

  test("what it leaves running in its process group is stopped when it exits", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "leaves-child.sh", label: "litters" });
    expect(await ok(client, "vibe_wait", { worker_id: "w1" })).toMatchObject({ state: "done", result: "left a child behind\n" });
    expect(await survivors(await childPids(dir.path, "w1"))).toEqual([]);
  });

  test("a daemon it started with setsid, outside its group, is stopped when it exits too", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "leaves-daemon.sh", label: "daemonises" });
    expect(await ok(client, "vibe_wait", { worker_id: "w1" })).toMatchObject({ state: "done", result: "left a daemon behind\n" });
    expect(await survivors(await childPids(dir.path, "w1"))).toEqual([]);
  });
});

describe("a worker that fails", () => {
  test("vibe_wait says failed, with its exit code and the end of its stderr", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "fails.sh", label: "impossible" });
    const waited = await call(client, "vibe_wait", { worker_id: "w1" });
    expect(waited.isError).toBe(false);
    expect(waited.data).toMatchObject({ state: "failed", finished: true, exit_code: 3, note: "the worker ended with exit code 3" });
    expect(waited.data.stderr_tail).toContain("the widget is missing");
    expect(waited.text).toContain("failed");
  });

  test("a roster command that does not exist fails the worker with a sentence naming it", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig({ command: ["no-such-worker-program-xyz"] }));
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "anything", label: "doomed" });
    const waited = await ok(client, "vibe_wait", { worker_id: "w1" });
    expect(waited.state).toBe("failed");
    expect(waited.note).toContain('could not start "no-such-worker-program-xyz"');
  });
});

describe("a worker that writes a result file", () => {
  test("a result file made a FIFO is not read (it would block the run): stdout is the result, and the run answers", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "fifo-result.sh", label: "fifo" });
    const done = await ok(client, "vibe_wait", { worker_id: "w1" });
    expect(done).toMatchObject({ state: "done", result_source: "stdout" });
    expect(done.result).toContain("the result, on stdout");
    expect((await ok(client, "vibe_list")).total).toBe(1);
  });

  test("a 3 GB result file: only its two ends are read, and the run answers", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "huge-result.sh", label: "huge" });
    const before = bytesReadByThisProcess();
    const done = await ok(client, "vibe_wait", { worker_id: "w1" });
    // Reading it whole read 3 GB (and held the main thread for 40 s); its ends are 32 KiB.
    expect(bytesReadByThisProcess() - before).toBeLessThan(READ_BOUND_BYTES);
    expect(done).toMatchObject({ state: "done", result_source: "result file" });
    expect(done.result).toStartWith("the head of the report\n");
    expect(done.result).toEndWith("\nthe tail of the report\n");
    expect(done.result).toMatch(/\n… \d+ bytes cut …\n/);
    expect((await ok(client, "vibe_list")).total).toBe(1);
  });

  test("the file, not its stdout, is the result", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "result-file.sh", label: "report" });
    const waited = await ok(client, "vibe_wait", { worker_id: "w1" });
    expect(waited).toMatchObject({ state: "done", result_source: "result file", result: "# Report from w1\nall 12 tests pass\n" });
    expect(waited.result).not.toContain("noise");
    expect(readFileSync(waited.result_file, "utf8")).toBe(waited.result);
  });
});

describe("vibe_wait", () => {
  test("a timeout answers running with elapsed time and the last progress line, not an error; then completion", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "long.sh", label: "long job" });
    await until("a progress line", async () => (await ok(client, "vibe_list")).workers[0].last_progress);

    const messages: string[] = [];
    const timedOut = await call(client, "vibe_wait", { worker_id: "w1", timeout_seconds: 1.5 }, { onprogress: (p) => messages.push(p.message ?? "") });
    expect(timedOut.isError).toBe(false);
    expect(timedOut.data).toMatchObject({ worker_id: "w1", state: "running", finished: false });
    expect(timedOut.data.last_progress).toMatch(/^step \d+$/);
    expect(timedOut.data.elapsed_seconds).toBeGreaterThan(0);
    expect(timedOut.text).toContain("not an error");
    expect(messages.some((m) => /w1 running for .* s: step \d+/.test(m))).toBe(true);

    await Bun.write(join(dir.path, "release-w1"), "");
    const done = await ok(client, "vibe_wait", { worker_id: "w1", timeout_seconds: 120 });
    expect(done).toMatchObject({ state: "done", finished: true });
    expect(done.result).toMatch(/released after \d+ steps/);
  });

  test("cancelling a wait ends the call and leaves the worker running", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "long.sh", label: "long job" });
    const controller = new AbortController();
    const waiting = client.callTool({ name: "vibe_wait", arguments: { worker_id: "w1", timeout_seconds: 300 } }, undefined, {
      signal: controller.signal,
    });
    await Bun.sleep(CALL_IN_FLIGHT_MS);
    controller.abort("test cancels");
    await expect(waiting).rejects.toThrow();
    expect((await ok(client, "vibe_list")).workers[0].state).toBe("running");
  });

  test("an unknown worker id is an error that lists the known ones", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const client = await t.client();
    const none = await call(client, "vibe_wait", { worker_id: "w7" });
    expect(none.isError).toBe(true);
    expect(none.text).toContain("No worker has been spawned in this run yet");
    await ok(client, "vibe_spawn", { brief: "finishes.sh", label: "first" });
    const unknown = await call(client, "vibe_kill", { worker_id: "w7" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('There is no worker "w7" in this run. Known workers: w1 (first,');
  });
});

describe("vibe_send", () => {
  test("to a running worker: stops it, re-runs with the message appended, keeps the old generation in history", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "long.sh\nfirst brief", label: "steered" });
    await until("a progress line", async () => (await ok(client, "vibe_list")).workers[0].last_progress);

    const sent = await ok(client, "vibe_send", { worker_id: "w1", message: "also fix the docs" });
    expect(sent).toMatchObject({ worker_id: "w1", generation: 2, state: "running", history_length: 1 });
    const roster = t.run.resources.workers!;
    const record = roster.get("w1");
    expect(record.history[0]).toMatchObject({ generation: 1, state: "killed", note: "stopped by vibe_send to re-run with a new message" });
    expect(readFileSync(roster.files("w1", 2).brief, "utf8")).toBe("long.sh\nfirst brief\n\n---\n\nalso fix the docs");

    await Bun.write(join(dir.path, "release-w1"), "");
    const done = await ok(client, "vibe_wait", { worker_id: "w1" });
    expect(done).toMatchObject({ state: "done", generation: 2 });
  });

  test("to a finished worker: runs it again and the new result carries the message", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "finishes.sh\noriginal", label: "again" });
    await ok(client, "vibe_wait", { worker_id: "w1" });
    const sent = await ok(client, "vibe_send", { worker_id: "w1", message: "now with feeling" });
    expect(sent.generation).toBe(2);
    const done = await ok(client, "vibe_wait", { worker_id: "w1" });
    expect(done).toMatchObject({ state: "done", generation: 2 });
    expect(done.result).toContain("worker w1 generation 2");
    expect(done.result).toContain("now with feeling");
    const history = t.run.resources.workers!.get("w1").history;
    expect(history.map((h) => [h.generation, h.state])).toEqual([[1, "done"], [2, "done"]]);
    expect(history[0]!.result).not.toContain("now with feeling");
  });
});

describe("the surface that starts a worker's run", () => {
  test("is in the worker's environment with its tiers: the spawner's, then each vibe_send caller's", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const main = await t.client();
    const plan = await t.client("plan");
    await ok(main, "vibe_spawn", { brief: "finishes.sh\nfrom the main agent", label: "main's" });
    await ok(plan, "vibe_spawn", { brief: "finishes.sh\nfrom plan mode", label: "plan's" });
    expect((await ok(main, "vibe_wait", { worker_id: "w1" })).result).toContain("started by surface default with tiers read,write,exec");
    expect((await ok(plan, "vibe_wait", { worker_id: "w2" })).result).toContain("started by surface plan with tiers read");
    // Plan mode steering the main agent's worker gets a read-only run, not the spawner's limits.
    await ok(plan, "vibe_send", { worker_id: "w1", message: "now from plan mode" });
    const rerun = await ok(plan, "vibe_wait", { worker_id: "w1" });
    expect(rerun).toMatchObject({ generation: 2, state: "done" });
    expect(rerun.result).toContain("started by surface plan with tiers read\n");
  });
});

describe("vibe_kill", () => {
  test("stops the whole process group, grandchild ignoring SIGTERM included; killing again changes nothing", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "spawns-child.sh", label: "stubborn" });
    const pids = await childPids(dir.path, "w1");
    const killed = await ok(client, "vibe_kill", { worker_id: "w1" });
    expect(killed).toMatchObject({ worker_id: "w1", state: "killed", already_finished: false });
    expect(await survivors(pids)).toEqual([]);
    const waited = await ok(client, "vibe_wait", { worker_id: "w1" });
    expect(waited).toMatchObject({ state: "killed", note: "stopped by vibe_kill" });
    const again = await ok(client, "vibe_kill", { worker_id: "w1" });
    expect(again).toMatchObject({ state: "killed", already_finished: true });
  });
});

describe("vibe_spawn arguments", () => {
  test("a tier the harness did not configure is refused, naming the configured ones", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const result = await call(await t.client(), "vibe_spawn", { brief: "finishes.sh", label: "x", tier: "good" });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('This run has no "good" worker tier; the harness configured "fast"');
    expect(existsSync(join(dir.path, "w1"))).toBe(false);
  });
});
