// The adapter catalog as data: what each adapter is called, how it is found, started and launched.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADAPTER_IDS, type AdapterId } from "../config/resources/debug-adapters.ts";
import { choosePython, llvmTools, versionedOnPath, which } from "./locate.ts";

// The ids are the config's (a run config may override each adapter by id).
export { ADAPTER_IDS, type AdapterId };

/** Where the binary was found, or exactly why not. */
export type BinaryLookup =
  | { ok: true; command: string[]; detail: string; python?: string }
  | { ok: false; reason: string; hint: string };

export interface LaunchRequest {
  program: string;
  args: readonly string[];
  cwd: string;
  /** The interpreter debugpy chose (so the debuggee runs in the same environment). */
  python?: string;
}

export interface AdapterEntry {
  id: AdapterId;
  /** A root is usable only when one of these exists in it (SPEC: marker AND binary). */
  rootMarkers: readonly string[];
  /** stdio: speak DAP over the child's pipes. tcp: the child listens and prints its address. */
  transport: "stdio" | "tcp";
  /** Programs this adapter takes when `launch` names no adapter. */
  claims(program: string, isDirectory: boolean): boolean;
  findBinary(root: string): BinaryLookup;
  launchArguments(request: LaunchRequest): Record<string, unknown>;
  /** attach: "adapter" starts the adapter and sends attach; "direct" speaks DAP to the port itself. */
  attachVia: "adapter" | "direct";
  attachArguments(port: number, root: string): Record<string, unknown>;
  /** debugpy's repl context accepts statements; the others evaluate expressions in watch context. */
  evaluateContext: "repl" | "watch";
  /** Scope/variable groups that are the adapter's bookkeeping, not the program's state. */
  hiddenVariables: readonly string[];
}

const LOCALHOST = "127.0.0.1";

function lookupOnPath(name: string, hint: string, args: string[] = []): BinaryLookup {
  const path = which(name);
  return path ? { ok: true, command: [path, ...args], detail: path } : { ok: false, reason: `\`${name}\` is not on PATH`, hint };
}

export const ADAPTERS: readonly AdapterEntry[] = [
  {
    id: "dart",
    rootMarkers: ["pubspec.yaml"],
    transport: "stdio",
    claims: (program) => program.endsWith(".dart"),
    findBinary: () => lookupOnPath("dart", "install the Dart SDK (https://dart.dev/get-dart) so `dart` is on PATH", ["debug_adapter"]),
    launchArguments: ({ program, args, cwd }) => ({ program, args, cwd }),
    attachVia: "adapter",
    attachArguments: (port) => ({ vmServiceUri: `http://${LOCALHOST}:${port}/` }),
    evaluateContext: "watch",
    hiddenVariables: [],
  },
  {
    id: "debugpy",
    rootMarkers: ["pyproject.toml", "setup.py", "requirements.txt"],
    transport: "stdio",
    claims: (program) => program.endsWith(".py"),
    findBinary: (root) => {
      const choice = choosePython(root);
      if (!choice.ok) return choice;
      return { ok: true, command: [choice.python, "-m", "debugpy.adapter"], detail: `debugpy with ${choice.where}`, python: choice.python };
    },
    launchArguments: ({ program, args, cwd, python }) => ({
      type: "python",
      request: "launch",
      program,
      args,
      cwd,
      console: "internalConsole",
      justMyCode: true,
      // With subprocess debugging on, a child Python process waits for a client to attach to it
      // (debugpyAttach), which this client does not do: the program hung for ever.
      subProcess: false,
      ...(python ? { python: [python] } : {}),
    }),
    // `debugpy --listen` runs its own adapter on that port: the client speaks DAP to it directly.
    attachVia: "direct",
    attachArguments: (port) => ({ type: "python", request: "attach", connect: { host: LOCALHOST, port }, justMyCode: true }),
    evaluateContext: "repl",
    hiddenVariables: ["special variables", "function variables", "class variables", "protected variables"],
  },
  {
    id: "lldb",
    rootMarkers: ["Cargo.toml", "CMakeLists.txt"],
    transport: "stdio",
    claims: () => true, // a native executable: whatever the others do not claim
    findBinary: () => {
      // LLVM 18+ calls it lldb-dap; older releases ship the same adapter as lldb-vscode.
      const candidates = [
        which("lldb-dap"),
        ...versionedOnPath("lldb-dap"),
        ...versionedOnPath("lldb-vscode"),
        which("lldb-vscode"),
        ...llvmTools("lldb-dap"),
        ...llvmTools("lldb-vscode"),
      ].filter((path): path is string => path !== undefined);
      const path = candidates[0];
      if (path) return { ok: true, command: [path], detail: path };
      return {
        ok: false,
        reason: "no lldb-dap, lldb-dap-NN, lldb-vscode-NN or /usr/lib/llvm-*/bin/lldb-{dap,vscode} found",
        hint: "apt install lldb-16 (ships lldb-vscode-16) or lldb-19 (ships lldb-dap-19)",
      };
    },
    launchArguments: ({ program, args, cwd }) => ({ program, args, cwd }),
    attachVia: "adapter",
    // lldb-vscode runs attachCommands asynchronously and may check the process before gdb-remote
    // has connected ("process unloaded during launch or attach"): connect synchronously.
    attachArguments: (port) => ({
      attachCommands: ["script lldb.debugger.SetAsync(False)", `gdb-remote ${LOCALHOST}:${port}`, "script lldb.debugger.SetAsync(True)"],
    }),
    evaluateContext: "watch",
    hiddenVariables: [],
  },
  {
    id: "delve",
    rootMarkers: ["go.mod"],
    transport: "tcp",
    claims: (program, isDirectory) => isDirectory || program.endsWith(".go"),
    findBinary: () => lookupOnPath("dlv", "apt install delve golang-go", ["dap"]),
    // The built binary goes to the temp dir: dlv's default (__debug_bin in the checkout) litters it.
    launchArguments: ({ program, args, cwd }) => ({ mode: "debug", program, args, cwd, output: scratchBinary() }),
    attachVia: "direct",
    attachArguments: () => ({ mode: "remote" }),
    evaluateContext: "watch",
    hiddenVariables: [],
  },
];

let scratchCount = 0;

function scratchBinary(): string {
  return join(tmpdir(), `sidecar-debug-${process.pid}-${++scratchCount}`);
}

export function adapterById(id: AdapterId): AdapterEntry {
  const entry = ADAPTERS.find((adapter) => adapter.id === id);
  if (!entry) throw new Error(`no adapter ${id} in the catalog`);
  return entry;
}

/** The adapter a program belongs to when the call names none: the first that claims it. */
export function adapterForProgram(program: string, isDirectory: boolean): AdapterEntry {
  return ADAPTERS.find((adapter) => adapter.id !== "lldb" && adapter.claims(program, isDirectory)) ?? adapterById("lldb");
}
