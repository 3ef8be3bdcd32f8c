// The run's debug-session supervisor: one session per conversation, hard TTL, calls serialized.
import { statSync } from "node:fs";
import { dirname } from "node:path";
import { ToolFailure } from "../answer/failure.ts";
import { resolveInWorkdir } from "../workspace/paths.ts";
import { connectToDebugServer, startAdapter, type RunningAdapter } from "./adapter-process.ts";
import { ADAPTERS, adapterById, adapterForProgram, type AdapterEntry, type AdapterId } from "./catalog.ts";
import { DapRequestError } from "./connection.ts";
import { detectAll, detectStatic, type Detection, type Overrides } from "./detect.ts";
import { OutputRing } from "./output-ring.ts";
import { DebugSession, type BreakpointResult } from "./session.ts";
import type { StopReport } from "./stop-report.ts";
import { shownPath } from "../workspace/shown-path.ts";

/** A session's hard lifetime (SPEC: 30 minutes); the run config may shorten it. */
export const SESSION_TTL_MS = 30 * 60_000;
/** How long a control call waits for the next stop before answering "still running". */
export const STOP_WAIT_MS = 15_000;

/** How much output and stderr a failed launch quotes. */
const FAILURE_CONTEXT_CHARS = 1_500;

export interface SupervisorSettings {
  workdir: string;
  ttlMs?: number;
  stopWaitMs?: number;
  overrides?: Overrides;
}

interface Conversation {
  session?: DebugSession;
  breakpoints: Map<string, number[]>;
  queue: Promise<unknown>;
  ttlTimer?: ReturnType<typeof setTimeout>;
  /** Set when the TTL killed the session; the next calls say so instead of "no session". */
  expired?: string;
}

export class DebugSupervisor {
  readonly workdir: string;
  readonly ttlMs: number;
  readonly stopWaitMs: number;
  private readonly overrides: Overrides;
  private readonly conversations = new Map<string, Conversation>();

  constructor(settings: SupervisorSettings) {
    this.workdir = settings.workdir;
    this.ttlMs = settings.ttlMs ?? SESSION_TTL_MS;
    this.stopWaitMs = settings.stopWaitMs ?? STOP_WAIT_MS;
    this.overrides = settings.overrides ?? {};
  }

  /** Runs `work` after every earlier call of this conversation: a session is state, not parallel-safe. */
  serialized<T>(conversation: string, work: () => Promise<T>): Promise<T> {
    const entry = this.conversation(conversation);
    const result = entry.queue.then(work, work);
    entry.queue = result.catch(() => {});
    return result.catch(translateAdapterError);
  }

  adapters(): Promise<Detection[]> {
    return detectAll(this.workdir, this.overrides);
  }

  /** The live (or just finished) session, or a sentence saying why there is none. */
  session(conversation: string): DebugSession {
    const entry = this.conversation(conversation);
    if (entry.session) return entry.session;
    if (entry.expired) throw new ToolFailure(entry.expired);
    throw new ToolFailure("No debug session is running; set breakpoints, then launch a program or attach to one.");
  }

  async setBreakpoints(conversation: string, file: string, lines: readonly number[]): Promise<{ file: string; breakpoints: BreakpointResult[]; pending: boolean }> {
    const entry = this.conversation(conversation);
    const path = resolveInWorkdir(this.workdir, file);
    if (lines.length) entry.breakpoints.set(path, [...new Set(lines)]);
    else entry.breakpoints.delete(path);
    const unique = entry.breakpoints.get(path) ?? [];
    if (entry.session?.live) return { file: path, breakpoints: await entry.session.setBreakpoints(path, unique), pending: false };
    return {
      file: path,
      breakpoints: unique.map((line) => ({ line, verified: false, message: "pending: sent to the adapter at launch" })),
      pending: true,
    };
  }

  async launch(conversation: string, program: string, args: readonly string[], adapterId: AdapterId | undefined, signal?: AbortSignal) {
    const entry = this.conversation(conversation);
    await this.refuseSecond(entry);
    const path = resolveInWorkdir(this.workdir, program);
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch {
      throw new ToolFailure(`The program ${program} does not exist in the workspace; pass a path relative to the workspace root.`);
    }
    const adapter = adapterId ? adapterById(adapterId) : adapterForProgram(path, isDirectory);
    const found = this.usable(adapter, isDirectory ? path : dirname(path));
    const output = new OutputRing();
    const running = await startAdapter({
      command: found.command!,
      transport: adapter.transport,
      cwd: found.root!,
      onProcessOutput: (text, stream) => output.append(text, stream),
    }).catch((error: Error) => {
      throw new ToolFailure(`The ${adapter.id} adapter did not start: ${error.message}`);
    });
    const launchArgs = adapter.launchArguments({ program: path, args, cwd: found.root!, ...(found.python ? { python: found.python } : {}) });
    const label = `${shownPath(program)} (${adapter.id})`;
    return this.begin(entry, { adapter, running, output, root: found.root!, label }, "launch", launchArgs, signal);
  }

  async attach(conversation: string, port: number, adapterId: AdapterId | undefined, signal?: AbortSignal) {
    const entry = this.conversation(conversation);
    await this.refuseSecond(entry);
    const adapter = adapterId ? adapterById(adapterId) : this.onlyUsableAdapter();
    const found = this.usable(adapter, this.workdir);
    const output = new OutputRing();
    const running: RunningAdapter = await (adapter.attachVia === "direct"
      ? connectToDebugServer(port)
      : startAdapter({ command: found.command!, transport: adapter.transport, cwd: found.root! })
    ).catch((error: Error) => {
      throw new ToolFailure(`Cannot attach with ${adapter.id}: ${error.message}`);
    });
    const label = `attach to port ${port} (${adapter.id})`;
    const attachArgs = adapter.attachArguments(port, found.root!);
    return this.begin(entry, { adapter, running, output, root: found.root!, label }, "attach", attachArgs, signal);
  }

  async terminate(conversation: string): Promise<string> {
    const entry = this.conversation(conversation);
    const session = entry.session;
    if (!session) return entry.expired ?? "No debug session was running.";
    await this.end(entry, "terminated on request");
    entry.session = undefined;
    return session.ownsDebuggee
      ? `Ended the debug session (${session.label}); the adapter and the program were stopped.`
      : `Ended the debug session (${session.label}); the adapter was stopped and the program, which was attached to, was detached from and left running.`;
  }

  /** The conversation's session without waiting for the call queue (for observers: tests, status pages). */
  sessionFor(conversation: string): DebugSession | undefined {
    return this.conversations.get(conversation)?.session;
  }

  /** Milliseconds of TTL left for a session. */
  ttlLeft(session: DebugSession): number {
    return Math.max(0, session.startedAt + this.ttlMs - Date.now());
  }

  async close(): Promise<void> {
    await Promise.all([...this.conversations.values()].map((entry) => this.end(entry, "the sidecar run is shutting down")));
  }

  private conversation(id: string): Conversation {
    let entry = this.conversations.get(id);
    if (!entry) {
      entry = { breakpoints: new Map(), queue: Promise.resolve() };
      this.conversations.set(id, entry);
    }
    return entry;
  }

  private async refuseSecond(entry: Conversation): Promise<void> {
    const session = entry.session;
    if (session?.live) {
      const frame = session.state === "stopped" ? session.lastFrame : undefined;
      const where = frame?.file ? ` at ${shownPath(frame.file)}:${frame.line}` : "";
      const minutes = Math.ceil(this.ttlLeft(session) / 60_000);
      throw new ToolFailure(
        `A debug session is already running: ${session.label}, ${session.state}${where}, ${minutes} min of its TTL left. ` +
          "Call terminate first to end it; one session per conversation.",
      );
    }
    if (session) await this.end(entry, "replaced by a new session"); // exited or ended: release it
    entry.session = undefined;
    entry.expired = undefined;
  }

  private usable(adapter: AdapterEntry, start: string): Detection {
    const found = detectStatic(adapter, this.workdir, start, this.overrides);
    if (!found.usable) {
      throw new ToolFailure(`The ${adapter.id} adapter cannot serve this program: ${found.detail}.${found.hint ? ` To fix: ${found.hint}.` : ""}`);
    }
    return found;
  }

  private onlyUsableAdapter(): AdapterEntry {
    const usable = ADAPTERS.filter((adapter) => detectStatic(adapter, this.workdir, this.workdir, this.overrides).usable);
    if (usable.length === 1) return usable[0]!;
    throw new ToolFailure(
      usable.length
        ? `Several adapters fit this workspace (${usable.map((a) => a.id).join(", ")}); pass adapter to say which one the debuggee speaks.`
        : "No adapter is usable in this workspace; call adapters to see why, or pass adapter explicitly.",
    );
  }

  private async begin(
    entry: Conversation,
    start: { adapter: AdapterEntry; running: RunningAdapter; output: OutputRing; root: string; label: string },
    request: "launch" | "attach",
    args: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<{ report: StopReport; breakpoints: Record<string, BreakpointResult[]>; session: DebugSession }> {
    const session = new DebugSession({ ...start, workdir: this.workdir, stopWaitMs: this.stopWaitMs });
    entry.session = session;
    entry.ttlTimer = setTimeout(() => void this.expire(entry, session), this.ttlMs);
    entry.ttlTimer.unref?.();
    try {
      const started = await session.start(request, args, entry.breakpoints, signal);
      return { ...started, session };
    } catch (error) {
      const stderr = start.running.stderrTail();
      await this.end(entry, `${request} failed`);
      entry.session = undefined;
      // Build errors (delve) and tracebacks arrive as output, not in the refusal itself.
      const output = start.output.read("report").text.trim();
      const message = error instanceof Error ? error.message : String(error);
      throw new ToolFailure(
        `${request} of ${start.label} failed: ${message}` +
          (output ? `\nProgram and adapter output:\n${output.slice(-FAILURE_CONTEXT_CHARS)}` : "") +
          (stderr ? `\nAdapter stderr: ${stderr.slice(-FAILURE_CONTEXT_CHARS)}` : ""),
      );
    }
  }

  private async expire(entry: Conversation, session: DebugSession): Promise<void> {
    if (entry.session !== session) return;
    const minutes = this.ttlMs / 60_000;
    const shown = minutes >= 1 ? `${Math.round(minutes)} minutes` : `${Math.round(this.ttlMs / 1000)} seconds`;
    await this.end(entry, `the session's ${shown} TTL expired`);
    if (entry.session !== session) return;
    entry.session = undefined;
    entry.expired = `The debug session (${session.label}) expired after its ${shown} TTL; the adapter and the program were killed. Launch again to keep debugging.`;
  }

  private async end(entry: Conversation, reason: string): Promise<void> {
    clearTimeout(entry.ttlTimer);
    await entry.session?.close(reason);
  }
}

function translateAdapterError(error: unknown): never {
  if (error instanceof DapRequestError) throw new ToolFailure(error.message);
  throw error;
}
