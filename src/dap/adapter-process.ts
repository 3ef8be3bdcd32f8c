// Starts a debug adapter (stdio or TCP) in its own process group and hands back a DAP connection.
import type { ChildProcess } from "node:child_process";
import { connect, type Socket } from "node:net";
import { StringDecoder } from "node:string_decoder";
import { hasExited, spawnGroup, stopGroup } from "../process/group.ts";
import { DapConnection } from "./connection.ts";

/** How long a TCP adapter (dlv dap) may take to print the address it listens on. */
export const ADAPTER_LISTEN_TIMEOUT_MS = 20_000;
/** How long connecting to a listening adapter or debuggee port may take. */
export const CONNECT_TIMEOUT_MS = 10_000;
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
}

export interface AdapterStart {
  command: readonly string[];
  transport: "stdio" | "tcp";
  cwd: string;
  /** What a TCP adapter prints after its banner: the debuggee's own output (delve sends no output events). */
  onProcessOutput?: (text: string, stream: "stdout" | "stderr") => void;
}

export async function startAdapter(start: AdapterStart): Promise<RunningAdapter> {
  const [command, ...args] = start.command;
  if (!command) throw new Error("The adapter command is empty.");
  const tcp = start.transport === "tcp";
  const child = spawnGroup(command, tcp ? [...args, "--listen", "127.0.0.1:0"] : args, {
    cwd: start.cwd,
    // A TCP adapter speaks DAP on its socket, and its debuggee inherits its stdin: an open pipe
    // nobody writes left a program that reads stdin (delve's) waiting for ever. /dev/null gives EOF.
    stdio: [tcp ? "ignore" : "pipe", "pipe", "pipe"],
    env: process.env,
  });
  let stderr = "";
  // A multi-byte character can be split across two reads: a decoder per stream keeps its bytes.
  const stderrText = new StringDecoder("utf8");
  child.stderr!.on("data", (chunk: Buffer) => {
    const text = stderrText.write(chunk);
    stderr = (stderr + text).slice(-STDERR_TAIL_CHARS);
    if (tcp) start.onProcessOutput?.(text, "stderr");
  });
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
  };
  let connection: DapConnection;
  try {
    if (tcp) {
      const address = await Promise.race([listenAddress(child, start.onProcessOutput), spawnFailure]);
      const socket = await Promise.race([connectTo(address.host, address.port), spawnFailure]);
      connection = new DapConnection(socket, socket);
    } else {
      connection = new DapConnection(child.stdout!, child.stdin!);
    }
  } catch (error) {
    if (!hasExited(child)) await stopGroup(child);
    throw error;
  }
  child.once("exit", (code, signal) => connection.close(`the debug adapter exited (${signal ?? `code ${code}`})`));
  return { connection, child, stderrTail: () => stderr.trim(), stop };
}

/** Speaks DAP straight to a port a debug server already listens on (dlv --headless). */
export async function connectToDebugServer(port: number): Promise<RunningAdapter> {
  const socket = await connectTo("127.0.0.1", port);
  const connection = new DapConnection(socket, socket);
  return {
    connection,
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
