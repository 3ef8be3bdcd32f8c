// Shutdown never depends on stderr having a reader: with the harness's end of the pipe closed, a
// real `sidecar serve` still stops every worker, removes its temporary state and the workers' git
// worktrees, records why, and exits 0.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSidecar } from "../../build/spawn-sidecar.ts";
import { isAlive } from "../helpers/processes.ts";
import { until } from "../helpers/until.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");
const HARNESS = join(import.meta.dir, "fixtures", "piping-harness.py");
/** Bound on a worker starting, and on the sidecar's shutdown, on a loaded machine. */
const TEST_TIMEOUT_MS = 120_000;

/**
 * A git checkout with a commit, and a run config whose worker writes where it runs, then waits,
 * ignoring SIGTERM: its shutdown takes the 2 s grace, long enough for a failed write to end the
 * sidecar first if it could (a quick shutdown sometimes finished before the error landed).
 */
function gitCheckout(dir: TempDir, config: Record<string, unknown>): string {
  const git = (...args: string[]) => execFileSync("git", ["-C", dir.path, ...args], { stdio: "ignore" });
  writeFileSync(join(dir.path, "a.txt"), "a\n");
  git("init", "-q");
  git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "start");
  const where = join(dir.path, ".where");
  const file = join(dir.path, ".run.json");
  const worker = { command: ["sh", "-c", `trap '' TERM; pwd > ${where}; exec sleep 600`], isolation: "worktree" };
  writeFileSync(file, JSON.stringify({ ...config, resources: { parser: false, languageServers: false, debugAdapters: false, kernels: false, questions: false, vibe: { good: worker } } }));
  return file;
}

/**
 * The folder the worker wrote to `.where`, once its line is whole: `pwd > .where` creates the file
 * before it writes the line, and a read in between saw "" (the state folder then came out as
 * "../../..", an ancestor of the test's folder, which exists: 2 failures in 124 runs, four at a time).
 */
function whereTheWorkerRuns(dir: TempDir): string | undefined {
  const file = join(dir.path, ".where");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  return text.endsWith("\n") ? text.trim() : undefined;
}

function worktrees(dir: TempDir): string[] {
  return execFileSync("git", ["-C", dir.path, "worktree", "list", "--porcelain"], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.startsWith("worktree "));
}

describe("stderr with no reader", () => {
  test("the harness closed its end: SIGTERM still exits 0 and leaves no worktree or temporary state behind", async () => {
    await using dir = await tempDir();
    const config = gitCheckout(dir, {});
    const sidecar = await spawnSidecar([process.execPath, MAIN, "serve", "--config", config, "--workdir", dir.path]);
    const client = await sidecar.connect();
    const spawned = await client.callTool({ name: "vibe_spawn", arguments: { brief: "wait", label: "waits", tier: "good" } });
    expect(spawned.isError).toBeFalsy();
    const worktree = await until("the worker to start", () => whereTheWorkerRuns(dir));
    const stateDir = join(worktree, "..", "..", "..");
    expect(stateDir).toContain("sidecar-state-"); // the run's temporary state, never "/" or the checkout
    expect(existsSync(stateDir)).toBe(true);
    expect(worktrees(dir)).toHaveLength(2);
    await client.close();

    sidecar.child.stderr!.destroy(); // the harness stops reading: the pipe has no reader now
    await Bun.sleep(100);
    sidecar.child.kill("SIGTERM"); // its first words are "SIGTERM received, shutting down", on stderr
    const code = await new Promise((resolve) => sidecar.child.once("exit", (exitCode, signal) => resolve(exitCode ?? signal)));
    expect(code).toBe(0);
    expect(existsSync(stateDir)).toBe(false);
    expect(worktrees(dir)).toHaveLength(1);
  }, TEST_TIMEOUT_MS);

  test("the harness SIGKILLed with stderr piped to it: the sidecar shuts down and records its worker as killed", async () => {
    await using dir = await tempDir();
    await using state = await tempDir("sidecar-state-test-");
    const config = gitCheckout(dir, { stateDir: state.path });
    const harness = await spawnSidecar(["python3", HARNESS, process.execPath, MAIN, "serve", "--config", config, "--workdir", dir.path]);
    const client = await harness.connect();
    await client.callTool({ name: "vibe_spawn", arguments: { brief: "wait", label: "waits", tier: "good" } });
    await until("the worker to start", () => existsSync(join(dir.path, ".where")));
    const statePath = join(state.path, "workers", "w1", "state.json");
    expect(JSON.parse(readFileSync(statePath, "utf8"))).toMatchObject({ state: "running" });
    await client.close().catch(() => {});

    harness.child.kill("SIGKILL");
    await until("the sidecar to exit", () => !isAlive(harness.ready.pid));
    expect(JSON.parse(readFileSync(statePath, "utf8"))).toMatchObject({ state: "killed", history: [{ state: "killed", note: "the sidecar shut down" }] });
  }, TEST_TIMEOUT_MS);
});
