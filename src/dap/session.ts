// One live debug session: the adapter, the DAP handshake, state from events, and every control call.
import { rmSync } from "node:fs";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { ToolFailure } from "../answer/failure.ts";
import { type RunningAdapter } from "./adapter-process.ts";
import type { AdapterEntry } from "./catalog.ts";
import { descendants, stillRunning, type ProcessMark } from "./descendants.ts";
import { INITIALIZE_ARGUMENTS } from "./detect.ts";
import { OutputRing } from "./output-ring.ts";
import { ReferenceTable } from "./references.ts";
import { SourceLines } from "./source-lines.ts";
import { describeStop, type ReportFrame, type StopOutcome, type StopReport } from "./stop-report.ts";

/** A cold `go build` under dlv, or a big Python import, happens inside launch: give it room. */
export const LAUNCH_TIMEOUT_MS = 120_000;
/** How long an adapter that already answered launch may take to send initialized. */
export const INITIALIZED_TIMEOUT_MS = 30_000;
/** How long disconnect may take before the adapter is simply killed. */
export const DISCONNECT_TIMEOUT_MS = 3_000;

/** Output categories that are the program's (or a build's) words; "console" is the adapter chatting. */
const PROGRAM_OUTPUT = new Set<string | undefined>([undefined, "stdout", "stderr", "important"]);

export type SessionState = "starting" | "running" | "stopped" | "exited" | "ended";

export interface BreakpointResult {
  line: number;
  verified: boolean;
  /** The line the adapter actually put it on, when it moved it. */
  actual_line?: number;
  message?: string;
}

export interface SessionStart {
  adapter: AdapterEntry;
  running: RunningAdapter;
  /** What the session debugs, for messages: "launch src/app.py" or "attach to port 5678". */
  label: string;
  root: string;
  workdir: string;
  stopWaitMs: number;
  output: OutputRing;
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
  exitCode: number | undefined;
  lastStop: DebugProtocol.StoppedEvent["body"] | undefined;
  /** The frame the last report showed, for messages that must not consume output (a refusal). */
  lastFrame: ReportFrame | undefined;
  /** The thread of the last stop; the default for thread-taking operations. */
  currentThread: number | undefined;
  debuggeePid: number | undefined;
  /** Set while our pause request waits: lldb-vscode reports that stop as a SIGSTOP "exception". */
  pausing = false;
  /** A launched debuggee is ours to kill; an attached one belongs to whoever started it. */
  ownsDebuggee = true;
  /** A file the adapter builds the program into, to remove when the session ends. */
  private scratchBinary: string | undefined;
  /** The adapter's descendants after launch, when no `process` event named the debuggee. */
  private debuggeeFallback: ProcessMark[] = [];
  capabilities: DebugProtocol.Capabilities = {};
  readonly references = new ReferenceTable();
  private readonly running: RunningAdapter;
  private readonly stopWaitMs: number;
  private stopWaiters: ((outcome: StopOutcome) => void)[] = [];
  /** Names by thread id; a `threads` request per stop costs debugpy tens of ms, so they are kept. */
  private threadNames = new Map<number, string>();
  private initializedSeen = false;
  private initializedWaiters: (() => void)[] = [];

  constructor(start: SessionStart) {
    this.adapter = start.adapter;
    this.running = start.running;
    this.label = start.label;
    this.root = start.root;
    this.stopWaitMs = start.stopWaitMs;
    this.output = start.output;
    this.sources = new SourceLines(start.workdir);
    this.connection.onEvent((event) => this.onEvent(event));
  }

  get connection() {
    return this.running.connection;
  }

  get adapterPid(): number | undefined {
    return this.running.child?.pid;
  }

  get live(): boolean {
    return this.state !== "exited" && this.state !== "ended";
  }

  /**
   * The one request order all adapters accept: initialize → launch/attach (not awaited: debugpy
   * withholds its answer until configurationDone) → initialized → breakpoints → configurationDone
   * → the launch answer → the first stop.
   */
  async start(
    request: "launch" | "attach",
    args: Record<string, unknown>,
    breakpoints: ReadonlyMap<string, readonly number[]>,
    signal?: AbortSignal,
  ): Promise<{ report: StopReport; breakpoints: Record<string, BreakpointResult[]> }> {
    this.ownsDebuggee = request === "launch";
    if (request === "launch" && typeof args.output === "string") this.scratchBinary = args.output;
    this.capabilities =
      (await this.connection.request<DebugProtocol.InitializeResponse>("initialize", { ...INITIALIZE_ARGUMENTS, adapterID: this.adapter.id })) ?? {};
    const firstStop = this.nextStop();
    const started = this.connection.request(request, args, LAUNCH_TIMEOUT_MS);
    started.catch(() => {}); // awaited below; an early refusal also ends the wait for initialized
    await Promise.race([this.initialized(), started.then(() => this.initializedAfterLaunch())]);
    const placed: Record<string, BreakpointResult[]> = {};
    for (const [file, lines] of breakpoints) placed[file] = await this.setBreakpoints(file, lines);
    const filters = (this.capabilities.exceptionBreakpointFilters ?? [])
      .filter((filter) => filter.filter === "uncaught" || filter.default)
      .map((filter) => filter.filter);
    if (this.capabilities.exceptionBreakpointFilters) await this.connection.request("setExceptionBreakpoints", { filters });
    await this.connection.request("configurationDone");
    await started;
    if (this.state === "starting") this.state = "running";
    this.noteDebuggeeProcesses();
    return { report: await this.settle(firstStop, signal), breakpoints: placed };
  }

  async setBreakpoints(file: string, lines: readonly number[]): Promise<BreakpointResult[]> {
    const body = await this.connection.request<DebugProtocol.SetBreakpointsResponse>("setBreakpoints", {
      source: { path: file },
      breakpoints: lines.map((line) => ({ line })),
      lines,
    });
    return lines.map((line, index) => {
      const placed = body?.breakpoints[index];
      return {
        line,
        verified: placed?.verified ?? false,
        ...(placed?.line !== undefined && placed.line !== line ? { actual_line: placed.line } : {}),
        ...(placed?.message ? { message: placed.message } : {}),
      };
    });
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
      throw new ToolFailure(`The program is already stopped (${this.lastStop?.reason ?? "paused"}); call stack, or continue first.`);
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
  status(): Promise<StopReport> {
    if (this.state === "stopped" && this.lastStop) return this.describe({ kind: "stopped", body: this.lastStop }, 0);
    if (this.state === "exited") return this.describe({ kind: "exited" }, 0);
    if (this.state === "ended") return this.describe({ kind: "ended", reason: this.endedReason ?? "the session ended" }, 0);
    return this.describe({ kind: "running" }, 0);
  }

  requireLive(): void {
    if (this.state === "ended") throw new ToolFailure(`The debug session is over: ${this.endedReason}. Launch again.`);
    if (this.state === "exited") {
      throw new ToolFailure(`The program has exited${this.exitCode !== undefined ? ` with code ${this.exitCode}` : ""}; launch it again to debug further.`);
    }
  }

  requireStopped(what: string): void {
    this.requireLive();
    if (this.state !== "stopped") {
      throw new ToolFailure(`Cannot ${what}: the program is running, not stopped. Call pause first, or status to see whether it stopped since.`);
    }
  }

  async anyThread(): Promise<number> {
    const first = (await this.threadList())[0];
    if (!first) throw new ToolFailure("The debuggee reports no threads; it may be exiting. Call status.");
    return first.id;
  }

  /** The adapter's current thread list; also refreshes the names reports use. */
  async threadList(): Promise<DebugProtocol.Thread[]> {
    const body = await this.connection.request<DebugProtocol.ThreadsResponse>("threads").catch(() => undefined);
    const threads = body?.threads ?? [];
    this.threadNames = new Map(threads.map((thread) => [thread.id, thread.name]));
    return threads;
  }

  /** A thread's name, asking the adapter only for a thread not seen since the last thread event. */
  async threadName(id: number): Promise<string | undefined> {
    if (!this.threadNames.has(id)) await this.threadList();
    return this.threadNames.get(id);
  }

  /** Ends the session: polite disconnect, then the adapter's group and the debuggee are killed. */
  async close(reason: string): Promise<void> {
    if (this.state !== "ended") {
      this.state = "ended";
      this.endedReason ??= reason;
    }
    if (!this.connection.closed) {
      const terminateDebuggee = this.ownsDebuggee;
      await this.connection.request("disconnect", { terminateDebuggee }, DISCONNECT_TIMEOUT_MS).catch(() => {});
    }
    await this.running.stop();
    this.killDebuggee();
    this.removeScratchBinary();
    this.wake({ kind: "ended", reason: this.endedReason ?? reason });
  }

  /**
   * The program delve built into the temp dir (the launch's `output`): dlv deletes it when it
   * ends normally, not when it is killed, and each is megabytes.
   */
  private removeScratchBinary(): void {
    if (this.scratchBinary) rmSync(this.scratchBinary, { force: true });
  }

  /**
   * delve names no debuggee pid, and the debuggee sits in a process group of its own: if dlv dies,
   * killing dlv's group would leave the program running. Its pid is read from /proc instead.
   */
  private noteDebuggeeProcesses(): void {
    if (!this.ownsDebuggee || this.debuggeePid !== undefined || this.adapterPid === undefined) return;
    this.debuggeeFallback = descendants(this.adapterPid);
  }

  /** The launched program's pid, from the adapter's process event or else from /proc. */
  get programPid(): number | undefined {
    return this.debuggeePid ?? this.debuggeeFallback[0]?.pid;
  }

  private killDebuggee(): void {
    if (!this.ownsDebuggee) return;
    if (this.debuggeePid !== undefined) return killQuietly(this.debuggeePid);
    for (const mark of this.debuggeeFallback) if (stillRunning(mark)) killQuietly(mark.pid);
  }

  private markRunning(): void {
    this.state = "running";
    this.references.moveOn();
  }

  /** Registered before the request that causes the stop, so a fast stop event is never missed. */
  private nextStop(): Promise<StopOutcome> {
    return new Promise((resolve) => this.stopWaiters.push(resolve));
  }

  /** Waits for the next stop, bounded; a cancelled call stops waiting at once (the program runs on). */
  private async settle(next: Promise<StopOutcome>, signal?: AbortSignal): Promise<StopReport> {
    const began = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const bound = new Promise<StopOutcome>((resolve) => {
      timer = setTimeout(() => resolve({ kind: "timeout" }), this.stopWaitMs);
      onAbort = () => resolve({ kind: "timeout" });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
    const outcome = await Promise.race([next, bound]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    return this.describe(outcome, Date.now() - began);
  }

  private describe(outcome: StopOutcome, waitedMs: number): Promise<StopReport> {
    return describeStop(this, outcome, waitedMs);
  }

  /** lldb answers launch first and sends initialized after; an adapter that never does is stuck. */
  private initializedAfterLaunch(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stuck = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the adapter accepted the request but sent no initialized event within ${INITIALIZED_TIMEOUT_MS} ms`)),
        INITIALIZED_TIMEOUT_MS,
      );
    });
    return Promise.race([this.initialized(), stuck]).finally(() => clearTimeout(timer));
  }

  private initialized(): Promise<void> {
    if (this.initializedSeen) return Promise.resolve();
    return new Promise((resolve) => this.initializedWaiters.push(resolve));
  }

  private wake(outcome: StopOutcome): void {
    const waiters = this.stopWaiters;
    this.stopWaiters = [];
    for (const waiter of waiters) waiter(outcome);
  }

  private onEvent(event: DebugProtocol.Event): void {
    switch (event.event) {
      case "initialized":
        this.initializedSeen = true;
        for (const waiter of this.initializedWaiters.splice(0)) waiter();
        break;
      case "stopped": {
        const body = (event as DebugProtocol.StoppedEvent).body;
        this.state = "stopped";
        this.lastStop = body;
        if (body.threadId !== undefined) this.currentThread = body.threadId;
        this.wake({ kind: "stopped", body });
        break;
      }
      case "thread":
        this.threadNames.clear(); // started or exited: the next report asks again
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
        this.debuggeePid = (event as DebugProtocol.ProcessEvent).body.systemProcessId ?? this.debuggeePid;
        break;
      case "exited":
        this.exitCode = (event as DebugProtocol.ExitedEvent).body.exitCode;
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
          this.killDebuggee();
          void this.running.stop();
        }
        this.removeScratchBinary();
        this.wake({ kind: "ended", reason: this.endedReason ?? "the session ended" });
        break;
    }
  }
}

/** Kills the debuggee and its group; adapters like lldb start it in a group of its own. */
function killQuietly(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
