// Shutdown with real workers: no process outlives the sidecar, and worker state survives it on disk.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectClient } from "../../build/spawn-sidecar.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { ok } from "../helpers/call.ts";
import { survivors } from "../helpers/processes.ts";
import { childPids, vibeConfig } from "./helpers.ts";

const MAIN = join(import.meta.dir, "../../src/main.ts");
/** Bound on the real sidecar process starting up and shutting down. */
const SERVE_LIMIT_MS = 60_000;

describe("closing the run", () => {
  test("stops every worker's whole group, drops the queue, and records why in the state directory", async () => {
    await using dir = await tempDir();
    await using state = await tempDir("sidecar-state-test-");
    const config = { ...vibeConfig({ concurrency: 2 }), stateDir: state.path };
    const pids: number[] = [];
    {
      await using t = await startTestRun(dir.path, config);
      const client = await t.client();
      await ok(client, "vibe_spawn", { brief: "spawns-child.sh", label: "one" });
      await ok(client, "vibe_spawn", { brief: "spawns-child.sh", label: "two" });
      expect((await ok(client, "vibe_spawn", { brief: "finishes.sh", label: "queued" })).state).toBe("queued");
      pids.push(...(await childPids(dir.path, "w1")), ...(await childPids(dir.path, "w2")));
    }
    expect(pids).toHaveLength(4);
    expect(await survivors(pids)).toEqual([]);
    const saved = (id: string) => JSON.parse(readFileSync(join(state.path, "workers", id, "state.json"), "utf8"));
    expect(saved("w1")).toMatchObject({ state: "killed", history: [{ state: "killed", note: "the sidecar shut down" }] });
    expect(saved("w3")).toMatchObject({ state: "killed", history: [{ state: "killed", note: "the sidecar shut down before it started" }] });

    // A later sidecar of the same run still knows them: a finished worker is never "not found".
    await using again = await startTestRun(dir.path, config);
    const client = await again.client();
    const listed = await ok(client, "vibe_list");
    expect(listed.workers.map((w: { worker_id: string; state: string }) => [w.worker_id, w.state])).toEqual([
      ["w1", "killed"],
      ["w2", "killed"],
      ["w3", "killed"],
    ]);
    expect(await ok(client, "vibe_wait", { worker_id: "w2" })).toMatchObject({ state: "killed", note: "the sidecar shut down" });
    expect((await ok(client, "vibe_spawn", { brief: "finishes.sh", label: "next" })).worker_id).toBe("w4");
  });

  test("a temporary state directory and its worktrees are removed", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.txt": "a\n" });
    const git = (...args: string[]) => execFileSync("git", args, { cwd: dir.path, encoding: "utf8" });
    git("init", "-q");
    git("add", ".");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init");
    let root: string;
    {
      await using t = await startTestRun(dir.path, vibeConfig({ isolation: "worktree" }));
      const client = await t.client();
      await ok(client, "vibe_spawn", { brief: "writes-file.sh", label: "isolated" });
      await ok(client, "vibe_wait", { worker_id: "w1" });
      root = t.run.resources.workers!.stateRoot;
      expect(existsSync(join(root, "w1", "worktree", "edited.txt"))).toBe(true);
    }
    expect(existsSync(join(root, ".."))).toBe(false);
    expect(git("worktree", "list").trim().split("\n")).toHaveLength(1);
  });
});

describe("the sidecar process receiving SIGTERM", () => {
  test("leaves no worker process behind", async () => {
    await using dir = await tempDir();
    const configFile = join(dir.path, "run.json");
    writeFileSync(configFile, JSON.stringify({ ...vibeConfig(), workdir: dir.path }));
    const sidecar = Bun.spawn([process.execPath, MAIN, "serve", "--config", configFile], { stdout: "pipe", stderr: "pipe" });
    try {
      const ready = JSON.parse(await firstLine(sidecar.stdout)) as { url: string; surfaces: Record<string, string> };
      const client = await connectClient(ready.url, ready.surfaces.default!, "sidecar-test");
      await ok(client, "vibe_spawn", { brief: "spawns-child.sh", label: "orphan candidate" });
      const pids = await childPids(dir.path, "w1");
      await client.close();
      sidecar.kill("SIGTERM");
      const code = await Promise.race([sidecar.exited, Bun.sleep(SERVE_LIMIT_MS).then(() => "still running")]);
      expect(code).toBe(0);
      expect(await survivors(pids)).toEqual([]);
    } finally {
      sidecar.kill("SIGKILL");
    }
  });
});

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (text.includes("\n")) {
      reader.releaseLock();
      return text.slice(0, text.indexOf("\n"));
    }
  }
  throw new Error(`the sidecar exited before printing its ready line (stdout: ${JSON.stringify(text)})`);
}
