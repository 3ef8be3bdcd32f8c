// startSidecar(): spawn `sidecar serve` with a run config, read its ready line, and return typed
// handles: the MCP URL and tokens, the /harness routes, and a shutdown that waits for the exit.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunConfig } from "./run-config.ts";
import type { AfterWriteAnswer, PermissionDecision, PermissionRequest, ReadyLine, RouteError } from "./wire.ts";

/** How long to wait for the ready line unless told otherwise (language servers are not awaited; this is start-up). */
export const READY_TIMEOUT_MS = 60_000;
/** The end of stderr kept for error messages. */
const STDERR_TAIL_CHARS = 16_000;

export interface StartOptions {
  /** The command that runs sidecar: `["sidecar"]` (on PATH) unless given, e.g. `["/opt/sidecar"]`. */
  command?: readonly string[];
  /** The run config, written to a private temp file passed as `--config`. */
  config?: RunConfig;
  /** `serve`'s log options. */
  logLevel?: "error" | "warn" | "info" | "debug";
  logFormat?: "text" | "json";
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  readyTimeoutMs?: number;
}

export interface RunningSidecar {
  ready: ReadyLine;
  /** The MCP endpoint. */
  url: string;
  /** The operator page's link (the run's console; it answers questions when the sidecar is its own question port). */
  page?: string;
  /** Surface name → bearer token. */
  surfaces: Record<string, string>;
  child: ChildProcess;
  /** The end of what it wrote on stderr (its log). */
  stderr(): string;
  /** `POST /harness/permission`: a yes/no card for the operator; resolves with the decision. */
  permission(request: PermissionRequest, signal?: AbortSignal): Promise<PermissionDecision>;
  /** `POST /harness/after-write`: new diagnostics after the harness's own write tool changed files. */
  afterWrite(paths: string[], signal?: AbortSignal): Promise<AfterWriteAnswer>;
  /** SIGTERM, then the exit: 0 after a clean shutdown. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A /harness route answered an error: `code` is stable (docs/harness.md, "Errors of the routes"). */
export class HarnessRouteError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function startSidecar(options: StartOptions = {}): Promise<RunningSidecar> {
  const [command, ...prefix] = options.command ?? ["sidecar"];
  if (!command) throw new Error("startSidecar: command is empty");
  // The config may hold tokens: a folder only this user can read, removed once the sidecar read it.
  const folder = mkdtempSync(join(tmpdir(), "sidecar-config-"));
  const configFile = join(folder, "run-config.json");
  writeFileSync(configFile, JSON.stringify(options.config ?? {}), { mode: 0o600 });
  const args = [...prefix, "serve", "--config", configFile];
  if (options.logLevel) args.push("--log-level", options.logLevel);
  if (options.logFormat) args.push("--log-format", options.logFormat);
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  let ready: ReadyLine;
  try {
    ready = await readyLine(child, exited, options.readyTimeoutMs ?? READY_TIMEOUT_MS, () => stderr);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  // Whatever else it prints on stdout is read and dropped, so a full pipe never blocks it.
  child.stdout!.resume();
  const origin = ready.url.replace(/\/mcp$/, "");
  const harness = async <T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> => {
    const response = await fetch(`${origin}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ready.surfaces.default}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
    const reply = (await response.json().catch(() => undefined)) as T | RouteError | undefined;
    if (response.ok && reply !== undefined) return reply as T;
    const error = (reply as RouteError | undefined)?.error;
    throw new HarnessRouteError(response.status, error?.code ?? "unreadable_answer", error?.message ?? `${path} answered HTTP ${response.status}.`);
  };
  return {
    ready,
    url: ready.url,
    ...(ready.page ? { page: ready.page } : {}),
    surfaces: ready.surfaces,
    child,
    stderr: () => stderr,
    permission: (request, signal) => harness("/harness/permission", request, signal),
    afterWrite: (paths, signal) => harness("/harness/after-write", { paths }, signal),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

function readyLine(child: ChildProcess, exited: Promise<{ code: number | null }>, timeoutMs: number, stderr: () => string): Promise<ReadyLine> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(() => reject(new Error(`sidecar printed no ready line within ${timeoutMs} ms. Its stderr:\n${stderr()}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      const newline = stdout.indexOf("\n");
      if (newline < 0) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      try {
        resolve(JSON.parse(stdout.slice(0, newline)) as ReadyLine);
      } catch {
        reject(new Error(`sidecar's first line on stdout is not its JSON ready line: ${stdout.slice(0, newline)}`));
      }
    };
    child.stdout!.on("data", onData);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`sidecar could not be started: ${error.message}`));
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`sidecar exited (${code}) before it was ready. Its stderr:\n${stderr()}`));
    });
  });
}
