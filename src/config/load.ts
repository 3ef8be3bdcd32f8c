// Reads, validates and completes a run config: defaults filled, tokens minted, paths resolved.
import { readFileSync, realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import * as v from "valibot";
import type { Tier } from "../tool/tier.ts";
import { mintSecret } from "../platform/secrets.ts";
import { issueText } from "../validation/issue-text.ts";
import { leadsOutOfWorkdir } from "../workspace/paths.ts";
import { runConfigSchema, type ConnectedResources, type Resources, type RunConfig, type SurfaceSettings, type WorkspaceTrust } from "./schema.ts";
import { jsonBreak } from "./json-break.ts";

const DEFAULT_LISTEN = "127.0.0.1:0";
const DEFAULT_SURFACES: Record<string, readonly Tier[]> = {
  default: ["read", "write", "exec"],
  plan: ["read"],
  explore: ["read"],
};

interface SurfaceGrant {
  name: string;
  tiers: readonly Tier[];
  token: string;
}

/** The config after validation and defaults: what the server actually runs with. */
export interface RunSettings {
  workdir: string;
  conversation: string | undefined;
  listen: { host: string; port: number };
  stateDir: string | undefined;
  /** Whether what the checkout chose may run (servers, checkers, interpreters from inside it). */
  trust: WorkspaceTrust;
  surfaces: SurfaceGrant[];
  resources: ConnectedResources;
}

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly problems: string[] = [],
  ) {
    super(problems.length ? `${message}\n${problems.map((p) => `  ${p}`).join("\n")}` : message);
    this.name = "ConfigError";
  }
}

export function readConfigFile(path: string): RunConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(`Cannot read the run config ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`The run config ${path} is not valid JSON: ${whereJsonBreaks(text, (error as Error).message, path)}`);
  }
  return parseConfig(json, `run config ${path}`);
}

/** Line, column, what JSON needs there, and what to do: the parser's own message names none of them. */
function whereJsonBreaks(text: string, parserMessage: string, path: string): string {
  const at = jsonBreak(text);
  if (!at) return parserMessage;
  const cut = at.found === "the end of the file" ? " The file ends too early (cut short?): complete it" : " Fix it there";
  return `line ${at.line}, column ${at.column}: expected ${at.expected}, found ${at.found} (${parserMessage}).${cut}, then run \`sidecar check-config ${path}\`.`;
}

export function parseConfig(json: unknown, origin = "run config"): RunConfig {
  const result = v.safeParse(runConfigSchema, json);
  if (result.success) return result.output;
  throw new ConfigError(`The ${origin} is invalid:`, result.issues.map(describeIssue));
}

/** "resources.questions.port: expected an http(s) URL"; unknown keys are named as such. */
function describeIssue(issue: v.BaseIssue<unknown>): string {
  const path = v.getDotPath(issue) ?? "(top level)";
  if (issue.kind === "schema" && issue.type === "strict_object" && issue.expected === "never") {
    return `${path}: unknown key (check its spelling; unknown keys are not ignored)`;
  }
  return `${path}: ${issueText(issue)}`;
}

interface CommandLineOverrides {
  workdir?: string;
  listen?: string;
  /** Surface name → token, from token files and the environment (src/config/tokens.ts). */
  tokens?: Record<string, string>;
}

/** Completes a validated config; flags win over the file. */
export function settle(config: RunConfig, overrides: CommandLineOverrides = {}, cwd = process.cwd()): RunSettings {
  const workdir = resolveWorkdir(overrides.workdir ?? config.workdir ?? cwd, cwd);
  const listenText = overrides.listen ?? config.listen ?? DEFAULT_LISTEN;
  if (overrides.listen !== undefined) parseConfig({ listen: overrides.listen }, "--listen flag");
  const surfaces = Object.entries({ ...defaultSurfaceSettings(), ...(config.surfaces ?? {}) }).map(
    ([name, surface]) => ({ name, tiers: surface.tiers, token: overrides.tokens?.[name] ?? surface.token ?? mintSecret() }),
  );
  const tokens = new Set(surfaces.map((s) => s.token));
  if (tokens.size !== surfaces.length) throw new ConfigError("Two surfaces share a token; each surface needs its own.");
  return {
    workdir,
    conversation: config.conversation,
    listen: parseListen(listenText),
    stateDir: config.stateDir ? stateDirIn(workdir, config.stateDir) : undefined,
    trust: config.trust ?? "none",
    surfaces,
    resources: connected(config.resources ?? {}),
  };
}

/** The stateDir's absolute path; refused when it lies in the workspace and a symlink there leads it out (state would be written wherever the checkout chose). */
function stateDirIn(workdir: string, stateDir: string): string {
  const path = resolve(workdir, stateDir);
  if (leadsOutOfWorkdir(workdir, path)) {
    throw new ConfigError(`stateDir: ${JSON.stringify(stateDir)} is inside the workspace but a symlink on the way leads out of it (a cloned repository may have put it there); remove the link, or set stateDir outside the workspace.`);
  }
  return path;
}

/** The names of the surfaces a config ends up with: the defaults and its own. */
export function surfaceNames(config: RunConfig): string[] {
  return Object.keys({ ...DEFAULT_SURFACES, ...(config.surfaces ?? {}) });
}

/** A resource set to `false` is left out. */
function connected(resources: Resources): ConnectedResources {
  return Object.fromEntries(Object.entries(resources).filter(([, settings]) => settings !== false)) as ConnectedResources;
}

function defaultSurfaceSettings(): Record<string, SurfaceSettings> {
  return Object.fromEntries(Object.entries(DEFAULT_SURFACES).map(([name, tiers]) => [name, { tiers: [...tiers] }]));
}

/** The checkout's real path, or a ConfigError saying what is wrong with it. */
export function resolveWorkdir(path: string, cwd: string): string {
  const absolute = resolve(cwd, path);
  let stat;
  try {
    stat = statSync(absolute);
  } catch {
    throw new ConfigError(`workdir: ${absolute} does not exist; pass an existing checkout directory.`);
  }
  if (!stat.isDirectory()) throw new ConfigError(`workdir: ${absolute} is not a directory.`);
  return realpathSync(absolute);
}

function parseListen(text: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (!match || port > 65535) throw new ConfigError(`listen: expected a listen address like 127.0.0.1:0, got ${text}`);
  return { host: (match[1] ?? "127.0.0.1").replace(/^\[|\]$/g, ""), port };
}
