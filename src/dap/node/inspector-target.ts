// Starting `node --inspect-brk` for a launch, or finding the inspector of a running one for an attach.
import { spawn, type ChildProcess } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { moduleFormat } from "./module-format.ts";

/** How long node may take to print the inspector's address (a cold start on a loaded machine is well under 1 s). */
const INSPECTOR_LISTEN_TIMEOUT_MS = 20_000;

/** What node itself writes to stderr about the inspector: not the program's output. */
const INSPECTOR_LINES = /^(Debugger listening on ws:\/\/\S+|For help, see: https:\/\/nodejs\.org\/\S*|Debugger attached\.|Waiting for the debugger to disconnect\.\.\.|Debugger ending on ws:\/\/\S+)\r?\n/gm;

interface NodeLaunch {
  node: string;
  program: string;
  args: readonly string[];
  cwd: string;
  env?: Record<string, string>;
  /** tsx's loader, for a TypeScript program (`node --import <loader>`). */
  tsxLoader?: string;
}

/**
 * How node runs a TypeScript program through tsx. A CommonJS one goes through tsx's require hook
 * (`--require`): through `--import`, node runs even a CommonJS entry inside its ES module loader's
 * promise chain, where V8 predicts every throw caught, so pausing on uncaught exceptions never
 * stopped (and tsx's hooks ran in a loader thread the program did not start). An ES module needs
 * tsx's loader (`--import`).
 */
function tsxFlags(loader: string, program: string): string[] {
  if (moduleFormat(program) === "module") return ["--import", pathToFileURL(loader).href];
  return ["--require", join(dirname(loader), "cjs", "index.cjs")];
}

interface LaunchedNode {
  child: ChildProcess;
  webSocketUrl: string;
}

/**
 * Spawns the program under `node --inspect-brk=127.0.0.1:0` (a free port, only on loopback). Its
 * stdin and stdout are the adapter's, which the sidecar reads; its stderr passes through here, so
 * that node's own lines about the inspector (and the address to connect to) are taken out.
 */
export function launchNode(launch: NodeLaunch): Promise<LaunchedNode> {
  const loader = launch.tsxLoader ? tsxFlags(launch.tsxLoader, launch.program) : [];
  const child = spawn(launch.node, ["--inspect-brk=127.0.0.1:0", ...loader, launch.program, ...launch.args], {
    cwd: launch.cwd,
    env: { ...process.env, ...launch.env },
    stdio: ["inherit", "inherit", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let seen = "";
    let url: string | undefined;
    const decoder = new StringDecoder("utf8");
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`node did not open its inspector within ${INSPECTOR_LISTEN_TIMEOUT_MS} ms: ${seen.trim() || "no output"}`));
    }, INSPECTOR_LISTEN_TIMEOUT_MS);
    child.stderr!.on("data", (chunk: Buffer) => {
      seen += decoder.write(chunk);
      if (url === undefined) {
        const match = /Debugger listening on (ws:\/\/\S+)/.exec(seen);
        if (!match) return;
        url = match[1]!;
        clearTimeout(timer);
        resolve({ child, webSocketUrl: url });
      }
      // Whole lines only: an inspector line split across two reads must still be recognized.
      const end = seen.lastIndexOf("\n") + 1;
      const lines = seen.slice(0, end).replace(INSPECTOR_LINES, "");
      seen = seen.slice(end);
      if (lines) process.stderr.write(lines);
    });
    child.stderr!.on("end", () => {
      const rest = seen.replace(INSPECTOR_LINES, "");
      if (rest && url !== undefined) process.stderr.write(rest);
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`Cannot start ${launch.node}: ${error.message}.`));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (url === undefined) reject(new Error(`node exited (${signal ?? `code ${code}`}) before its inspector opened: ${seen.trim() || "no output"}`));
    });
  });
}

/** The WebSocket of the first target a `node --inspect=PORT` process lists at /json/list. */
export async function inspectorUrlAt(port: number, host = "127.0.0.1"): Promise<string> {
  let targets: { webSocketDebuggerUrl?: string; type?: string }[];
  try {
    const response = await fetch(`http://${host}:${port}/json/list`, { signal: AbortSignal.timeout(INSPECTOR_LISTEN_TIMEOUT_MS) });
    targets = (await response.json()) as typeof targets;
  } catch (error) {
    throw new Error(`No Node.js inspector answers at ${host}:${port} (${(error as Error).message}); start the program with node --inspect=${host}:${port}.`);
  }
  const target = targets.find((entry) => entry.webSocketDebuggerUrl && (entry.type ?? "node") === "node");
  if (!target?.webSocketDebuggerUrl) throw new Error(`The inspector at ${host}:${port} lists no Node.js target to debug.`);
  return target.webSocketDebuggerUrl;
}
