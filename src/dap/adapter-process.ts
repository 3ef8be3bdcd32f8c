// Starts a debug adapter (stdio or TCP) in its own process group and hands back a DAP connection.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readFileSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { trustedEnv, type ProgramTrust } from "../platform/executables.ts";
import { hasExited, spawnGroup, stopGroup } from "../process/group.ts";
import { DapConnection } from "./connection.ts";

/** How long a TCP adapter (dlv dap) may take to print the address it listens on. */
const ADAPTER_LISTEN_TIMEOUT_MS = 20_000;
/** How long connecting to a listening adapter or debuggee port may take. */
const CONNECT_TIMEOUT_MS = 10_000;
/** How much of an adapter's stderr is kept to explain a failure. */
const STDERR_TAIL_CHARS = 2_000;

export interface RunningAdapter {
  connection: DapConnection;
  /** Absent when we connected to a port someone else opened (delve attach). */
  child?: ChildProcess;
  /** The last lines the adapter wrote to stderr, for error messages. */
  stderrTail(): string;
  /** Stops the connection and the adapter's whole process group. */
  stop(): Promise<void>;
  /**
   * Resolves when the adapter's stdout and stderr have ended: every process that could write the
   * program's output there (the adapter, the program, its children) has closed them.
   */
  outputEnded: Promise<void>;
}

/**
 * How the adapter is reached: its stdio; a port it prints on stdout (`dlv dap --listen`); or a
 * port it writes to a file (`debugpy.adapter --port 0` with DEBUGPY_ADAPTER_ENDPOINTS).
 */
export type AdapterTransport = "stdio" | "tcp-banner" | "tcp-endpoints-file";

interface AdapterStart {
  command: readonly string[];
  transport: AdapterTransport;
  cwd: string;
  /**
   * Untrusted, the adapter's PATH (and so its debuggee's) is cut as every child's is
   * (platform/executables.ts): delve runs `go build`, and that `go` may not be one the checkout chose.
   */
  trust: ProgramTrust;
  /**
   * What a TCP adapter writes on its stdout/stderr (after delve's banner): the debuggee's own output,
   * since the debuggee inherits the adapter's stdio.
   */
  onProcessOutput?: (text: string, stream: "stdout" | "stderr") => void;
  /** The file a TCP adapter's debuggee reads as stdin (it inherits the adapter's); default /dev/null. */
  stdinFile?: string;
  /** Variables added to the adapter's environment (and so its debuggee's). */
  env?: Record<string, string>;
  /** "when started": the adapter (and the program it starts) keep our priority until the caller lowers them (spawnGroup). */
  lowerPriority?: "at spawn" | "when started";
}

export async function startAdapter(start: AdapterStart): Promise<RunningAdapter> {
  const [command, ...args] = start.command;
  if (!command) throw new Error("The adapter command is empty.");
  const tcp = start.transport !== "stdio";
  const endpoints = start.transport === "tcp-endpoints-file" ? endpointsFile() : undefined;
  const listenArgs = start.transport === "tcp-banner" ? ["--listen", "127.0.0.1:0"] : endpoints ? ["--host", "127.0.0.1", "--port", "0"] : [];
  // A TCP adapter speaks DAP on its socket, and its debuggee inherits its stdin: an open pipe
  // nobody writes left a program that reads stdin (delve's) waiting for ever. /dev/null gives EOF.
  const stdin = tcp && start.stdinFile ? openSync(start.stdinFile, "r") : undefined;
  let child: ChildProcess;
  try {
    child = spawnGroup(command, [...args, ...listenArgs], {
      ...(start.lowerPriority ? { lowerPriority: start.lowerPriority } : {}),
      cwd: start.cwd,
      stdio: [stdin ?? (tcp ? "ignore" : "pipe"), "pipe", "pipe"],
      env: trustedEnv({ ...process.env, ...start.env, ...(endpoints ? { DEBUGPY_ADAPTER_ENDPOINTS: endpoints } : {}) }, start.trust),
    });
  } finally {
    if (stdin !== undefined) closeSync(stdin); // the child has its own copy
  }
  let stderr = "";
  // A multi-byte character can be split across two reads: a decoder per stream keeps its bytes.
  const stderrText = new StringDecoder("utf8");
  child.stderr!.on("data", (chunk: Buffer) => {
    const text = stderrText.write(chunk);
    stderr = (stderr + text).slice(-STDERR_TAIL_CHARS);
    if (tcp) start.onProcessOutput?.(text, "stderr");
  });
  if (endpoints) {
    const stdoutText = new StringDecoder("utf8");
    child.stdout!.on("data", (chunk: Buffer) => start.onProcessOutput?.(stdoutText.write(chunk), "stdout"));
  }
  const spawnFailure = new Promise<never>((_, reject) => {
    child.once("error", (error) => reject(new Error(`Cannot start ${command}: ${error.message}.`)));
    child.once("exit", (code, signal) =>
      reject(new Error(`${command} exited (${signal ?? `code ${code}`}) before it was ready: ${stderr.trim() || "no stderr"}`)),
    );
  });
  spawnFailure.catch(() => {}); // only observed while starting; later exits are the session's business
  const stop = async () => {
    connection.close("the debug session ended");
    if (!hasExited(child)) await stopGroup(child);
    if (endpoints) rmSync(endpoints, { force: true });
  };
  let connection: DapConnection;
  try {
    if (tcp) {
      const address = await Promise.race([
        endpoints ? endpointAddress(endpoints, spawnFailure) : listenAddress(child, start.onProcessOutput),
        spawnFailure,
      ]);
      const socket = await Promise.race([connectTo(address.host, address.port), spawnFailure]);
      connection = new DapConnection(socket, socket);
    } else {
      connection = new DapConnection(child.stdout!, child.stdin!);
    }
  } catch (error) {
    if (!hasExited(child)) await stopGroup(child);
    if (endpoints) rmSync(endpoints, { force: true });
    throw error;
  }
  child.once("exit", (code, signal) => connection.close(`the debug adapter exited (${signal ?? `code ${code}`})`));
  const streamEnded = (stream: NodeJS.ReadableStream) => new Promise<void>((resolve) => stream.once("close", resolve));
  const outputEnded = Promise.all([streamEnded(child.stdout!), streamEnded(child.stderr!)]).then(() => {});
  return { connection, child, stderrTail: () => stderr.trim(), stop, outputEnded };
}

/** Speaks DAP straight to a port a debug server already listens on (dlv --headless; debugpy's adapter for a child process). */
export async function connectToDebugServer(port: number, host = "127.0.0.1"): Promise<RunningAdapter> {
  const socket = await connectTo(host, port);
  const connection = new DapConnection(socket, socket);
  return {
    connection,
    // The debuggee writes to its own terminal: nothing of it passes here.
    outputEnded: Promise.resolve(),
    stderrTail: () => "",
    stop: async () => {
      connection.close("the debug session ended");
      socket.destroy();
    },
  };
}

/** Reads "DAP server listening at: H:P" from dlv's stdout; later stdout is the debuggee's. */
function listenAddress(
  child: ChildProcess,
  onOutput: AdapterStart["onProcessOutput"],
): Promise<{ host: string; port: number }> {
  return new Promise((resolve, reject) => {
    let seen = "";
    let found = false;
    const timer = setTimeout(
      () => reject(new Error(`The adapter did not print its listen address within ${ADAPTER_LISTEN_TIMEOUT_MS} ms.`)),
      ADAPTER_LISTEN_TIMEOUT_MS,
    );
    const stdoutText = new StringDecoder("utf8");
    child.stdout!.on("data", (chunk: Buffer) => {
      const text = stdoutText.write(chunk);
      if (found) return onOutput?.(text, "stdout");
      seen += text;
      const match = /listening at:?\s*\[?([\w.:-]+?)\]?:(\d+)\s*\n/.exec(seen);
      if (!match) return;
      found = true;
      clearTimeout(timer);
      const rest = seen.slice(match.index + match[0].length);
      if (rest) onOutput?.(rest, "stdout");
      resolve({ host: match[1]!, port: Number(match[2]) });
    });
  });
}

let endpointFiles = 0;

/** Random: in the shared temp folder, a name another local user can guess is an endpoints file they can plant (their port, our client). */
function endpointsFile(): string {
  return join(tmpdir(), `sidecar-dap-endpoints-${process.pid}-${++endpointFiles}-${randomBytes(8).toString("hex")}.json`);
}

/** How often the endpoints file is looked for; debugpy writes it within tens of ms of starting. */
const ENDPOINTS_POLL_MS = 5;

/** Reads `{"client": {"host", "port"}}` from the file debugpy's adapter writes once it listens. */
async function endpointAddress(file: string, failed: Promise<never>): Promise<{ host: string; port: number }> {
  let settled = false;
  failed.catch(() => (settled = true));
  const deadline = Date.now() + ADAPTER_LISTEN_TIMEOUT_MS;
  while (!settled && Date.now() < deadline) {
    const client = readEndpoints(file);
    if (client) return client;
    await new Promise((resolve) => setTimeout(resolve, ENDPOINTS_POLL_MS));
  }
  throw new Error(`The adapter did not say where it listens within ${ADAPTER_LISTEN_TIMEOUT_MS} ms.`);
}

function readEndpoints(file: string): { host: string; port: number } | undefined {
  try {
    // Written with one print(): a partial read fails to parse and is read again.
    const client = (JSON.parse(readFileSync(file, "utf8")) as { client?: { host?: string; port?: number } }).client;
    return client?.host && client.port ? { host: client.host, port: client.port } : undefined;
  } catch {
    return undefined;
  }
}

function connectTo(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`Connecting to ${host}:${port} timed out after ${CONNECT_TIMEOUT_MS} ms.`));
    }, CONNECT_TIMEOUT_MS);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`Cannot connect to ${host}:${port}: ${error.message}. Is the debuggee listening there?`));
    });
  });
}
