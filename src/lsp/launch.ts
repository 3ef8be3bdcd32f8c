// Where a language server's or checker's binary comes from: the config's command, the workspace (trusted only), PATH, the install cache.
import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { WorkspaceTrust } from "../config/schema.ts";
import { findExecutable, isExecutableFile, mayRun, programTrust, refusedExecutables, trustedEnv } from "../platform/executables.ts";
import { isInside, relativeToWorkdir } from "../workspace/paths.ts";
import { shownPath } from "../workspace/shown-path.ts";
import type { ProjectChecker, ServerSpec } from "./catalog.ts";
import type { InstallPlan } from "./provision/cache.ts";
import type { ServerProvisioner } from "./provision/provisioner.ts";

export type Trust = WorkspaceTrust;

/** How a person (or harness) trusts a folder, for every message that says something was skipped. */
export const TRUST_HINT = 'a harness whose user trusts this folder passes "trust": "workspace" in the run config';

export interface LaunchContext {
  workdir: string;
  trust: Trust;
  provisioner: ServerProvisioner;
  env?: NodeJS.ProcessEnv;
}

export interface ProgramLaunch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Where it was found, in words: "/usr/bin/clangd", "python@1.1.414 (pyright 1.1.414) from the sidecar's cache (…)". */
  source: string;
}

export interface ServerLaunch extends ProgramLaunch {
  initializationOptions?: Record<string, unknown>;
}

export type Lookup<T> =
  /** `skipped`: workspace binaries passed over because the workspace is not trusted. */
  | { kind: "found"; launch: T; skipped: string[] }
  /** Not installed yet, and the catalog has it on npm. */
  | { kind: "installable"; plan: InstallPlan; skipped: string[] }
  | { kind: "missing"; reason: string; skipped: string[] }
  /** Would run the workspace's own code, and the workspace is not trusted. */
  | { kind: "refused"; reason: string };

/** How the server for (spec, root) starts, or why it cannot (yet). Never installs. */
export function findServer(spec: ServerSpec, root: string, ctx: LaunchContext): Lookup<ServerLaunch> {
  const refusal = untrustedRefusal(spec, root, ctx);
  if (refusal) return { kind: "refused", reason: refusal };
  const search = searchProgram(spec.command, root, ctx);
  const skipped = [...search.skipped];
  if (search.path) {
    const launch = withOptions(spec, { command: search.path, args: [...spec.args], env: serverEnv(spec, ctx), source: search.path }, search.path, ctx);
    if (typeof launch !== "string") return { kind: "found", launch, skipped };
    skipped.push(launch);
  }
  if (spec.npm) {
    const dir = ctx.provisioner.installedDir(spec);
    if (dir) return { kind: "found", launch: serverFromInstall(spec, dir, ctx), skipped };
    return { kind: "installable", plan: ctx.provisioner.plan(spec)!, skipped };
  }
  return { kind: "missing", reason: `binary not found: ${spec.command} (${search.lookedIn})`, skipped };
}

/** The server run from its install in the cache by the sidecar's Bun. */
export function serverFromInstall(spec: ServerSpec, dir: string, ctx: LaunchContext): ServerLaunch {
  const entry = ctx.provisioner.cache.entryOf(dir, spec.npm!);
  const script = bunScript(entry, [...spec.args], serverEnv(spec, ctx), ctx);
  const plan = ctx.provisioner.plan(spec)!;
  // The install's key names the server's version alone: typescript@5.3.0 brings TypeScript 5.9.3.
  const packages = Object.entries(plan.packages).map(([name, version]) => `${name} ${version}`).join(", ");
  const launch = withOptions(spec, { ...script, source: `${plan.key} (${packages}) from the sidecar's cache (${dir})` }, entry, ctx);
  if (typeof launch === "string") throw new Error(`the ${plan.key} install is incomplete: ${launch}; \`sidecar servers remove ${spec.id}\` and try again`);
  return launch;
}

/** How the root's project checker runs, or why it cannot. Never installs. */
export function findChecker(spec: ServerSpec, checker: ProjectChecker, root: string, ctx: LaunchContext): Lookup<ProgramLaunch> {
  if (ctx.trust !== "workspace" && (checker.needsTrust || spec.needsTrust)) {
    return { kind: "refused", reason: `not run: ${checker.needsTrust ?? spec.needsTrust}, and this workspace is not trusted (${TRUST_HINT})` };
  }
  const search = searchProgram(checker.command, root, ctx);
  const env = { ...baseEnv(ctx), ...(ctx.trust === "workspace" ? {} : spec.untrusted?.env) };
  if (search.path) return { kind: "found", launch: { command: search.path, args: [...checker.args], env, source: search.path }, skipped: search.skipped };
  if (spec.npm && checker.npmEntry) {
    const dir = ctx.provisioner.installedDir(spec);
    if (dir) return { kind: "found", launch: checkerFromInstall(spec, checker, dir, ctx), skipped: search.skipped };
    return { kind: "installable", plan: ctx.provisioner.plan(spec)!, skipped: search.skipped };
  }
  return { kind: "missing", reason: `${checker.command} not found (${search.lookedIn})`, skipped: search.skipped };
}

export function checkerFromInstall(spec: ServerSpec, checker: ProjectChecker, dir: string, ctx: LaunchContext): ProgramLaunch {
  const script = bunScript(join(dir, "node_modules", checker.npmEntry!), [...checker.args], baseEnv(ctx), ctx);
  return { ...script, source: `${checker.command} from ${ctx.provisioner.plan(spec)!.key} in the sidecar's cache` };
}

/** A program on PATH, for tools that are not servers (the C checker's clang). */
export function findOnPath(command: string, ctx: LaunchContext): string | undefined {
  return findExecutable(command, { trust: programTrust(ctx.trust, ctx.workdir), path: (ctx.env ?? process.env).PATH });
}

/** Why the server cannot give diagnostics (the program they come from is not on PATH), if it cannot. */
export function diagnosticsUnavailable(spec: ServerSpec, ctx: LaunchContext): string | undefined {
  const need = missingDiagnosticsProgram(spec, ctx);
  return need && `The ${spec.id} server's diagnostics come from ${need.command}, which is not on PATH, so nothing was checked: install it (${need.installHint}). Its other actions work without it.`;
}

/** For `status`: "diagnostics need shellcheck, which is not on PATH (…)", if they do. */
export function diagnosticsCaveat(spec: ServerSpec, ctx: LaunchContext): string | undefined {
  const need = missingDiagnosticsProgram(spec, ctx);
  return need && `diagnostics need ${need.command}, which is not on PATH (${need.installHint})`;
}

function missingDiagnosticsProgram(spec: ServerSpec, ctx: LaunchContext): ServerSpec["diagnosticsFrom"] {
  const need = spec.diagnosticsFrom;
  return need && !findOnPath(need.command, ctx) ? need : undefined;
}

/** The environment every program started for the workspace gets: PATH without the workspace's folders when untrusted. */
export function baseEnv(ctx: LaunchContext): NodeJS.ProcessEnv {
  return trustedEnv(ctx.env ?? process.env, programTrust(ctx.trust, ctx.workdir));
}

/** Why an untrusted workspace does not get this server, if it does not. */
function untrustedRefusal(spec: ServerSpec, root: string, ctx: LaunchContext): string | undefined {
  if (ctx.trust === "workspace") return undefined;
  if (spec.needsTrust) return `not started: ${spec.needsTrust}, and this workspace is not trusted (${TRUST_HINT})`;
  const code = spec.workspaceCodeFiles;
  const present = code?.files.find((file) => existsSync(join(root, file)));
  if (code && present) return `not started: ${shownPath(relativeToWorkdir(ctx.workdir, join(root, present)))} is there and ${code.why}, and this workspace is not trusted (${TRUST_HINT})`;
  return undefined;
}

function serverEnv(spec: ServerSpec, ctx: LaunchContext): NodeJS.ProcessEnv {
  return { ...baseEnv(ctx), ...(ctx.trust === "workspace" ? {} : spec.untrusted?.env) };
}

/**
 * A JavaScript file run by the sidecar's Bun, through ownBunCommand: it starts in the root, and Bun
 * would read the root's bunfig.toml (whose `preload` runs code) and .env. The preload keeps stdout
 * for the protocol and, untrusted, guards the workspace; it and --no-install reach every Bun process
 * the server starts (tsserver), as ownBunCommand's own flags do.
 */
function bunScript(script: string, args: string[], env: NodeJS.ProcessEnv, ctx: LaunchContext): Omit<ProgramLaunch, "source"> {
  const run = ctx.provisioner.bun!.command([script, ...args], ["--no-install", "--preload", ctx.provisioner.preload()]);
  const guarded = ctx.trust !== "workspace";
  return { command: run.command, args: run.args, env: { ...env, ...run.env, ...(guarded ? { SIDECAR_GUARD_WORKDIR: ctx.workdir } : {}) } };
}

/**
 * The launch with its initialization options: the catalog's, the untrusted ones merged over them,
 * and every "{{module:…}}" resolved beside the server's own script. A string when one cannot be
 * resolved there (say, a typescript-language-server on PATH without @vue/typescript-plugin beside it).
 */
function withOptions(spec: ServerSpec, launch: ProgramLaunch, script: string, ctx: LaunchContext): ServerLaunch | string {
  const untrusted = ctx.trust === "workspace" ? undefined : spec.untrusted?.initializationOptions;
  const options = untrusted ? deepMerge(spec.initializationOptions ?? {}, untrusted) : spec.initializationOptions;
  if (!options) return launch;
  let unresolved: string | undefined;
  const resolved = mapStrings(options, (value) =>
    value.replace(/\{\{module:([^}]+)\}\}/g, (_, module: string) => {
      const found = moduleBeside(script, module);
      if (!found || !mayRun(found, programTrust(ctx.trust, ctx.workdir))) unresolved ??= module;
      return found ?? "";
    }),
  );
  if (unresolved) return `skipped ${script}: no ${unresolved} beside it`;
  return { ...launch, initializationOptions: resolved as Record<string, unknown> };
}

/** `module` ("typescript/lib") as Node would find it from the script's own folder, following the script's real path. */
function moduleBeside(script: string, module: string): string | undefined {
  let dir: string;
  try {
    dir = dirname(realpathSync(script));
  } catch {
    return undefined;
  }
  for (;;) {
    const candidate = join(dir, "node_modules", module);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

interface ProgramSearch {
  path?: string;
  /** Binaries that exist but were passed over, with why (the workspace is not trusted). */
  skipped: string[];
  lookedIn: string;
}

/**
 * A command as the config or catalog gives it: a path as given (relative to the root); a bare name
 * in the root's (and its ancestors', inside the workdir) node_modules/.bin when the workspace is
 * trusted, then PATH (platform/executables.ts). Untrusted, nothing inside the workdir is run: what
 * was passed over is noted as skipped.
 */
function searchProgram(command: string, root: string, ctx: LaunchContext): ProgramSearch {
  const trust = programTrust(ctx.trust, ctx.workdir);
  const skipped: string[] = [];
  const note = (path: string) => skipped.push(`skipped ${shownPath(relativeToWorkdir(ctx.workdir, path))}: it is inside the workspace, which is not trusted (${TRUST_HINT})`);
  if (command.includes("/")) {
    const path = isAbsolute(command) ? command : resolve(root, command);
    if (!mayRun(path, trust)) {
      if (isExecutableFile(path)) note(path);
      return { skipped, lookedIn: `${command} is inside the workspace, which is not trusted; give a path outside it` };
    }
    return { ...(isExecutableFile(path) ? { path } : {}), skipped, lookedIn: `looked at ${path}` };
  }
  const workspaceBins: string[] = [];
  for (let dir = root; isInside(ctx.workdir, dir); dir = dirname(dir)) {
    workspaceBins.push(join(dir, "node_modules", ".bin"));
    if (dir === ctx.workdir) break;
  }
  const onPath = { trust, path: (ctx.env ?? process.env).PATH };
  const inBins = workspaceBins.map((folder) => join(folder, command)).filter(isExecutableFile);
  if (!trust.workspace) for (const path of [...inBins, ...refusedExecutables(command, onPath)]) note(path);
  const lookedIn = trust.workspace ? "looked in the root's node_modules/.bin and PATH" : "looked in PATH; the workspace's own node_modules/.bin is not used, as it is not trusted";
  const path = (trust.workspace ? inBins[0] : undefined) ?? findExecutable(command, onPath);
  return { ...(path ? { path } : {}), skipped, lookedIn };
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]));
  return value;
}

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = merged[key];
    const bothObjects = value && typeof value === "object" && !Array.isArray(value) && current && typeof current === "object" && !Array.isArray(current);
    merged[key] = bothObjects ? deepMerge(current as Record<string, unknown>, value as Record<string, unknown>) : value;
  }
  return merged;
}
