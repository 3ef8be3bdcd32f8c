// The run's debug-session supervisor: one session at a time (a run serves one conversation), hard TTL, calls serialized.
import { statSync } from "node:fs";
import { dirname } from "node:path";
import { ToolFailure } from "../answer/failure.ts";
import { resolveInWorkdir } from "../workspace/paths.ts";
import { lowerGroupPriority } from "../process/group.ts";
import { connectToDebugServer, startAdapter, type RunningAdapter } from "./adapter-process.ts";
import { BreakpointBook, type BreakpointResult, type FunctionBreakpoint, type LineBreakpoint } from "./breakpoint-book.ts";
import { ADAPTERS, adapterById, adapterForProgram, withoutAdapterNoise, type AdapterEntry, type AdapterId } from "./catalog.ts";
import { DapRequestError } from "./connection.ts";
import { waitingForBackground } from "./debugpy-probe.ts";
import { probePythonInBackground } from "./locate.ts";
import { debuggeeVariables } from "./debuggee-env.ts";
import { debuggeeStdin, type StdinChoice } from "./debuggee-stdin.ts";
import { detachWords } from "./detach.ts";
import { detectAll, detectStatic, type Detection, type Overrides } from "./detect.ts";
import type { ProgramTrust } from "../platform/executables.ts";
import { shownPath } from "../workspace/shown-path.ts";
import { OutputRing } from "./output-ring.ts";
import { attachChildProcess } from "./child-process.ts";
import { DebugSession, type StartedSession } from "./session.ts";

/** A session's hard lifetime (30 minutes, docs/debug.md); the run config may shorten it. */
const SESSION_TTL_MS = 30 * 60_000;
/** How long a control call waits for the next stop before answering "still running". */
const STOP_WAIT_MS = 15_000;

/** How much output and stderr a failed launch quotes. */
const FAILURE_CONTEXT_CHARS = 1_500;
/** Shell operators that reach a program as literal arguments: no shell runs between. */
const SHELL_OPERATORS = new Set(["<", ">", ">>", "<<", "|", "2>", "2>&1", "&>", "&&", "||", ";"]);

interface SupervisorSettings {
  workdir: string;
  ttlMs?: number;
  stopWaitMs?: number;
  overrides?: Overrides;
  /** Whether binaries inside the workdir (its virtualenv, PATH entries in it) may run. */
  trustWorkspace: boolean;
}

interface LaunchOptions {
  program: string;
  args: readonly string[];
  adapter?: AdapterId;
  /** Set over the environment the program inherits (the adapter's). */
  env?: Readonly<Record<string, string>>;
  stdin?: StdinChoice;
  /** Debug the program's child processes too (debugpy). */
  subprocesses?: boolean;
}

export interface Started extends StartedSession {
  session: DebugSession;
}

interface DebugState {
  session?: DebugSession;
  book: BreakpointBook;
  queue: Promise<unknown>;
  ttlTimer?: ReturnType<typeof setTimeout>;
  /** Set when the TTL killed the session; the next calls say so instead of "no session". */
  expired?: string;
  /** The TTL's stop while it runs: a call waits for it, so it is told of the expiry, not of an ended session. */
  expiring?: Promise<void>;
  /** The last launch, for `restart`. */
  lastLaunch?: LaunchOptions;
}

/** "12 min 5 s", "40 s": one wording for the TTL wherever it is told. */
export function ttlWords(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes ? `${minutes} min ${seconds % 60} s` : `${seconds} s`;
}

export class DebugSupervisor {
  readonly workdir: string;
  readonly ttlMs: number;
  readonly stopWaitMs: number;
  private readonly overrides: Overrides;
  readonly trust: ProgramTrust;
  /** The breakpoints, the session and the call queue: one of each for the run. */
  private readonly state: DebugState = { book: new BreakpointBook(), queue: Promise.resolve() };
  /** The run's background ask of which python has debugpy, once begun (probePython). */
  private pythonProbe: Promise<void> | undefined;

  constructor(settings: SupervisorSettings) {
    this.workdir = settings.workdir;
    this.ttlMs = settings.ttlMs ?? SESSION_TTL_MS;
    this.stopWaitMs = settings.stopWaitMs ?? STOP_WAIT_MS;
    this.overrides = settings.overrides ?? {};
    this.trust = { workspace: settings.trustWorkspace, workdir: settings.workdir };
  }

  /** Runs `work` after every earlier debug call: a session is state, not parallel-safe. */
  serialized<T>(work: () => Promise<T>): Promise<T> {
    const entry = this.state;
    const result = entry.queue.then(() => entry.expiring).then(work, work);
    entry.queue = result.catch(() => {});
    return result.catch(translateAdapterError);
  }

  /**
   * Asks, once per run and in the background, which python has debugpy: through a pyenv shim that
   * costs 0.5–1.5 s, which a launch would otherwise spend. connect.ts begins it once the run is
   * quiet, at the lowest priority; a call that needs the answer (`waiting`) begins it if it has not
   * begun, raises it to the children's usual priority, and waits for it, rather than asking on the
   * main thread. Nothing to ask when the config names debugpy's command.
   */
  probePython(waiting = true): Promise<void> {
    if (this.overrides.debugpy?.command?.length) return Promise.resolve();
    this.pythonProbe ??= probePythonInBackground(this.workdir, this.trust);
    if (waiting) waitingForBackground();
    return this.pythonProbe;
  }

  async adapters(): Promise<Detection[]> {
    await this.probePython();
    return detectAll(this.workdir, this.overrides, this.trust);
  }

  /**
   * The live (or just finished) session, or a sentence saying why there is none. With child
   * processes debugged, the session of the process that stopped last, or of `pid` when the call
   * names one: calls act on it from then on.
   */
  session(pid?: number): DebugSession {
    const entry = this.state;
    if (entry.session) return pid === undefined ? entry.session.family.focus : focusOn(entry.session, pid);
    if (entry.expired) throw new ToolFailure(entry.expired, { code: "no_session" });
    throw new ToolFailure("No debug session is running; set breakpoints, then launch a program or attach to one.", { code: "no_session" });
  }

  /** The session if there is one, else why not: `status` answers either way. */
  sessionOrWhyNot(): DebugSession | { none: string; expired: boolean } {
    const entry = this.state;
    if (entry.session) return entry.session;
    if (entry.expired) return { none: entry.expired, expired: true };
    return { none: "No debug session is running; set breakpoints, then launch a program or attach to one.", expired: false };
  }

  book(): BreakpointBook {
    return this.state.book;
  }

  async setBreakpoints(file: string, specs: readonly LineBreakpoint[]): Promise<{ file: string; breakpoints: BreakpointResult[]; pending: boolean }> {
    const entry = this.state;
    const path = resolveInWorkdir(this.workdir, file);
    const kept = entry.book.setLines(path, specs);
    const session = entry.session;
    if (session?.live && session.takes(path)) {
      // Every process of the session gets them (children run the same sources); the main one's placement answers.
      const [placed] = await Promise.all(liveProcesses(session).map((member) => member.setBreakpoints(path, kept)));
      return { file: path, breakpoints: placed!, pending: false };
    }
    const why = session?.live ? `kept for a session that debugs this file; ${session.adapter.id} does not` : "pending: sent to the adapter at launch";
    return { file: path, breakpoints: kept.map((spec) => ({ ...spec, verified: false, message: why })), pending: true };
  }

  async setFunctionBreakpoints(specs: readonly FunctionBreakpoint[]): Promise<{ breakpoints: BreakpointResult[]; pending: boolean }> {
    const entry = this.state;
    entry.book.functions = [...new Map(specs.map((spec) => [spec.name, spec])).values()];
    if (entry.session?.live) {
      const [placed] = await Promise.all(liveProcesses(entry.session).map((member) => member.setFunctionBreakpoints(entry.book.functions)));
      return { breakpoints: placed!, pending: false };
    }
    return { breakpoints: entry.book.functions.map((spec) => ({ function: spec.name, ...spec, verified: false, message: "pending: sent to the adapter at launch" })), pending: true };
  }

  /** Chooses the exception filters; a live session gets them now, with words about those it lacks. */
  async setExceptionFilters(filters: readonly string[]): Promise<{ filters: string[]; notes: string[]; pending: boolean }> {
    const entry = this.state;
    entry.book.exceptionFilters = [...filters];
    if (!entry.session?.live) return { filters: [...filters], notes: [], pending: true };
    const [notes] = await Promise.all(liveProcesses(entry.session).map((member) => member.applyExceptionFilters(filters)));
    return { filters: entry.session.exceptionFilters, notes: notes ?? [], pending: false };
  }

  async launch(options: LaunchOptions, signal?: AbortSignal): Promise<Started> {
    const entry = this.state;
    await this.refuseSecond(entry);
    refuseShellOperators(options.args);
    const path = resolveInWorkdir(this.workdir, options.program);
    const isDirectory = programKind(path, options.program) === "directory";
    const adapter = options.adapter ? adapterById(options.adapter) : adapterForProgram(path, isDirectory);
    if (!adapter) throw new ToolFailure(noAdapterFor(options.program), { code: "unsupported" });
    if (options.subprocesses && adapter.id !== "debugpy") {
      throw new ToolFailure(`child_processes works with debugpy (Python programs) only; ${adapter.id} debugs the launched process alone. Launch without it.`, { code: "unsupported" });
    }
    if (adapter.id === "debugpy") await this.probePython();
    const found = this.usable(adapter, isDirectory ? path : dirname(path));
    const stdin = debuggeeStdin(this.workdir, adapter, options.stdin);
    const output = new OutputRing();
    const running = await startAdapter({
      ...(adapter.lowerPriorityAfterStart ? { lowerPriority: "when started" as const } : {}),
      command: found.command!,
      transport: adapter.transport,
      cwd: found.root!,
      trust: this.trust,
      onProcessOutput: (text, stream) => output.append(withoutAdapterNoise(adapter, text), stream),
      ...(adapter.stdinVia === "adapter" ? { stdinFile: stdin.path } : {}),
    }).catch((error: Error) => {
      stdin.remove();
      throw new ToolFailure(`The ${adapter.id} adapter did not start: ${error.message}`, { code: "server_unavailable" });
    });
    const launchArgs = adapter.launchArguments({
      program: path,
      args: options.args,
      cwd: found.root!,
      stdin: stdin.path,
      env: debuggeeVariables(options.env, this.trust),
      ...(options.subprocesses ? { subprocesses: true } : {}),
      ...(found.python ? { python: found.python } : {}),
    });
    entry.lastLaunch = options;
    const label = `${shownPath(options.program)} (${adapter.id})`;
    const childProcesses = options.subprocesses === true;
    const started = await this.begin(entry, { adapter, running, output, root: found.root!, label, scratch: stdin.scratch, childProcesses }, "launch", launchArgs, signal);
    if (found.note) started.notes.unshift(`Note: ${found.note}.`);
    if (adapter.id === "debugpy" && !childProcesses) {
      started.notes.push("Child processes are not debugged (they run, and their output is shown): launch with child_processes: true to stop at breakpoints in them.");
    }
    if (adapter.id === "node") started.notes.push("Child processes and worker threads are not debugged (they run, and their output is shown; a worker started is named in the output).");
    return started;
  }

  /** Ends the session (if any) and launches the last launched program again, with today's breakpoints. */
  async restart(signal?: AbortSignal): Promise<Started> {
    const entry = this.state;
    const last = entry.lastLaunch;
    if (!last) {
      throw new ToolFailure(
        entry.session ? "restart launches the program again, and this session was attached, not launched: attach again instead." : "Nothing to restart: launch a program first.",
        { code: entry.session ? "unsupported" : "no_session" },
      );
    }
    if (entry.session) await this.end(entry, "restarted");
    entry.session = undefined;
    return this.launch(last, signal);
  }

  async attach(port: number, adapterId: AdapterId | undefined, signal?: AbortSignal): Promise<Started> {
    const entry = this.state;
    await this.refuseSecond(entry);
    await this.probePython(); // choosing the adapter may ask for debugpy's python
    const adapter = adapterId ? adapterById(adapterId) : this.onlyAdapterWithProject();
    const found = this.usable(adapter, this.workdir);
    const output = new OutputRing();
    const running: RunningAdapter = await (adapter.attachVia === "direct"
      ? connectToDebugServer(port)
      : startAdapter({ command: found.command!, transport: adapter.transport, cwd: found.root!, trust: this.trust, ...(adapter.lowerPriorityAfterStart ? { lowerPriority: "when started" as const } : {}) })
    ).catch((error: Error) => {
      throw new ToolFailure(`Cannot attach with ${adapter.id}: ${error.message}`, { code: "server_unavailable" });
    });
    entry.lastLaunch = undefined;
    const label = `attach to port ${port} (${adapter.id})`;
    const attachArgs = adapter.attachArguments(port, found.root!);
    return this.begin(entry, { adapter, running, output, root: found.root!, label, attachPort: port }, "attach", attachArgs, signal);
  }

  async terminate(): Promise<string> {
    const entry = this.state;
    const session = entry.session;
    if (!session) return entry.expired ?? "No debug session was running.";
    // Children still debugged end with it; those that exited before are not counted again.
    const children = session.family.children.filter((child) => child.live).map((child) => child.programPid ?? "?");
    await this.end(entry, "terminated on request");
    entry.session = undefined;
    const childWords = children.length ? ` and its child process${children.length > 1 ? "es" : ""} ${children.join(", ")}` : "";
    if (session.ownsDebuggee) return `Ended the debug session (${session.label}); the adapter and the program${childWords} were stopped.`;
    return detachedWords(session);
  }

  /** The session without waiting for the call queue (for observers: tests, status pages). */
  currentSession(): DebugSession | undefined {
    return this.state.session;
  }

  /** Milliseconds of TTL left for a session. */
  ttlLeft(session: DebugSession): number {
    return Math.max(0, session.startedAt + this.ttlMs - Date.now());
  }

  async close(): Promise<void> {
    await this.end(this.state, "the sidecar run is shutting down");
  }

  private async refuseSecond(entry: DebugState): Promise<void> {
    const session = entry.session;
    if (session?.live) {
      const frame = session.state === "stopped" ? session.lastFrame : undefined;
      const where = frame?.file ? ` at ${shownPath(frame.file)}:${frame.line}` : "";
      throw new ToolFailure(
        `A debug session is already running: ${session.label}, ${session.state}${where}, ${ttlWords(this.ttlLeft(session))} of its TTL left. ` +
          "Call terminate first to end it (or restart to launch the same program again); one session at a time.",
      );
    }
    if (session) await this.end(entry, "replaced by a new session"); // exited or ended: release it
    entry.session = undefined;
    entry.expired = undefined;
  }

  private usable(adapter: AdapterEntry, start: string): Detection {
    const found = detectStatic(adapter, this.workdir, start, this.overrides, this.trust);
    if (!found.usable) {
      throw new ToolFailure(`The ${adapter.id} adapter cannot serve this program: ${found.detail}.${found.hint ? ` To fix: ${found.hint}.` : ""}`, { code: "server_unavailable" });
    }
    return found;
  }

  /** attach names no program: the one adapter whose project marker the workspace has. */
  private onlyAdapterWithProject(): AdapterEntry {
    const fitting = ADAPTERS.filter((adapter) => {
      const found = detectStatic(adapter, this.workdir, this.workdir, this.overrides, this.trust);
      return found.usable && found.marker !== undefined;
    });
    if (fitting.length === 1) return fitting[0]!;
    throw new ToolFailure(
      fitting.length
        ? `Several adapters fit this workspace (${fitting.map((a) => a.id).join(", ")}); pass adapter to say which one the debuggee speaks.`
        : "No project marker in the workspace says which adapter the debuggee speaks; pass adapter (debugpy, delve, lldb, dart or node).",
        { code: "invalid_arguments" },
    );
  }

  private async begin(
    entry: DebugState,
    start: { adapter: AdapterEntry; running: RunningAdapter; output: OutputRing; root: string; label: string; scratch?: string[]; attachPort?: number; childProcesses?: boolean },
    request: "launch" | "attach",
    args: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<Started> {
    const session = new DebugSession({ ...start, workdir: this.workdir, stopWaitMs: this.stopWaitMs });
    session.family.attachChild = (_parent, configuration) => void attachChildProcess(session, configuration);
    entry.session = session;
    entry.ttlTimer = setTimeout(() => {
      entry.expiring = this.expire(entry, session).finally(() => (entry.expiring = undefined));
    }, this.ttlMs);
    entry.ttlTimer.unref?.();
    try {
      const started = await session.start(request, args, entry.book, signal);
      lowerAfterStart(start.adapter, start.running, session);
      return { ...started, session };
    } catch (error) {
      lowerAfterStart(start.adapter, start.running, session);
      const stderr = start.running.stderrTail();
      // The TTL can run out during a long launch (a cold build): that, not the broken connection, is why.
      const endedFirst = session.state === "ended" ? session.endedReason : undefined;
      await this.end(entry, `${request} failed`);
      entry.session = undefined;
      // Build errors (delve) and tracebacks arrive as output, not in the refusal itself.
      const output = start.output.read("report").text.trim();
      const message = endedFirst ? `${endedFirst} before it finished` : error instanceof Error ? error.message : String(error);
      throw new ToolFailure(
        `${request} of ${start.label} failed: ${message}` +
          (output ? `\nProgram and adapter output:\n${output.slice(-FAILURE_CONTEXT_CHARS)}` : "") +
          (stderr ? `\nAdapter stderr: ${stderr.slice(-FAILURE_CONTEXT_CHARS)}` : ""),
        { code: error instanceof DapRequestError ? "server_error" : "failed" },
      );
    }
  }

  private async expire(entry: DebugState, session: DebugSession): Promise<void> {
    if (entry.session !== session) return;
    const minutes = this.ttlMs / 60_000;
    const shown = minutes >= 1 ? `${Math.round(minutes)} minutes` : `${Math.round(this.ttlMs / 1000)} seconds`;
    await this.end(entry, `the session's ${shown} TTL expired`);
    if (entry.session !== session) return;
    entry.session = undefined;
    entry.expired = session.ownsDebuggee
      ? `The debug session (${session.label}) expired after its ${shown} TTL; the adapter and the program were killed. Launch again to keep debugging.`
      : `The debug session (${session.label}) expired after its ${shown} TTL; the adapter was stopped. ${detachedWords(session)}`;
  }

  private async end(entry: DebugState, reason: string): Promise<void> {
    clearTimeout(entry.ttlTimer);
    await entry.session?.close(reason);
  }
}

/**
 * The process `pid` of the session's family. Moving to another process makes every frame id and
 * reference minted so far stale: they name frames of the process left, which calls no longer reach.
 */
function focusOn(main: DebugSession, pid: number): DebugSession {
  const before = main.family.focus;
  const member = main.family.focusOn(pid);
  if (!member) {
    const known = liveProcesses(main).map((process) => `${process.programPid ?? "?"} (${process.processRole}, ${process.state})`);
    throw new ToolFailure(`No process of this debug session has pid ${pid}; its processes: ${known.join(", ")}. status lists them.`, { code: "invalid_arguments" });
  }
  if (member !== before) main.references.moveOn();
  return member;
}

/** An adapter started at our priority (lowerPriorityAfterStart) goes below it now, with the program it started. */
function lowerAfterStart(adapter: AdapterEntry, running: RunningAdapter, session: DebugSession): void {
  if (adapter.lowerPriorityAfterStart && running.child) lowerGroupPriority(running.child, session.programPid);
}

/** The session's processes that are still debugged: the main one first, then its children. */
function liveProcesses(session: DebugSession): DebugSession[] {
  return session.family.members.filter((member) => member.live);
}

function detachedWords(session: DebugSession): string {
  return detachWords(session.label, session.detached ?? { running: undefined, stoppedStates: [], pids: [] });
}

/** The program path's kind, refusing what is neither a file nor a folder (a FIFO would block the open). */
function programKind(path: string, given: string): "file" | "directory" {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    throw new ToolFailure(`The program ${shownPath(given)} does not exist in the workspace; pass a path relative to the workspace root.`, { code: "file_not_found" });
  }
  if (stats.isDirectory()) return "directory";
  if (stats.isFile()) return "file";
  throw new ToolFailure(`The program ${shownPath(given)} is not a regular file or a folder (a pipe, socket or device); pass the program's file.`, { code: "not_a_regular_file" });
}

function noAdapterFor(program: string): string {
  return (
    `No debug adapter here takes ${shownPath(program)}: debugpy debugs .py files, delve .go files and Go package folders, dart .dart files, ` +
    "node .js/.mjs/.cjs and (through tsx) .ts/.mts/.cts files, and lldb compiled executables (ELF, Mach-O, PE). Shell and other scripts are not supported; build the program first, or pass adapter to force one."
  );
}

function refuseShellOperators(args: readonly string[]): void {
  const operator = args.find((arg) => SHELL_OPERATORS.has(arg));
  if (operator === undefined) return;
  throw new ToolFailure(
    `args are passed to the program as they are, with no shell in between: ${JSON.stringify(operator)} would reach it as a literal argument. ` +
      "To feed input, pass stdin (the text) or stdin_file (a workspace file); to capture output, call output.",
      { code: "invalid_arguments" },
  );
}

function translateAdapterError(error: unknown): never {
  if (error instanceof DapRequestError) throw new ToolFailure(error.message, { code: "server_error" });
  throw error;
}
