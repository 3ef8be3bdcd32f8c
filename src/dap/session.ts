// One live debug session: its state from the adapter's events, the control calls that move it, and its end.
import { rmSync } from "node:fs";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { ToolFailure } from "../answer/failure.ts";
import { type RunningAdapter } from "./adapter-process.ts";
import {
  sendExceptionFilters,
  sendFunctionBreakpoints,
  sendLineBreakpoints,
  type BreakpointBook,
  type BreakpointResult,
  type FunctionBreakpoint,
  type LineBreakpoint,
} from "./breakpoint-book.ts";
import { takesSource, type AdapterEntry } from "./catalog.ts";
import { DebuggeeProcesses } from "./debuggee-processes.ts";
import { EventGate } from "./event-gate.ts";
import { attachedPids, checkRunning, releaseAttached, type DetachCheck } from "./detach.ts";
import { childExitSentence, type ChildExit, type ExitFacts } from "./exit-words.ts";
import type { ExitWatch } from "./exit-watch.ts";
import { handshake, type Configured } from "./handshake.ts";
import { OutputRing } from "./output-ring.ts";
import { ProcessFamily, type FamilyStop } from "./process-family.ts";
import { DISCONNECT_TIMEOUT_MS, ProgramEnd } from "./program-end.ts";
import { ReferenceTable } from "./references.ts";
import { SourceLines } from "./source-lines.ts";
import { describeStop, type ReportFrame, type StopOutcome, type StopReport } from "./stop-report.ts";
import { boundedStop } from "./stop-wait.ts";
import { ThreadNames } from "./thread-names.ts";

/** Output categories that are the program's (or a build's) words; "console" is the adapter chatting. */
const PROGRAM_OUTPUT = new Set<string | undefined>([undefined, "stdout", "stderr", "important"]);

type SessionState = "starting" | "running" | "stopped" | "exited" | "ended";

interface SessionStart {
  adapter: AdapterEntry;
  running: RunningAdapter;
  /** What the session debugs, for messages: "launch src/app.py" or "attach to port 5678". */
  label: string;
  root: string;
  workdir: string;
  stopWaitMs: number;
  output: OutputRing;
  /** Files the session made and removes when it ends (the stdin text, delve's built binary). */
  scratch?: string[];
  /** Where an attached program listens: its pid is the port's owner's, or that owner's children's. */
  attachPort?: number;
  /** Debug the program's child processes too (debugpy's subProcess); off unless the launch asked. */
  childProcesses?: boolean;
  /** A child process's session: the family it joins (it shares its output and ids), its pid, and what reads its exit status. */
  child?: { family: ProcessFamily<DebugSession>; references: ReferenceTable; pid: number | undefined; exitWatch?: ExitWatch };
}

export interface StartedSession extends Configured {
  report: StopReport;
}

export class DebugSession {
  readonly adapter: AdapterEntry;
  readonly label: string;
  readonly root: string;
  readonly startedAt = Date.now();
  readonly output: OutputRing;
  readonly sources: SourceLines;
  state: SessionState = "starting";
  /** Why the session is over, when it is. */
  endedReason: string | undefined;
  /** The program's exit code or signal, once it has ended. */
  readonly exit: ExitFacts;
  lastStop: DebugProtocol.StoppedEvent["body"] | undefined;
  /** The frame the last report showed, for messages that must not consume output (a refusal). */
  lastFrame: ReportFrame | undefined;
  /** How many frames above the shown one sit on its thread (runtime or libc code after a pause). */
  shownDepth = 0;
  /** The thread of the last stop; the default for thread-taking operations. */
  currentThread: number | undefined;
  /** Set while our pause request waits: lldb-vscode reports that stop as a SIGSTOP "exception". */
  pausing = false;
  /** A launched debuggee is ours to kill; an attached one belongs to whoever started it. */
  ownsDebuggee = true;
  /** The exception filters in force. */
  exceptionFilters: string[] = [];
  /**
   * Names an evaluate bound as locals of a function frame where they were the module's globals
   * (debugpy writes an assignment into the frame's locals dict), by adapter frame id and name.
   */
  readonly evaluationLocals = new Set<string>();
  /** What `terminate` found when it detached from an attached program. */
  detached: DetachCheck | undefined;
  private readonly scratch: string[];
  /** Files breakpoints were sent for, so a detach can clear them. */
  readonly sentFiles = new Set<string>();
  private readonly attachPort: number | undefined;
  /** The launched program's processes, to kill with the session. */
  private readonly debuggee = new DebuggeeProcesses();
  capabilities: DebugProtocol.Capabilities = {};
  /** Shared by a family: every live id names something in the process that stopped last. */
  readonly references: ReferenceTable;
  /** This process and, with child_processes, the children debugged with it. */
  readonly family: ProcessFamily<DebugSession>;
  /** "main" for the launched or attached program, "child" for a child process it started. */
  readonly processRole: "main" | "child";
  /** The breakpoints the session was started with, for the children it attaches to later. */
  book: BreakpointBook | undefined;
  readonly workdir: string;
  private readonly running: RunningAdapter;
  readonly stopWaitMs: number;
  private readonly threads: ThreadNames;
  /** Opened by the adapter's `initialized` event; the handshake waits on it. */
  readonly initialized = new EventGate("initialized");
  private readonly afterStopHooks: (() => Promise<unknown>)[] = [];
  private readonly end: ProgramEnd;
  /** A child process's exit watcher: debugpy tells no child's exit status. */
  private readonly exitWatch: ExitWatch | undefined;

  constructor(start: SessionStart) {
    this.adapter = start.adapter;
    this.running = start.running;
    this.label = start.label;
    this.root = start.root;
    this.stopWaitMs = start.stopWaitMs;
    this.output = start.output;
    this.scratch = start.scratch ?? [];
    this.attachPort = start.attachPort;
    this.workdir = start.workdir;
    this.sources = new SourceLines(start.workdir);
    this.processRole = start.child ? "child" : "main";
    this.references = start.child?.references ?? new ReferenceTable();
    this.family = start.child?.family ?? new ProcessFamily<DebugSession>(this, start.childProcesses === true);
    if (start.child) this.debuggee.named(start.child.pid);
    this.exitWatch = start.child?.exitWatch;
    this.threads = new ThreadNames(this.connection);
    this.end = new ProgramEnd(this.adapter, this.running);
    this.exit = this.end.exit;
    this.connection.onEvent((event) => this.onEvent(event));
    this.connection.onReverseRequest((request) => this.onReverseRequest(request));
  }

  get connection() {
    return this.running.connection;
  }

  get adapterPid(): number | undefined {
    return this.running.child?.pid;
  }

  /** Whether this session's adapter sets breakpoints in `file` (a .py file is not delve's). */
  takes(file: string): boolean {
    return takesSource(this.adapter, file);
  }

  get live(): boolean {
    return this.state !== "exited" && this.state !== "ended";
  }

  /** A request bound to this session's connection (breakpoint helpers take it as a function). */
  readonly request = <R extends DebugProtocol.Response>(command: string, args?: unknown, timeoutMs?: number): Promise<R["body"]> =>
    this.connection.request<R>(command, args, timeoutMs);

  /** The handshake (handshake.ts), then the first stop. */
  async start(request: "launch" | "attach", args: Record<string, unknown>, book: BreakpointBook, signal?: AbortSignal): Promise<StartedSession> {
    this.ownsDebuggee = request === "launch";
    if (request === "launch" && typeof args.output === "string") this.scratch.push(args.output);
    const firstStop = this.nextStop();
    const configured = await this.configure(request, args, book);
    if (this.ownsDebuggee && this.adapterPid !== undefined) this.debuggee.noteBelow(this.adapterPid);
    const report = await this.settle(firstStop, signal);
    return { report, ...configured };
  }

  /**
   * A child process the adapter announced: attach to it with the configuration the adapter gave,
   * and send it the session's breakpoints; its stops reach whichever call waits.
   */
  async startChild(configuration: Record<string, unknown>, book: BreakpointBook): Promise<void> {
    await this.configure("attach", configuration, book);
  }

  private async configure(request: "launch" | "attach", args: Record<string, unknown>, book: BreakpointBook): Promise<Configured> {
    this.book = book;
    const configured = await handshake(this, request, args, book);
    if (this.state === "starting") this.state = "running";
    return configured;
  }

  setBreakpoints(file: string, specs: readonly LineBreakpoint[]): Promise<BreakpointResult[]> {
    this.sentFiles.add(file);
    return sendLineBreakpoints(this.request, this.capabilities, this.adapter.id, file, specs);
  }

  setFunctionBreakpoints(specs: readonly FunctionBreakpoint[]): Promise<BreakpointResult[]> {
    return sendFunctionBreakpoints(this.request, this.capabilities, this.adapter.id, specs);
  }

  /**
   * Sends the chosen exception filters (or, when none were chosen, `uncaught` and the adapter's
   * defaults); returns sentences about filters this adapter does not have.
   */
  async applyExceptionFilters(wanted: readonly string[] | undefined): Promise<string[]> {
    const applied = await sendExceptionFilters(this.request, this.capabilities, this.adapter.id, wanted);
    this.exceptionFilters = applied.filters;
    return applied.notes;
  }

  /** continue / next / stepIn / stepOut, then wait for the next stop. */
  async resume(command: "continue" | "next" | "stepIn" | "stepOut", threadId: number | undefined, signal?: AbortSignal): Promise<StopReport> {
    this.requireStopped(command === "continue" ? "continue" : "step");
    const thread = threadId ?? this.currentThread ?? (await this.anyThread());
    const next = this.nextStop();
    this.markRunning();
    try {
      await this.connection.request(command, { threadId: thread });
    } catch (error) {
      if (this.state === "running") this.state = "stopped"; // refused: the program did not move
      throw error;
    }
    return this.settle(next, signal);
  }

  async pause(threadId: number | undefined, signal?: AbortSignal): Promise<StopReport> {
    this.requireLive();
    if (this.state === "stopped") {
      throw new ToolFailure(`The program is already stopped (${this.lastStop?.reason ?? "paused"}); call stack, or continue first.`, { code: "program_stopped" });
    }
    const thread = threadId ?? this.currentThread ?? (await this.anyThread());
    const next = this.nextStop();
    this.pausing = true;
    try {
      await this.connection.request("pause", { threadId: thread });
      return await this.settle(next, signal);
    } finally {
      this.pausing = false;
    }
  }

  /** The state right now, as a report; output since the last report rides along. */
  async status(): Promise<StopReport> {
    if (this.state === "stopped") await this.runAfterStop();
    if (this.state === "stopped" && this.lastStop) return this.describe({ kind: "stopped", body: this.lastStop });
    if (this.state === "exited") return this.describe({ kind: "exited" });
    if (this.state === "ended") return this.describe({ kind: "ended", reason: this.endedReason ?? "the session ended" });
    return this.describe({ kind: "running" });
  }

  requireLive(): void {
    if (this.state === "ended") throw new ToolFailure(`The debug session is over: ${this.endedReason}. Launch again.`, { code: "session_ended" });
    if (this.state === "exited") {
      throw new ToolFailure(`The program has exited${this.exit.exitCode !== undefined ? ` with code ${this.exit.exitCode}` : ""}; launch it again (or restart) to debug further.`, { code: "session_ended" });
    }
  }

  requireStopped(what: string): void {
    this.requireLive();
    if (this.state !== "stopped") {
      throw new ToolFailure(`Cannot ${what}: the program is running, not stopped. Call pause first, or status to see whether it stopped since.`, { code: "program_running" });
    }
  }

  anyThread(): Promise<number> {
    return this.threads.any();
  }

  /** The adapter's current thread list; also refreshes the names reports use. */
  threadList(): Promise<DebugProtocol.Thread[]> {
    return this.threads.list();
  }

  /** A thread's name, asking the adapter only for a thread not seen since the last thread event. */
  threadName(id: number): Promise<string | undefined> {
    return this.threads.name(id);
  }

  /**
   * Ends the session. A launched program is killed with the adapter. An attached one is let go so
   * that it runs on: its breakpoints are cleared (a multi-client server keeps them and would halt
   * it with no client), a stopped program is continued (delve 1.20 leaves it halted otherwise, and
   * ignores suspendDebuggee), and then whether it runs is checked.
   */
  async close(reason: string): Promise<void> {
    if (this.processRole === "main") {
      this.family.closing = true;
      await Promise.all(this.family.children.map((child) => child.close(reason)));
    }
    const wasStopped = this.state === "stopped";
    // A child that said it terminated is on its way out by itself: killing it now would turn its
    // exit into a SIGKILL its parent sees (subprocess.run raised CalledProcessError).
    const childExited = this.processRole === "child" && this.state === "exited";
    if (this.state !== "ended" && !childExited) {
      this.state = "ended";
      this.endedReason ??= reason;
    }
    const pids = this.ownsDebuggee ? [] : attachedPids(this.debuggee.namedPid, this.attachPort);
    if (!this.connection.closed) {
      if (!this.ownsDebuggee) await releaseAttached(this, wasStopped);
      await this.connection
        .request("disconnect", { terminateDebuggee: this.ownsDebuggee && !childExited, suspendDebuggee: false }, DISCONNECT_TIMEOUT_MS)
        .catch(() => {});
    }
    await this.running.stop();
    if (!this.ownsDebuggee) this.detached = await checkRunning(pids);
    if (this.ownsDebuggee && !childExited) this.debuggee.kill();
    this.removeScratch();
    this.exitWatch?.stop();
    this.wake({ kind: "ended", reason: this.endedReason ?? reason });
  }


  /** Files the session made: the stdin text, the program delve built into the temp dir (dlv deletes it only when it ends normally). */
  private removeScratch(): void {
    for (const file of this.scratch) rmSync(file, { force: true });
  }

  /** The launched program's pid, from the adapter's process event or else from /proc. */
  get programPid(): number | undefined {
    return this.debuggee.pid;
  }

  private markRunning(): void {
    this.state = "running";
    this.references.moveOn();
  }

  /** Work for the next stop (removing run_to's temporary breakpoint), done before it is reported. */
  afterStop(hook: () => Promise<unknown>): void {
    this.afterStopHooks.push(hook);
  }

  private async runAfterStop(): Promise<void> {
    for (const hook of this.afterStopHooks.splice(0)) await hook().catch(() => {});
  }

  /** Registered before the request that causes the stop, so a fast stop event is never missed; any process of the family may be the one that stops. */
  nextStop(): Promise<FamilyStop<DebugSession>> {
    return this.family.next(this);
  }

  /** This process's pid and place in the family, for reports when children are debugged. */
  get processFacts(): { pid?: number; role: "main" | "child" } {
    return { ...(this.programPid !== undefined ? { pid: this.programPid } : {}), role: this.processRole };
  }

  /** Waits for the next stop, bounded; a cancelled call stops waiting at once (the program runs on). */
  async settle(next: Promise<FamilyStop<DebugSession>>, signal?: AbortSignal): Promise<StopReport> {
    const began = Date.now();
    const { member, outcome } = await boundedStop(next, this, this.stopWaitMs, signal);
    if (outcome.kind === "stopped") this.family.focus = member;
    return member.reportOutcome(outcome, Date.now() - began);
  }

  private async reportOutcome(outcome: StopOutcome, waitedMs: number): Promise<StopReport> {
    const outputComplete = outcome.kind === "exited" ? await this.end.finish() : false;
    if (outcome.kind === "stopped") await this.runAfterStop();
    return this.withProcess(await describeStop(this, outcome, waitedMs, outputComplete));
  }

  /** With child processes debugged, a report names the process it is about and what the children did meanwhile. */
  private async withProcess(report: StopReport): Promise<StopReport> {
    if (!this.family.childProcesses) return report;
    const events = await this.family.takeEvents();
    return { ...report, process: this.processFacts, ...(events.length ? { process_events: events } : {}) };
  }

  private async describe(outcome: StopOutcome): Promise<StopReport> {
    return this.withProcess(await describeStop(this, outcome, 0, false));
  }

  /** Tells the family this process stopped, exited or ended; a child's end is a sentence for the next report. */
  private wake(outcome: StopOutcome): void {
    if (outcome.kind === "stopped") return this.family.stopped(this, outcome);
    const sentence =
      outcome.kind === "exited"
        ? this.childExit().then((exit) => childExitSentence(this.programPid, exit))
        : `child process ${this.programPid ?? "?"} is no longer debugged: ${outcome.kind === "ended" ? outcome.reason : "its session ended"}`;
    this.family.ended(this, outcome, sentence);
    // A child that exited needs its connection no longer; the main process's session stays for status.
    if (outcome.kind === "exited" && this.processRole === "child") void this.close("it exited");
  }

  /** How this child process ended: its watcher's word, else the adapter's exit code, else why neither is known. */
  private async childExit(): Promise<ChildExit> {
    if (this.exitWatch) return this.exitWatch.ended();
    if (this.exit.exitCode !== undefined) return { code: this.exit.exitCode };
    return { unknown: "the adapter did not tell it" };
  }

  /** startDebugging (debugpy 1.8): a child process to attach to, taken only when the launch asked for children. */
  private onReverseRequest(request: DebugProtocol.Request): { success: true } | { success: false; message: string } {
    if (request.command === "startDebugging") {
      const args = request.arguments as DebugProtocol.StartDebuggingRequestArguments;
      if (this.family.announced(this, { ...args.configuration, request: args.request })) return { success: true };
    }
    return { success: false, message: `sidecar does not support the ${request.command} reverse request${request.command === "startDebugging" ? " unless the launch passed child_processes: true" : ""}` };
  }

  private onEvent(event: DebugProtocol.Event): void {
    switch (event.event) {
      case "initialized":
        this.initialized.open();
        break;
      case "stopped": {
        const body = (event as DebugProtocol.StoppedEvent).body;
        this.state = "stopped";
        this.lastStop = body;
        this.end.noteStop(body);
        if (body.threadId !== undefined) this.currentThread = body.threadId;
        this.wake({ kind: "stopped", body });
        break;
      }
      case "debugpyAttach":
        // debugpy 1.6 announces a child process with this event and the configuration to attach with.
        this.family.announced(this, event.body as Record<string, unknown>);
        break;
      case "thread":
        this.threads.forget(); // started or exited: the next report asks again
        break;
      case "continued":
        if (this.state === "stopped") this.markRunning();
        break;
      case "output": {
        const body = (event as DebugProtocol.OutputEvent).body;
        if (PROGRAM_OUTPUT.has(body.category)) this.output.append(body.output, body.category ?? "stdout");
        break;
      }
      case "process":
        this.debuggee.named((event as DebugProtocol.ProcessEvent).body.systemProcessId);
        break;
      case "exited":
        this.end.noteExitCode((event as DebugProtocol.ExitedEvent).body.exitCode);
        break;
      case "terminated":
        // While the session is being closed (TTL, terminate), a waiting call must hear why, not "exited".
        if (this.state === "ended") this.wake({ kind: "ended", reason: this.endedReason ?? "the session ended" });
        else {
          this.state = "exited";
          this.wake({ kind: "exited" });
        }
        break;
      case "sidecar/closed":
        if (this.live) {
          this.state = "ended";
          this.endedReason = `${(event.body as { reason: string }).reason} — the adapter died mid-session${
            this.running.stderrTail() ? ` (stderr: ${this.running.stderrTail().slice(-300)})` : ""
          }`;
          if (this.ownsDebuggee) this.debuggee.kill();
          void this.running.stop();
        }
        this.removeScratch();
        this.wake({ kind: "ended", reason: this.endedReason ?? "the session ended" });
        break;
    }
  }
}
