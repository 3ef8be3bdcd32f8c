// The adapter catalog as data: what each adapter is called, how it is found, started and launched.
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADAPTER_IDS, type AdapterId } from "../config/resources/debug-adapters.ts";
import type { AdapterTransport } from "./adapter-process.ts";
import { findExecutable, type ProgramTrust } from "../platform/executables.ts";
import { choosePython, llvmTools, versionedOnPath } from "./locate.ts";
import { findNodeTools } from "./node/locate-node.ts";
import { holdsGoFiles, isNativeExecutable } from "./program-kind.ts";

// The ids are the config's (a run config may override each adapter by id).
export { ADAPTER_IDS, type AdapterId };

/** Where the binary was found, or exactly why not. */
export type BinaryLookup =
  | { ok: true; command: string[]; detail: string; python?: string; note?: string }
  | { ok: false; reason: string; hint: string };

interface LaunchRequest {
  program: string;
  args: readonly string[];
  cwd: string;
  /** The interpreter debugpy chose (so the debuggee runs in the same environment). */
  python?: string;
  /** The file the program reads as its stdin: a workspace file, the given text, or /dev/null. */
  stdin: string;
  /** Variables set over the environment the program inherits from its adapter (launch's env). */
  env: Readonly<Record<string, string>>;
  /** Debug the program's child processes too (debugpy's subProcess); off unless asked. */
  subprocesses?: boolean;
}

export interface AdapterEntry {
  id: AdapterId;
  /** The nearest folder holding one of these is the program's working directory; none is needed. */
  rootMarkers: readonly string[];
  /** Source files this adapter sets breakpoints in; others are kept for a session that takes them. */
  sourceExtensions: readonly string[];
  transport: AdapterTransport;
  /**
   * Where the program's stdout/stderr arrive: as DAP output events, or on the adapter process's own
   * stdio, which the debuggee inherits (delve; debugpy with redirectOutput off, whose output events
   * lagged minutes behind a stop after a flood of prints).
   */
  programOutput: "events" | "adapter-stdio";
  /** stdin: "adapter" — the debuggee inherits the adapter's, so the adapter starts with the file; "launch" — in the launch arguments. */
  stdinVia: "adapter" | "launch";
  /** Programs this adapter takes when `launch` names no adapter. */
  claims(program: string, isDirectory: boolean): boolean;
  findBinary(root: string, trust: ProgramTrust): BinaryLookup;
  launchArguments(request: LaunchRequest): Record<string, unknown>;
  /** attach: "adapter" starts the adapter and sends attach; "direct" speaks DAP to the port itself. */
  attachVia: "adapter" | "direct";
  attachArguments(port: number, root: string): Record<string, unknown>;
  /** debugpy's repl context accepts statements; the others evaluate expressions in watch context. */
  evaluateContext: "repl" | "watch";
  /** Scope/variable groups that are the adapter's bookkeeping, not the program's state. */
  hiddenVariables: readonly string[];
  /**
   * delve 1.20 sends no `exited` event: it names the exit status in console output when the client
   * disconnects ("Process 123 has exited with status 3"). This reads the code from that line.
   */
  exitStatusAtDisconnect?: RegExp;
  /**
   * Lines the adapter itself writes on the stdio the program's output shares, about the sidecar's own
   * scratch files, that are not the program's: dropped from its output.
   */
  adapterNoise?: RegExp;
  /**
   * The signal a reported exit code may stand for, where the adapter folds deaths by signal into
   * exit codes; `certain` when nothing else can give that code.
   */
  signalOfExitCode?(code: number, lastStopSignal: number | undefined): { signal: number; certain: boolean } | undefined;
  /**
   * Started at the sidecar's priority and lowered once the launch or attach has answered: the
   * adapter and the program share one scheduling group, and lowered from the start, node's start-up
   * under it took 3–4 times longer on a loaded machine (bench/debug.ts: 3.98 s → 0.89 s to the first stop).
   */
  lowerPriorityAfterStart?: boolean;
  /** An assignment to a variable of this scope, as an expression, where setVariable would not reach it. */
  assignInScope?(scope: string, name: string, value: string): string | undefined;
}

const LOCALHOST = "127.0.0.1";

/**
 * The debugger's own words in a child process's stderr, which are not the program's: a child runs
 * python without -Xfrozen_modules=off (pydevd warns about it), and Debian's debugpy, whose pydevd is
 * not vendored, warns that "an incompatible copy of pydevd" was imported, listing 150 files.
 */
const CHILD_DEBUGGER_QUIET = {
  PYDEVD_DISABLE_FILE_VALIDATION: "1",
  PYTHONWARNINGS: [process.env.PYTHONWARNINGS, "ignore:incompatible copy of pydevd already imported:UserWarning"].filter(Boolean).join(","),
};

function lookupOnPath(name: string, hint: string, trust: ProgramTrust, args: string[] = []): BinaryLookup {
  const path = findExecutable(name, { trust });
  return path ? { ok: true, command: [path, ...args], detail: path } : { ok: false, reason: `\`${name}\` is not on PATH`, hint };
}

export const ADAPTERS: readonly AdapterEntry[] = [
  {
    id: "dart",
    rootMarkers: ["pubspec.yaml"],
    sourceExtensions: [".dart"],
    transport: "stdio",
    programOutput: "events",
    stdinVia: "launch",
    claims: (program) => program.endsWith(".dart"),
    findBinary: (_root, trust) => lookupOnPath("dart", "install the Dart SDK (https://dart.dev/get-dart) so `dart` is on PATH", trust, ["debug_adapter"]),
    launchArguments: ({ program, args, cwd, env }) => ({ program, args, cwd, env }),
    attachVia: "adapter",
    attachArguments: (port) => ({ vmServiceUri: `http://${LOCALHOST}:${port}/` }),
    evaluateContext: "watch",
    hiddenVariables: [],
  },
  {
    id: "debugpy",
    rootMarkers: ["pyproject.toml", "setup.py", "setup.cfg", "requirements.txt"],
    sourceExtensions: [".py", ".pyw"],
    // Over TCP the adapter's own stdio is free: the debuggee inherits it (see programOutput).
    transport: "tcp-endpoints-file",
    programOutput: "adapter-stdio",
    stdinVia: "adapter",
    claims: (program) => /\.pyw?$/.test(program),
    findBinary: (root, trust) => {
      const choice = choosePython(root, trust);
      if (!choice.ok) return choice;
      return {
        ok: true,
        command: [choice.python, "-m", "debugpy.adapter"],
        detail: `debugpy with ${choice.where}`,
        python: choice.python,
        ...(choice.note ? { note: choice.note } : {}),
      };
    },
    launchArguments: ({ program, args, cwd, env, python, subprocesses }) => ({
      type: "python",
      request: "launch",
      program,
      args,
      cwd,
      console: "internalConsole",
      // The program writes straight to the adapter's stdio, which the sidecar reads: no lag behind a stop.
      redirectOutput: false,
      // Unbuffered, so what it printed before a breakpoint is out when the stop is reported.
      env: { PYTHONUNBUFFERED: "1", ...(subprocesses ? CHILD_DEBUGGER_QUIET : {}), ...env },
      justMyCode: true,
      // A child process waits for a client to attach to it (the startDebugging reverse request):
      // only when the caller asked to debug children is there one.
      subProcess: subprocesses === true,
      ...(python ? { python: [python] } : {}),
    }),
    // `debugpy --listen` runs its own adapter on that port: the client speaks DAP to it directly.
    attachVia: "direct",
    attachArguments: (port) => ({ type: "python", request: "attach", connect: { host: LOCALHOST, port }, justMyCode: true }),
    evaluateContext: "repl",
    hiddenVariables: ["special variables", "function variables", "class variables", "protected variables"],
    // The launcher reports a death by signal N as exit code 256 - N (Popen's -N, low 8 bits), which
    // an exit(256 - N) would give too.
    signalOfExitCode: (code) => (code >= 192 && code < 256 ? { signal: 256 - code, certain: false } : undefined),
    // debugpy's setVariable and setExpression bind a new local in a function frame, never the module's
    // global (a program that read it afterwards saw the old value): the global is set through globals().
    assignInScope: (scope, name, value) =>
      scope === "Globals" && /^[A-Za-z_]\w*$/.test(name) ? `globals()[${JSON.stringify(name)}] = (${value})` : undefined,
  },
  {
    id: "lldb",
    rootMarkers: ["Cargo.toml", "CMakeLists.txt", "Makefile", "meson.build", "compile_commands.json"],
    sourceExtensions: [".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".m", ".mm", ".rs", ".swift", ".zig"],
    transport: "stdio",
    programOutput: "events",
    stdinVia: "launch",
    claims: (program, isDirectory) => !isDirectory && isNativeExecutable(program),
    findBinary: (_root, trust) => {
      // LLVM 18+ calls it lldb-dap; older releases ship the same adapter as lldb-vscode.
      const candidates = [
        findExecutable("lldb-dap", { trust }),
        ...versionedOnPath("lldb-dap", trust),
        ...versionedOnPath("lldb-vscode", trust),
        findExecutable("lldb-vscode", { trust }),
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
    // lldb-vscode-16 has no `stdio` launch argument; lldb's own setting redirects the program's stdin
    // (without it the program read a terminal nobody writes to, and waited for ever).
    // lldb-vscode-16 takes env as "NAME=value" strings, added to what the program inherits.
    launchArguments: ({ program, args, cwd, stdin, env }) => ({
      program,
      args,
      cwd,
      env: Object.entries(env).map(([name, value]) => `${name}=${value}`),
      initCommands: [`settings set target.input-path ${lldbQuoted(stdin)}`],
    }),
    attachVia: "adapter",
    // lldb-vscode runs attachCommands asynchronously and may check the process before gdb-remote
    // has connected ("process unloaded during launch or attach"): connect synchronously.
    attachArguments: (port) => ({
      attachCommands: ["script lldb.debugger.SetAsync(False)", `gdb-remote ${LOCALHOST}:${port}`, "script lldb.debugger.SetAsync(True)"],
    }),
    evaluateContext: "watch",
    hiddenVariables: [],
    // lldb reports a death by signal N as exit status N: the same number as the signal the program
    // last stopped on (a SIGSEGV, continued) says which it was.
    signalOfExitCode: (code, lastStopSignal) => (lastStopSignal !== undefined && code === lastStopSignal ? { signal: code, certain: true } : undefined),
  },
  {
    id: "delve",
    rootMarkers: ["go.mod", "go.work"],
    sourceExtensions: [".go"],
    transport: "tcp-banner",
    programOutput: "adapter-stdio",
    stdinVia: "adapter",
    claims: (program, isDirectory) => (isDirectory ? holdsGoFiles(program) : program.endsWith(".go")),
    findBinary: (_root, trust) => lookupOnPath("dlv", "apt install delve golang-go", trust, ["dap"]),
    // The built binary goes to the temp dir: dlv's default (__debug_bin in the checkout) litters it.
    launchArguments: ({ program, args, cwd, env }) => ({ mode: "debug", program, args, cwd, env, output: scratchBinary() }),
    attachVia: "direct",
    attachArguments: () => ({ mode: "remote" }),
    evaluateContext: "watch",
    hiddenVariables: [],
    exitStatusAtDisconnect: /has exited with status (-?\d+)/,
    // dlv removes the binary it built both when the program exits and when it is detached; when both
    // run, the second one prints this to the program's stderr, which is no line the program wrote.
    adapterNoise: /^could not remove \S*sidecar-debug-\d+-\d+-[0-9a-f]+: remove \S+: no such file or directory\r?\n/gm,
  },
  {
    id: "node",
    rootMarkers: ["package.json"],
    sourceExtensions: [".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"],
    // The sidecar's own adapter (src/dap/node/), run as `sidecar __dap-node`: it prints its port as
    // dlv does, and node inherits its stdio, so the program's output is read as delve's is.
    transport: "tcp-banner",
    programOutput: "adapter-stdio",
    stdinVia: "adapter",
    claims: (program, isDirectory) => !isDirectory && /\.([cm]?[jt]sx?)$/.test(program),
    findBinary: (root, trust) => findNodeTools(root, trust),
    launchArguments: ({ program, args, cwd, env }) => ({ program, args, cwd, env }),
    attachVia: "adapter",
    attachArguments: (port) => ({ port }),
    lowerPriorityAfterStart: true,
    evaluateContext: "watch",
    hiddenVariables: [],
    // node dies by signal N: the adapter reports 128 + N, as a shell would, which exit(128 + N) also gives.
    signalOfExitCode: (code) => (code > 128 && code < 160 ? { signal: code - 128, certain: false } : undefined),
  },
];

/** A path inside lldb's command syntax: quoted, with its quotes and backslashes escaped. */
function lldbQuoted(path: string): string {
  return `"${path.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

let scratchCount = 0;

/** Random: in the shared temp folder, a name another local user can guess is a file they can plant for delve to run. */
function scratchBinary(): string {
  return join(tmpdir(), `sidecar-debug-${process.pid}-${++scratchCount}-${randomBytes(8).toString("hex")}`);
}

/** The adapter's output text without the adapter's own lines about the sidecar's scratch files. */
export function withoutAdapterNoise(adapter: AdapterEntry, text: string): string {
  return adapter.adapterNoise ? text.replace(adapter.adapterNoise, "") : text;
}

export function adapterById(id: AdapterId): AdapterEntry {
  const entry = ADAPTERS.find((adapter) => adapter.id === id);
  if (!entry) throw new Error(`no adapter ${id} in the catalog`);
  return entry;
}

/** The adapter a program belongs to when the call names none, or undefined when none takes it. */
export function adapterForProgram(program: string, isDirectory: boolean): AdapterEntry | undefined {
  return ADAPTERS.find((adapter) => adapter.claims(program, isDirectory));
}

/** The adapter whose source files these are (breakpoints are replayed only into a session that takes them). */
export function takesSource(adapter: AdapterEntry, file: string): boolean {
  const lower = file.toLowerCase();
  return adapter.sourceExtensions.some((extension) => lower.endsWith(extension));
}
