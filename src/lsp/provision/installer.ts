// Installs one npm server into the cache: under the install lock, staged apart, `bun install` from the embedded lockfile, moved into place whole.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnGroup, stopGroup } from "../../process/group.ts";
import { VERSION } from "../../version.ts";
import type { BunRuntime } from "./bun.ts";
import { INSTALL_RECORD, type InstallPlan, type InstallRecord, type ServerCache } from "./cache.ts";
import { acquireInstallLock } from "./install-lock.ts";
import { manifestOf } from "./manifest.ts";

/** `bun install` of one server gets this long (the largest, sql-language-server, takes seconds on a fair link). */
export const INSTALL_TIMEOUT_MS = 5 * 60_000;
/** How often a running install says it is still running. */
const PROGRESS_EVERY_MS = 2_000;
/** Bun's own words kept for the error: its last lines say what failed. */
const OUTPUT_KEPT_BYTES = 8_192;

interface InstallOptions {
  bun: BunRuntime;
  /** Each step in words: "installing pyright 1.1.414 from the npm registry…". */
  onProgress: (message: string) => void;
  /** Ends an install in progress (the run is shutting down); nothing is left behind. */
  signal?: AbortSignal;
  /** Script paths (relative to node_modules) that must exist once installed. */
  entries: readonly string[];
}

/**
 * The install's folder, installed now if it is not already. A failed, timed-out or interrupted
 * install leaves nothing in the cache: the work happens in `.staging/` and only a complete,
 * verified install is renamed to `<name>@<version>` (a rename is atomic within one file system).
 */
export async function installServer(cache: ServerCache, plan: InstallPlan, options: InstallOptions): Promise<string> {
  const ready = cache.installed(plan);
  if (ready) return ready;
  const lock = await acquireInstallLock(
    join(cache.root, ".locks", `${plan.key}.lock`),
    (owner) => options.onProgress(`waiting for another sidecar (pid ${owner.pid}) that is installing ${plan.key}…`),
    options.signal,
  );
  try {
    const installedMeanwhile = cache.installed(plan);
    if (installedMeanwhile) return installedMeanwhile;
    clearAbandonedStaging(cache.root, plan.key);
    const staging = join(cache.root, ".staging", `${plan.key}.${process.pid}.${Date.now().toString(36)}`);
    mkdirSync(staging, { recursive: true });
    try {
      writeFileSync(join(staging, "package.json"), manifestOf(plan.name, plan));
      writeFileSync(join(staging, "bun.lock"), plan.lockfile);
      await runBunInstall(staging, plan, options);
      const missing = options.entries.filter((entry) => !existsSync(join(staging, "node_modules", entry)));
      if (missing.length) throw new Error(`the install of ${plan.key} has no ${missing.join(", ")}`);
      rmSync(join(staging, ".download"), { recursive: true, force: true });
      const record: InstallRecord = { name: plan.name, version: plan.version, packages: { ...plan.packages }, lockSha256: plan.lockSha256, installedAt: new Date().toISOString(), by: `sidecar ${VERSION}` };
      writeFileSync(join(staging, INSTALL_RECORD), `${JSON.stringify(record, null, 2)}\n`);
      moveIntoPlace(cache, plan, staging);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw error;
    }
    return cache.dirOf(plan);
  } finally {
    lock.release();
  }
}

/** Where tarballs come from, for messages (Bun reads the same variables; ~/.npmrc may say otherwise). */
function registryOf(env: NodeJS.ProcessEnv = process.env): string {
  return env.BUN_CONFIG_REGISTRY || env.NPM_CONFIG_REGISTRY || env.npm_config_registry || "https://registry.npmjs.org/";
}

async function runBunInstall(staging: string, plan: InstallPlan, options: InstallOptions): Promise<void> {
  const { bun, onProgress, signal } = options;
  const started = Date.now();
  const what = Object.entries(plan.packages).map(([name, version]) => `${name} ${version}`).join(" + ");
  onProgress(`installing ${what} from the npm registry (${registryOf()})…`);
  // Bun's download cache lives in the staging folder and goes with it: nothing is written outside the cache.
  const run = bun.command(["install", "--frozen-lockfile", "--ignore-scripts", "--production", "--no-progress", "--no-summary"]);
  const env = { ...process.env, ...run.env, BUN_INSTALL_CACHE_DIR: join(staging, ".download") };
  const child = spawnGroup(run.command, run.args, { cwd: staging, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-OUTPUT_KEPT_BYTES);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  let stoppedBy: "timeout" | "shutdown" | undefined;
  const stop = (why: "timeout" | "shutdown") => {
    stoppedBy ??= why;
    void stopGroup(child);
  };
  const onAbort = () => stop("shutdown");
  const timeout = setTimeout(() => stop("timeout"), INSTALL_TIMEOUT_MS);
  const ticker = setInterval(() => onProgress(`installing ${what} from the npm registry… ${Math.round((Date.now() - started) / 1000)} s`), PROGRESS_EVERY_MS);
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", resolve);
    });
    if (stoppedBy === "timeout") throw new Error(`installing ${what} took longer than ${INSTALL_TIMEOUT_MS / 1000} s and was stopped`);
    if (stoppedBy === "shutdown") throw new Error(`installing ${what} was stopped: the run is shutting down`);
    if (exitCode !== 0) throw new Error(`could not install ${what} from the npm registry (${registryOf()}): ${bunErrors(output)}`);
  } finally {
    clearTimeout(timeout);
    clearInterval(ticker);
    signal?.removeEventListener("abort", onAbort);
  }
  onProgress(`installed ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Bun's "error: …" lines, de-duplicated, or its last line. */
function bunErrors(output: string): string {
  const lines = output.split("\n").map((line) => line.trim()).filter(Boolean);
  const errors = [...new Set(lines.filter((line) => line.startsWith("error:")).map((line) => line.slice("error:".length).trim()))];
  if (errors.length) return errors.slice(0, 3).join("; ") + (errors.length > 3 ? ` (and ${errors.length - 3} more)` : "");
  return lines.at(-1) ?? "bun install failed without a message";
}

/** Under the lock no other install of `key` runs, so any staging folder of it is a leftover of one that died. */
function clearAbandonedStaging(root: string, key: string): void {
  const staging = join(root, ".staging");
  let names: string[];
  try {
    names = readdirSync(staging);
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(`${key}.`)) rmSync(join(staging, name), { recursive: true, force: true });
}

/** Renames the finished install to its place; an incomplete or outdated one there is moved aside first and removed. */
function moveIntoPlace(cache: ServerCache, plan: InstallPlan, staging: string): void {
  const target = cache.dirOf(plan);
  if (existsSync(target)) {
    const aside = join(cache.root, ".staging", `${plan.key}.replaced.${process.pid}`);
    renameSync(target, aside);
    rmSync(aside, { recursive: true, force: true });
  }
  renameSync(staging, target);
}
