// Starts a sidecar process (binary, or a runtime running its source), waits for its ready line,
// and connects the official MCP SDK client. Shared by the smoke test, the runtime tests and bench/.
import { spawn, type ChildProcess } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export const READY_TIMEOUT_MS = 60_000;

export interface ReadyLine {
  url: string;
  surfaces: Record<string, string>;
  pid: number;
  version: string;
  [key: string]: unknown;
}

export interface SpawnedSidecar extends AsyncDisposable {
  child: ChildProcess;
  ready: ReadyLine;
  stderr(): string;
  connect(surface?: string): Promise<Client>;
  /** SIGTERM, then wait for exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** The official SDK client connected to a sidecar's MCP endpoint with a surface's bearer token. */
export async function connectClient(url: string, token: string, name: string): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

export async function spawnSidecar(
  argv: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; readyTimeoutMs?: number } = {},
): Promise<SpawnedSidecar> {
  const [command, ...args] = argv;
  if (!command) throw new Error("spawnSidecar needs a command");
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const ready = await new Promise<ReadyLine>((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(
      () => reject(new Error(`no ready line within ${options.readyTimeoutMs ?? READY_TIMEOUT_MS} ms; stderr:\n${stderr}`)),
      options.readyTimeoutMs ?? READY_TIMEOUT_MS,
    );
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf("\n");
      if (newline < 0) return;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(stdout.slice(0, newline)) as ReadyLine);
      } catch (error) {
        reject(new Error(`the first stdout line is not JSON: ${stdout.slice(0, newline)}`));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`sidecar exited with ${code} before it was ready; stderr:\n${stderr}`));
    });
  });
  const clients: Client[] = [];
  const exitCode = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
  const stop = async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    return exitCode;
  };
  return {
    child,
    ready,
    stderr: () => stderr,
    async connect(surface = "default") {
      const token = ready.surfaces[surface];
      if (!token) throw new Error(`the ready line has no surface ${surface}`);
      const client = await connectClient(ready.url, token, "sidecar-smoke");
      clients.push(client);
      return client;
    },
    stop,
    async [Symbol.asyncDispose]() {
      await stop();
    },
  };
}
