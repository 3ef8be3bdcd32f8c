// A real `sidecar serve` process with kernels (one holding a child and a setsid daemon), a language
// server and a worker that ignores SIGTERM: after SIGTERM no child survives; after SIGKILL the children notice and go.
// And one level up: when the harness that started it is SIGKILLed, the sidecar notices and shuts down.
import { describe, expect, test } from "bun:test";
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { processesWithMarker, waitForNoLeftovers } from "../../build/leftovers.ts";
import { spawnSidecar } from "../../build/spawn-sidecar.ts";
import { PARENT_CHECK_MS } from "../../src/platform/parent-watch.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { SYSTEM_PYTHON, requireSystemPython } from "../kernel/helpers.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");
const MARK = "SIDECAR_SIGNAL_TEST_MARK";
/** SIGTERM: the stubborn worker gets the 2 s grace, then SIGKILL; generous for a loaded machine. */
const SIGTERM_LEFTOVER_WAIT_MS = 15_000;
/** SIGKILL: the watchers poll every 0.5 s; the issue asks for 2 s, this allows for a loaded machine. */
const SIGKILL_LEFTOVER_WAIT_MS = 4_000;
const TEST_TIMEOUT_MS = 120_000;
/** A worker whose shell and child both ignore SIGTERM (ignored signals survive exec). */
const STUBBORN_WORKER = ["sh", "-c", "trap '' TERM; sleep 600 & echo started; wait"];
/**
 * Stands in for a harness: a shell that starts the sidecar and waits on it. The sidecar's ready line
 * comes through the shell's stdout, and killing the shell leaves the sidecar orphaned.
 */
const HARNESS = ["sh", "-c", '"$@" & wait', "harness"];
/** Several of the sidecar's parent checks (PARENT_CHECK_MS), for the sidecar that must stay. */
const OUTLIVE_WAIT_MS = 4 * PARENT_CHECK_MS;

async function busySidecar(workdir: string, marker: string, launcher: string[] = []) {
  requireSystemPython();
  const config = join(workdir, "run.json");
  writeFileSync(
    config,
    // The worker state in the test's folder: after a SIGKILL nothing removes a temporary one.
    JSON.stringify({ workdir, stateDir: ".sidecar-state", resources: { kernels: { python: SYSTEM_PYTHON }, languageServers: {}, vibe: { fast: { command: STUBBORN_WORKER } } } }),
  );
  writeFileSync(join(workdir, "tsconfig.json"), "{}");
  writeFileSync(join(workdir, "a.ts"), "export const answer = 42;\n");
  const sidecar = await spawnSidecar([...launcher, process.execPath, MAIN, "serve", "--config", config], { env: { ...process.env, [MARK]: marker } });
  const client = await sidecar.connect();
  const python = await client.callTool({
    name: "eval",
    arguments: {
      code: "import subprocess\nsubprocess.Popen(['sleep', '600'])\nsubprocess.run(['sh', '-c', 'setsid sleep 600 >/dev/null 2>&1 &'])\n'children started'",
      description: "start a child and a daemon",
    },
  });
  expect(JSON.stringify(python.content)).toContain("children started");
  const js = await client.callTool({ name: "eval", arguments: { code: "40 + 2", description: "start the javascript kernel", language: "javascript" } });
  expect(JSON.stringify(js.content)).toContain("42");
  const hover = await client.callTool({ name: "lsp", arguments: { action: "hover", file: "a.ts", line: 1, symbol: "answer" } }, undefined, {
    timeout: TEST_TIMEOUT_MS,
  });
  expect(JSON.stringify(hover.content)).toContain("answer");
  const spawned = await client.callTool({ name: "vibe_spawn", arguments: { brief: "ignore SIGTERM", label: "stubborn worker" } });
  expect(spawned.isError).toBeFalsy();
  // python kernel + its sleep + the daemon, the javascript kernel, the language server (and its
  // tsserver), the worker shell + its sleep.
  const sidecarPid = sidecar.ready.pid;
  const children = () => processesWithMarker(MARK, marker).filter((pid) => pid !== sidecarPid);
  for (let i = 0; i < 300 && children().length < 8; i++) await Bun.sleep(50);
  expect(children().length).toBeGreaterThanOrEqual(8);
  await client.close();
  return sidecar;
}

describe("the sidecar process with kernels, a language server and workers running", () => {
  test("SIGTERM: it exits 0 and no child, daemon or stubborn worker survives", async () => {
    await using dir = await tempDir();
    const marker = randomUUID();
    const sidecar = await busySidecar(dir.path, marker);
    expect(await sidecar.stop()).toBe(0);
    expect(await waitForNoLeftovers(MARK, marker, SIGTERM_LEFTOVER_WAIT_MS)).toEqual([]);
  }, TEST_TIMEOUT_MS);

  test("SIGKILL: every child notices its parent is gone and is killed, daemon included", async () => {
    await using dir = await tempDir();
    const marker = randomUUID();
    const sidecar = await busySidecar(dir.path, marker);
    const killed = performance.now();
    sidecar.child.kill("SIGKILL");
    const left = await waitForNoLeftovers(MARK, marker, SIGKILL_LEFTOVER_WAIT_MS);
    console.log(`children gone ${Math.round(performance.now() - killed)} ms after the SIGKILL`);
    expect(left).toEqual([]);
  }, TEST_TIMEOUT_MS);

  test("its harness SIGKILLed: the sidecar notices, shuts down, and no child survives", async () => {
    await using dir = await tempDir();
    const marker = randomUUID();
    const sidecar = await busySidecar(dir.path, marker, HARNESS);
    expect(sidecar.ready.pid).not.toBe(sidecar.child.pid);
    const killed = performance.now();
    sidecar.child.kill("SIGKILL");
    const left = await waitForNoLeftovers(MARK, marker, SIGTERM_LEFTOVER_WAIT_MS);
    console.log(`sidecar and children gone ${Math.round(performance.now() - killed)} ms after the harness's SIGKILL`);
    expect(left).toEqual([]);
    expect(sidecar.stderr()).toContain(`the process that started it (pid ${sidecar.child.pid}) exited, shutting down`);
  }, TEST_TIMEOUT_MS);
});

describe("SIGHUP (its terminal closed)", () => {
  test("shuts the run down as SIGTERM does: exit 0, a kernel gone with it", async () => {
    await using dir = await tempDir();
    const marker = randomUUID();
    const sidecar = await spawnSidecar([process.execPath, MAIN, "serve", "--workdir", dir.path], { env: { ...process.env, [MARK]: marker } });
    const client = await sidecar.connect();
    const cell = await client.callTool({ name: "eval", arguments: { code: "40 + 2", description: "start a kernel", language: "javascript" } });
    expect(JSON.stringify(cell.content)).toContain("42");
    await client.close();
    expect(processesWithMarker(MARK, marker).length).toBeGreaterThan(1);
    sidecar.child.kill("SIGHUP");
    const code = await new Promise((resolve) => sidecar.child.once("exit", (exitCode, signal) => resolve(exitCode ?? signal)));
    expect(code).toBe(0);
    expect(sidecar.stderr()).toContain("SIGHUP received, shutting down");
    expect(await waitForNoLeftovers(MARK, marker, SIGTERM_LEFTOVER_WAIT_MS)).toEqual([]);
  }, TEST_TIMEOUT_MS);
});

describe("--outlive-parent", () => {
  test("the sidecar keeps serving after its harness is gone, until SIGTERM", async () => {
    await using dir = await tempDir();
    const marker = randomUUID();
    writeFileSync(join(dir.path, "a.py"), "x = 1\n");
    const sidecar = await spawnSidecar([...HARNESS, process.execPath, MAIN, "serve", "--workdir", dir.path, "--outlive-parent"], {
      env: { ...process.env, [MARK]: marker },
    });
    sidecar.child.kill("SIGKILL");
    await Bun.sleep(OUTLIVE_WAIT_MS);
    const client = await sidecar.connect();
    const found = await client.callTool({ name: "ast_grep", arguments: { pattern: "$X = 1", language: "python" } });
    expect(found.isError).toBeFalsy();
    expect(JSON.stringify(found.content)).toContain("a.py");
    await client.close();
    expect(processesWithMarker(MARK, marker)).toContain(sidecar.ready.pid);
    process.kill(sidecar.ready.pid, "SIGTERM");
    expect(await waitForNoLeftovers(MARK, marker, SIGTERM_LEFTOVER_WAIT_MS)).toEqual([]);
  }, TEST_TIMEOUT_MS);
});
