// Servers that install themselves: a sidecar on a machine with no language server installed (PATH
// without them) installs each from the real npm registry into its cache on first use, says so while
// it does, and a second sidecar reuses the cache with the registry unreachable.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { spawnSidecar, type SpawnedSidecar } from "../../build/spawn-sidecar.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { call, PY_PROJECT, TS_PROJECT } from "./fixtures.ts";
import { BLOCKED_REGISTRY, registryGate } from "./provision-registry.ts";

const MAIN = resolve(import.meta.dir, "../../src/main.ts");
/** A machine's PATH with node but no language server (the repo's node_modules/.bin is not on it). */
const BARE_PATH = "/usr/local/bin:/usr/bin:/bin";
/** Installs go to the real registry: generous, as a slow link would need. */
const INSTALL_CALL_TIMEOUT_MS = 180_000;

/** One cache for the file: TypeScript and pyright are installed into it once, by the first test. */
let cache: TempDir;
let project: TempDir;

beforeAll(async () => {
  cache = await tempDir("sidecar-cache-");
  project = await tempDir();
  await project.write({ ...TS_PROJECT, ...PY_PROJECT });
});

// Removing two installs (about 60 MB) under load outlasts bun's 5 s default for a hook.
afterAll(async () => {
  await project?.[Symbol.asyncDispose]();
  await cache?.[Symbol.asyncDispose]();
}, 60_000);

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { PATH: _path, NPM_CONFIG_REGISTRY: _a, BUN_CONFIG_REGISTRY: _b, npm_config_registry: _c, ...rest } = process.env;
  return { ...rest, PATH: BARE_PATH, ...extra };
}

async function serve(workdir: string, cacheDir: string, languageServers: Record<string, unknown> = {}, extraEnv: Record<string, string> = {}): Promise<SpawnedSidecar> {
  const config = join(workdir, "..", `run-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(config, JSON.stringify({ workdir, resources: { languageServers: { cacheDir, ...languageServers } } }));
  return spawnSidecar([process.execPath, MAIN, "serve", "--config", config], { env: env(extraEnv) });
}

/** A tool call that records the progress messages the sidecar sends while it runs (not the framework's "still working" heartbeat). */
async function callWithProgress(client: Client, args: Record<string, unknown>): Promise<{ text: string; isError: boolean; progress: string[] }> {
  const progress: string[] = [];
  const onprogress = (p: { message?: string }) => {
    if (!p.message?.startsWith("lsp is still working")) progress.push(p.message ?? "");
  };
  const result = await client.callTool({ name: "lsp", arguments: args }, undefined, { onprogress, timeout: INSTALL_CALL_TIMEOUT_MS, resetTimeoutOnProgress: true });
  const text = (result.content as { text?: string }[]).map((c) => c.text ?? "").join("\n");
  return { text, isError: result.isError === true, progress };
}

function statusRow(text: string, server: string): string {
  return text.split("\n").find((line) => line.startsWith(server)) ?? `(no ${server} row in: ${text})`;
}

describe("first use with nothing installed", () => {
  test("hover in a TypeScript and a Python project installs each server, reports it as progress, and answers", async () => {
    await using sidecar = await serve(project.path, cache.path);
    const client = await sidecar.connect();
    const ts = await callWithProgress(client, { action: "hover", file: "src/shapes.ts", line: 14, symbol: "totalArea" });
    expect(ts.isError).toBe(false);
    expect(ts.text).toContain("function totalArea(shapes: Shape[]): number");
    expect(ts.progress[0]).toBe("installing typescript-language-server 5.3.0 + typescript 5.9.3 from the npm registry (https://registry.npmjs.org/)…");
    expect(ts.progress.at(-1)).toMatch(/^installed typescript-language-server 5\.3\.0 \+ typescript 5\.9\.3 in \d+\.\d s$/);

    const py = await callWithProgress(client, { action: "hover", file: "pkg/app.py", line: 3, symbol: "Rectangle" });
    expect(py.isError).toBe(false);
    expect(py.text).toContain("class Rectangle");
    expect(py.progress[0]).toStartWith("installing pyright 1.1.414 from the npm registry");

    // The installs are whole: the pinned lockfile (with integrity hashes) and the record beside the
    // packages, nothing left in staging, and status says where each server comes from.
    for (const key of ["typescript@5.3.0", "python@1.1.414"]) {
      expect(readFileSync(join(cache.path, key, "bun.lock"), "utf8")).toContain("sha512-");
      expect(JSON.parse(readFileSync(join(cache.path, key, "install.json"), "utf8"))).toMatchObject({ version: key.split("@")[1] });
    }
    expect(readdirSync(join(cache.path, ".staging"))).toEqual([]);
    const status = await call(client, "lsp", { action: "status" });
    const rows = status.data.results as { server: string; state: string; source?: string }[];
    // No Node involved: the servers run on the sidecar's own Bun, from the cache.
    const tsServer = rows.find((r) => r.server === "typescript")!;
    expect(tsServer.state).toBe("running");
    // The key is the language server's version; the TypeScript it brings is named beside it.
    expect(tsServer.source).toBe(`typescript@5.3.0 (typescript-language-server 5.3.0, typescript 5.9.3) from the sidecar's cache (${cache.path}/typescript@5.3.0)`);
  }, 240_000);

  test("a second sidecar reuses the cache with the npm registry unreachable", async () => {
    await using sidecar = await serve(project.path, cache.path, {}, { NPM_CONFIG_REGISTRY: BLOCKED_REGISTRY, BUN_CONFIG_REGISTRY: BLOCKED_REGISTRY });
    const client = await sidecar.connect();
    const ts = await callWithProgress(client, { action: "hover", file: "src/main.ts", line: 3, symbol: "Circle" });
    expect(ts.text).toContain("A circle of the given radius.");
    expect(ts.progress).toEqual([]);
    const py = await callWithProgress(client, { action: "definition", file: "pkg/app.py", line: 4, symbol: "double_area" });
    expect(py.text).toMatch(/pkg\/geometry\.py:12:\d+: def double_area\(shape: Rectangle\) -> float:/);
    expect(py.progress).toEqual([]);
  }, 120_000);
});

describe("when it cannot install", () => {
  test("an unreachable registry: the call says so and what to do, status says why, and nothing is left in the cache", async () => {
    await using empty = await tempDir("sidecar-cache-");
    await using sidecar = await serve(project.path, empty.path, {}, { NPM_CONFIG_REGISTRY: BLOCKED_REGISTRY, BUN_CONFIG_REGISTRY: BLOCKED_REGISTRY });
    const client = await sidecar.connect();
    const r = await callWithProgress(client, { action: "hover", file: "pkg/app.py", line: 3, symbol: "Rectangle" });
    expect(r.isError).toBe(true);
    expect(r.text).toStartWith(`The python server for . could not be installed: could not install pyright 1.1.414 from the npm registry (${BLOCKED_REGISTRY}): ConnectionRefused`);
    expect(r.text).toEndWith("Check that the npm registry is reachable, or install it by hand (npm i -g pyright); lsp reload retries.");
    const status = await call(client, "lsp", { action: "status" });
    expect(statusRow(status.text, "python")).toMatch(/unavailable — install failed: could not install pyright 1\.1\.414 from the npm registry \(http:\/\/127\.0\.0\.1:9\/\): ConnectionRefused.*; retrying at \d\d:\d\d:\d\d UTC$/);
    expect(readdirSync(empty.path).filter((name) => !name.startsWith("."))).toEqual([]);
    expect(readdirSync(join(empty.path, ".staging"))).toEqual([]);
  }, 120_000);

  test("a cache folder that cannot be written: the call says so and where to point it, not to check the registry", async () => {
    await using scratch = await tempDir("sidecar-cache-");
    await scratch.write({ "a-file": "" });
    const cacheDir = join(scratch.path, "a-file", "cache");
    await using sidecar = await serve(project.path, cacheDir);
    const client = await sidecar.connect();
    const r = await callWithProgress(client, { action: "hover", file: "pkg/app.py", line: 3, symbol: "Rectangle" });
    expect(r.isError).toBe(true);
    expect(r.text).toStartWith(`The python server for . could not be installed: its install cache ${cacheDir} cannot be written (ENOTDIR: not a directory`);
    expect(r.text).toEndWith("Point resources.languageServers.cacheDir at a writable folder, or install it by hand (npm i -g pyright); lsp reload retries.");
  }, 60_000);

  test('install "never": the call and status name the command that installs it', async () => {
    await using empty = await tempDir("sidecar-cache-");
    await using sidecar = await serve(project.path, empty.path, { install: "never" });
    const client = await sidecar.connect();
    const r = await callWithProgress(client, { action: "hover", file: "src/main.ts", line: 3, symbol: "Circle" });
    expect(r.text).toBe(
      `The typescript server for . cannot start: not installed, and resources.languageServers.install is "never": run \`sidecar servers install typescript\` (installs typescript@5.3.0 into ${empty.path}) or npm i -g typescript-language-server typescript@5.`,
    );
    const status = await call(client, "lsp", { action: "status" });
    expect(statusRow(status.text, "typescript")).toContain('unavailable — not installed, and resources.languageServers.install is "never": run `sidecar servers install typescript`');
    expect(existsSync(join(empty.path, "typescript@5.3.0"))).toBe(false);
  }, 60_000);
});

describe("installs in progress", () => {
  test("status says installing while it runs; a sidecar shutting down mid-install leaves nothing half-installed", async () => {
    await using empty = await tempDir("sidecar-cache-");
    await using gate = registryGate();
    const sidecar = await serve(project.path, empty.path, {}, { NPM_CONFIG_REGISTRY: gate.url, BUN_CONFIG_REGISTRY: gate.url });
    const client = await sidecar.connect();
    // The call never gets its answer: the sidecar is stopped under it.
    const hover = callWithProgress(client, { action: "hover", file: "src/main.ts", line: 3, symbol: "Circle" }).catch(() => undefined);
    await gate.requested();
    const status = await call(await sidecar.connect(), "lsp", { action: "status" });
    expect(statusRow(status.text, "typescript")).toMatch(/^typescript\s+\.\s+installing — installing typescript@5\.3\.0 from npm$/);
    expect(readdirSync(join(empty.path, ".staging"))).toHaveLength(1);
    await sidecar.stop();
    await hover;
    expect(readdirSync(empty.path).filter((name) => !name.startsWith("."))).toEqual([]);
    expect(readdirSync(join(empty.path, ".staging"))).toEqual([]);
  }, 60_000);

  test("two sidecars installing the same server at once: one installs, the other waits for it and uses its install", async () => {
    await using empty = await tempDir("sidecar-cache-");
    await using gate = registryGate();
    const install = () => {
      const child = spawn(process.execPath, [MAIN, "servers", "install", "dockerfile", "--cache-dir", empty.path], { env: env({ NPM_CONFIG_REGISTRY: gate.url, BUN_CONFIG_REGISTRY: gate.url }), stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      const done = new Promise<number | null>((resolveExit) => child.once("exit", resolveExit));
      return { child, done, stdout: () => stdout, stderr: () => stderr };
    };
    const first = install();
    await gate.requested();
    const second = install();
    const deadline = Date.now() + 30_000;
    while (!second.stderr().includes("waiting for another sidecar") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(second.stderr()).toContain(`sidecar: waiting for another sidecar (pid ${first.child.pid}) that is installing dockerfile@0.15.0…`);
    gate.open();
    expect(await first.done).toBe(0);
    expect(await second.done).toBe(0);
    expect(first.stdout()).toBe(`dockerfile@0.15.0: installed in ${empty.path}/dockerfile@0.15.0 (dockerfile)\n`);
    expect(second.stdout()).toBe(first.stdout());
    // The second never ran an install of its own.
    expect(second.stderr()).not.toContain("installing dockerfile-language-server-nodejs");
  }, 120_000);

  test("a sidecar killed mid-install (SIGKILL) leaves no install behind; the next install clears its leftovers", async () => {
    await using empty = await tempDir("sidecar-cache-");
    await using gate = registryGate();
    const killed = spawn(process.execPath, [MAIN, "servers", "install", "dockerfile", "--cache-dir", empty.path], { env: env({ NPM_CONFIG_REGISTRY: gate.url, BUN_CONFIG_REGISTRY: gate.url }), stdio: "ignore" });
    await gate.requested();
    killed.kill("SIGKILL");
    await new Promise((r) => killed.once("exit", r));
    expect(existsSync(join(empty.path, "dockerfile@0.15.0"))).toBe(false);
    // Its lock and staging folder are still there: the next install breaks the lock (its owner is
    // dead), clears the staging folder and installs.
    expect(readdirSync(join(empty.path, ".locks"))).toEqual(["dockerfile@0.15.0.lock"]);
    const again = spawn(process.execPath, [MAIN, "servers", "install", "dockerfile", "--cache-dir", empty.path], { env: env(), stdio: "ignore" });
    expect(await new Promise((r) => again.once("exit", r))).toBe(0);
    expect(readFileSync(join(empty.path, "dockerfile@0.15.0", "install.json"), "utf8")).toContain('"version": "0.15.0"');
    expect(readdirSync(join(empty.path, ".staging"))).toEqual([]);
    expect(readdirSync(join(empty.path, ".locks"))).toEqual([]);
  }, 120_000);
});
