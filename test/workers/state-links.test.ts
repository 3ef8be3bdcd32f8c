// A stateDir inside the checkout is the checkout's to fill: a cloned repository can ship symlinks in
// it. None may make the sidecar write outside the workdir, read a file outside it as a worker's
// result, or give a worker a working directory outside it; each is refused with a sentence.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { ok } from "../helpers/call.ts";
import { vibeConfig } from "./helpers.ts";

const STATE = ".sidecar-state";

/** A workdir and an outside folder holding a secret and a victim file, with `links` planted (path below STATE → target in outside). */
async function planted(links: Record<string, string>) {
  const outside = await tempDir("sidecar-outside-");
  const dir = await tempDir();
  await outside.write({ "secret.txt": "the secret key\n", "victim.txt": "keep me\n" });
  for (const [at, target] of Object.entries(links)) {
    const path = join(dir.path, STATE, at);
    mkdirSync(join(path, ".."), { recursive: true });
    symlinkSync(target === "" ? outside.path : join(outside.path, target), path);
  }
  return {
    dir,
    outside,
    /** The outside folder holds exactly what it began with. */
    expectUntouched() {
      expect(readdirSync(outside.path).sort()).toEqual(["secret.txt", "victim.txt"]);
      expect(readFileSync(join(outside.path, "victim.txt"), "utf8")).toBe("keep me\n");
      expect(readFileSync(join(outside.path, "secret.txt"), "utf8")).toBe("the secret key\n");
    },
    async [Symbol.asyncDispose]() {
      await dir[Symbol.asyncDispose]();
      await outside[Symbol.asyncDispose]();
    },
  };
}

function configIn(dir: TempDir, isolation: "workdir" | "worktree" = "workdir") {
  void dir;
  return { ...vibeConfig({ isolation }), stateDir: STATE };
}

describe("links a checkout planted in a stateDir inside it", () => {
  test("a result file linked to a secret outside is neither read nor written through: the worker's own result is", async () => {
    await using tree = await planted({ "workers/w1/gen-1/result.md": "secret.txt", "workers/w2/gen-1/result.md": "victim.txt" });
    await using t = await startTestRun(tree.dir.path, configIn(tree.dir));
    const client = await t.client();
    await ok(client, "vibe_spawn", { brief: "finishes.sh", label: "stdout only" });
    const first = await ok(client, "vibe_wait", { worker_id: "w1" });
    expect(first).toMatchObject({ state: "done", result_source: "stdout" });
    expect(first.result).not.toContain("the secret key");
    await ok(client, "vibe_spawn", { brief: "result-file.sh", label: "writes its result" });
    const second = await ok(client, "vibe_wait", { worker_id: "w2" });
    expect(second).toMatchObject({ state: "done", result_source: "result file", result: "# Report from w2\nall 12 tests pass\n" });
    tree.expectUntouched();
  });

  test("a log or brief linked outside fails the worker with a sentence, and nothing is written through it", async () => {
    await using tree = await planted({ "workers/w1/gen-1/stdout.log": "victim.txt", "workers/w2/gen-1/brief.md": "victim.txt" });
    await using t = await startTestRun(tree.dir.path, configIn(tree.dir));
    const client = await t.client();
    for (const id of ["w1", "w2"]) {
      await ok(client, "vibe_spawn", { brief: "finishes.sh", label: id });
      const waited = await ok(client, "vibe_wait", { worker_id: id });
      expect(waited.state).toBe("failed");
      expect(waited.note).toMatch(/is a symlink, not a file the sidecar made \(a checkout may have put it there\); remove it/);
    }
    tree.expectUntouched();
  });

  test("a worker's folder, or its worktree, linked outside is refused: no worker runs or writes out there", async () => {
    await using tree = await planted({ "workers/w1": "", "workers/w2/worktree": "" });
    const git = (...args: string[]) => execFileSync("git", args, { cwd: tree.dir.path, stdio: "pipe" }).toString();
    await tree.dir.write({ "a.py": "print(1)\n" });
    git("init", "-q");
    git("add", "a.py");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init");
    await using t = await startTestRun(tree.dir.path, configIn(tree.dir, "worktree"));
    const client = await t.client();
    for (const id of ["w1", "w2"]) {
      await ok(client, "vibe_spawn", { brief: "writes-file.sh", label: id });
      const waited = await ok(client, "vibe_wait", { worker_id: id });
      expect(waited.state).toBe("failed");
      expect(waited.note).toMatch(/could not prepare its working directory: .* is a symlink, not a folder the sidecar made/);
    }
    tree.expectUntouched();
  });

  test("the workers folder, or the stateDir itself, linked outside stops the start with a sentence", async () => {
    {
      await using tree = await planted({ workers: "" });
      await expect(startTestRun(tree.dir.path, configIn(tree.dir))).rejects.toThrow(/stateDir: cannot use .*workers for worker state \(.*workers is a symlink, not a folder the sidecar made/);
      tree.expectUntouched();
    }
    {
      await using outside = await tempDir("sidecar-outside-");
      await using dir = await tempDir();
      symlinkSync(outside.path, join(dir.path, STATE));
      await expect(startTestRun(dir.path, configIn(dir))).rejects.toThrow('stateDir: ".sidecar-state" is inside the workspace but a symlink on the way leads out of it (a cloned repository may have put it there); remove the link, or set stateDir outside the workspace.');
      expect(readdirSync(outside.path)).toEqual([]);
    }
  });

  test("a state file linked to a worker record outside is not adopted", async () => {
    await using tree = await planted({ "workers/w7/state.json": "fake.json" });
    await tree.outside.write({ "fake.json": JSON.stringify({ id: "w7", label: "forged", tier: "fast", state: "done", generation: 1, history: [] }) });
    await using t = await startTestRun(tree.dir.path, configIn(tree.dir));
    const client = await t.client();
    expect((await ok(client, "vibe_list")).total).toBe(0);
  });
});
