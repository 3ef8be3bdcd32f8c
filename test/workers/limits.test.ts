// The roster's limits with real workers: queueing at the concurrency cap, the spawn cap, the time limit, worktrees.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call, ok } from "../helpers/call.ts";
import { until } from "../helpers/until.ts";
import { vibeConfig } from "./helpers.ts";

describe("the concurrency cap", () => {
  test("past the cap a worker is queued, starts when a slot frees, and can be killed while queued", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig({ concurrency: 1 }));
    const client = await t.client();
    expect(await ok(client, "vibe_spawn", { brief: "long.sh", label: "holds the slot" })).toMatchObject({ state: "running" });
    const second = await call(client, "vibe_spawn", { brief: "finishes.sh\nsecond", label: "waits its turn" });
    expect(second.data).toMatchObject({ worker_id: "w2", state: "queued" });
    expect(second.text).toContain("queued");
    expect(await ok(client, "vibe_spawn", { brief: "finishes.sh", label: "never runs" })).toMatchObject({ state: "queued" });

    const stillQueued = await ok(client, "vibe_wait", { worker_id: "w2", timeout_seconds: 0.5 });
    expect(stillQueued).toMatchObject({ state: "queued", finished: false });
    // A message to a queued worker lengthens its brief; its first run is still generation 1.
    await ok(client, "vibe_send", { worker_id: "w2", message: "and a message" });

    const dropped = await ok(client, "vibe_kill", { worker_id: "w3" });
    expect(dropped).toMatchObject({ state: "killed", already_finished: false });
    expect(t.run.resources.workers!.get("w3").history[0]).toMatchObject({ state: "killed", note: "killed by vibe_kill while queued; it never started" });
    expect(t.run.resources.workers!.get("w3").history[0]!.startedAt).toBeUndefined();

    await Bun.write(join(dir.path, "release-w1"), "");
    const done = await ok(client, "vibe_wait", { worker_id: "w2" });
    expect(done).toMatchObject({ state: "done" });
    expect(done.result).toContain("second");
    expect(done.result).toContain("worker w2 generation 1 in");
    expect(done.result).toContain("and a message");
    const states = (await ok(client, "vibe_list")).workers.map((w: { worker_id: string; state: string }) => [w.worker_id, w.state]);
    expect(states).toEqual([["w1", "done"], ["w2", "done"], ["w3", "killed"]]);
  });

  test("without a tier a worker is fast, or of the only tier the run has", async () => {
    await using dir = await tempDir();
    const goodOnly = vibeConfig({}, { good: {} });
    delete (goodOnly.resources!.vibe as { fast?: unknown }).fast;
    await using t = await startTestRun(dir.path, goodOnly);
    expect(await ok(await t.client(), "vibe_spawn", { brief: "finishes.sh", label: "judged" })).toMatchObject({ tier: "good" });
  });

  test("each tier has its own cap", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig({ concurrency: 1 }, { good: { concurrency: 1 } }));
    const client = await t.client();
    expect((await ok(client, "vibe_spawn", { brief: "long.sh", label: "fast one" })).state).toBe("running");
    expect((await ok(client, "vibe_spawn", { brief: "long.sh", label: "good one", tier: "good" })).state).toBe("running");
    expect((await ok(client, "vibe_spawn", { brief: "long.sh", label: "second good", tier: "good" })).state).toBe("queued");
  });
});

describe("the spawn cap", () => {
  test("past the run's cap vibe_spawn is refused with 'do not retry'; re-runs do not count", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig({}, { maxSpawns: 2 }));
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "finishes.sh", label: "one" });
    await ok(client, "vibe_spawn", { brief: "finishes.sh", label: "two" });
    const refused = await call(client, "vibe_spawn", { brief: "finishes.sh", label: "three" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("spawn cap is reached: 2 of 2 workers spawned. Do not retry vibe_spawn");
    expect(refused.error?.details).toMatchObject({ spawned: 2, spawn_cap: 2 });

    await ok(client, "vibe_wait", { worker_id: "w1" });
    expect((await ok(client, "vibe_send", { worker_id: "w1", message: "once more" })).generation).toBe(2);
    expect((await ok(client, "vibe_list")).total).toBe(2);
  });
});

describe("the time limit", () => {
  test("a worker running past its tier's limit is stopped and reads timed_out", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig({ timeLimitSeconds: 2 }));
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "long.sh", label: "too slow" });
    const waited = await ok(client, "vibe_wait", { worker_id: "w1", timeout_seconds: 120 });
    expect(waited).toMatchObject({ state: "timed_out", finished: true, note: "the time limit of 2 s was reached" });
    expect(waited.result).toContain("step 1");
  });
});

describe('isolation "worktree"', () => {
  test("each worker runs in its own git worktree, so its edits never touch the workdir", async () => {
    await using dir = await tempDir();
    await dir.write({ "README.md": "hello\n" });
    const git = (...args: string[]) => execFileSync("git", args, { cwd: dir.path, stdio: "pipe" });
    git("init", "-q");
    git("add", ".");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init");
    await using t = await startTestRun(dir.path, vibeConfig({ isolation: "worktree" }));
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "writes-file.sh", label: "edits" });
    await ok(client, "vibe_spawn", { brief: "writes-file.sh", label: "edits too" });
    for (const id of ["w1", "w2"]) {
      const waited = await ok(client, "vibe_wait", { worker_id: id });
      expect(waited).toMatchObject({ state: "done" });
      expect(waited.result).toContain("?? edited.txt");
      const cwd = t.run.resources.workers!.get(id).cwd!;
      expect(cwd).not.toBe(dir.path);
      expect(readFileSync(join(cwd, "edited.txt"), "utf8")).toBe(`edited by ${id}\n`);
      expect(readFileSync(join(cwd, "README.md"), "utf8")).toBe("hello\n");
    }
    expect(existsSync(join(dir.path, "edited.txt"))).toBe(false);
  });

  test("with stateDir inside the checkout, worktrees made at once all start, and neither search nor git status sees them", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.py": "print(1)\n" });
    const git = (...args: string[]) => execFileSync("git", args, { cwd: dir.path, stdio: "pipe" }).toString();
    git("init", "-q");
    git("add", ".");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init");
    const config = vibeConfig({ isolation: "worktree", concurrency: 4 });
    await using t = await startTestRun(dir.path, { ...config, stateDir: ".sidecar/state", resources: { ...config.resources, parser: {} } });
    const client = await t.client();
    await Promise.all(["one", "two", "three", "four"].map((label) => ok(client, "vibe_spawn", { brief: "writes-file.sh", label })));
    for (const id of ["w1", "w2", "w3", "w4"]) expect(await ok(client, "vibe_wait", { worker_id: id })).toMatchObject({ state: "done" });
    expect(git("status", "--porcelain")).toBe("");
    const found = await ok(client, "ast_grep", { pattern: "print($A)", language: "python" });
    expect(found.matches.map((m: { path: string }) => m.path)).toEqual(["a.py"]);
  }, 60_000); // four git worktree adds, one at a time: past bun's 5 s on a loaded machine

  test("a workdir that is not a git checkout fails the worker with the reason", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig({ isolation: "worktree" }));
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "finishes.sh", label: "no git" });
    const waited = await ok(client, "vibe_wait", { worker_id: "w1" });
    expect(waited.state).toBe("failed");
    expect(waited.note).toContain('is not a git checkout with a commit');
    expect(waited.note).toContain('isolation "worktree" needs one');
  });
});
