// What a control call reports, as data: where the program stopped (or that it still runs), and its output.
import type { DebugProtocol } from "@vscode/debugprotocol";
import { isInside } from "../workspace/paths.ts";
import { signalName, type ExitFacts } from "./exit-words.ts";
import type { AdapterEntry } from "./catalog.ts";
import type { DapConnection } from "./connection.ts";
import type { OutputRing } from "./output-ring.ts";
import { EXIT_OUTPUT_QUIET_MS, OUTPUT_QUIET_MS, outputSettled } from "./output-settle.ts";
import type { ReferenceTable } from "./references.ts";
import type { SourceLines } from "./source-lines.ts";

/**
 * What a report reads and records of a debug session. `DebugSession` (session.ts) is one; the
 * interface lives here so that the two files do not import each other.
 */
interface ReportedSession {
  readonly adapter: AdapterEntry;
  readonly root: string;
  readonly output: OutputRing;
  readonly sources: SourceLines;
  readonly references: ReferenceTable;
  readonly capabilities: DebugProtocol.Capabilities;
  readonly connection: DapConnection;
  readonly exit: ExitFacts;
  readonly pausing: boolean;
  lastFrame: ReportFrame | undefined;
  shownDepth: number;
  currentThread: number | undefined;
  threadList(): Promise<DebugProtocol.Thread[]>;
  threadName(id: number): Promise<string | undefined>;
}

/** Output carried by one report (head and tail); the rest stays readable through `output`. */
const REPORT_OUTPUT_CHARS = 4_000;
/** How many threads are inspected to find one in user code when the stop names none (delve after pause). */
const USER_THREAD_SCAN = 20;
/** How deep a paused thread's stack is searched for the project's code (runtime frames sit on top). */
const USER_FRAME_SCAN = 5;

export type StopOutcome =
  | { kind: "stopped"; body: DebugProtocol.StoppedEvent["body"] }
  | { kind: "exited" }
  | { kind: "ended"; reason: string }
  | { kind: "timeout" }
  /** Asked by status, not waited for. */
  | { kind: "running" };

export interface ReportFrame {
  id: number;
  name: string;
  file?: string;
  line?: number;
  source?: string;
}

/** Characters of program output a report left out, as absolute offsets `output` takes. */
interface OutputCut {
  from: number;
  to: number;
}

export interface StopReport {
  state: "stopped" | "running" | "exited" | "ended";
  reason?: string;
  description?: string;
  exception?: string;
  thread?: { id: number; name?: string };
  frame?: ReportFrame;
  exit_code?: number;
  /** The signal that killed the program; `signal_certain` false when the exit code only may mean it. */
  signal?: string;
  signal_number?: number;
  signal_certain?: boolean;
  waited_ms?: number;
  output: string;
  output_dropped?: number;
  /** Output left out of this report to keep it short; `output` with `offset: from` returns it. */
  output_cut?: OutputCut;
  /** Output was still arriving when the report was made (the bounded wait for it ran out). */
  output_incomplete?: boolean;
  /** With child processes debugged: the process this report is about (the one later calls act on). */
  process?: { pid?: number; role: "main" | "child" };
  /** With child processes debugged: what the other processes did since the last report ("child process 7 exited with code 0"). */
  process_events?: string[];
}

/**
 * Waits (bounded) for the program's output to catch up: after a stop, what it printed before the
 * stop may still be in a pipe or in the adapter's event queue; after an exit, buffers flushed on
 * the way out can trail the `terminated` event (delve: 1 launch in 5 said "exited" with none of it).
 */
async function outputCaughtUp(session: ReportedSession, outcome: StopOutcome): Promise<boolean> {
  if (outcome.kind === "exited") return outputSettled(session.output, EXIT_OUTPUT_QUIET_MS, true);
  if (outcome.kind !== "stopped") return true;
  // Output on the adapter's stdio travels apart from the stop event: give it one quiet window.
  // lldb's events put the program's output before the stop, so only output still arriving is waited for.
  return outputSettled(session.output, OUTPUT_QUIET_MS, session.adapter.programOutput === "adapter-stdio");
}

/** `outputComplete`: all the program's output is known to be in (its pipes ended), so nothing is waited for. */
export async function describeStop(session: ReportedSession, outcome: StopOutcome, waitedMs: number, outputComplete: boolean): Promise<StopReport> {
  // The wait for output to go quiet and the requests that read the stop overlap: in series they
  // added the quiet window (10 ms and more under load) to every report.
  const [caughtUp, report] = await Promise.all([outputComplete || outputCaughtUp(session, outcome), describeState(session, outcome, waitedMs)]);
  session.lastFrame = report.frame;
  const read = session.output.read("report");
  if (read.text.length > REPORT_OUTPUT_CHARS) {
    // Head and tail: the start says what ran, the end where it got to. The middle is named by
    // offsets, and `output` returns it (its reader has its own cursor and takes an offset).
    const half = REPORT_OUTPUT_CHARS / 2;
    report.output = `${read.text.slice(0, half)}\n…\n${read.text.slice(-half)}`;
    report.output_cut = { from: read.from + half, to: read.to - half };
  } else report.output = read.text;
  if (read.dropped > 0) report.output_dropped = read.dropped;
  if (!caughtUp) report.output_incomplete = true;
  return report;
}

async function describeState(session: ReportedSession, outcome: StopOutcome, waitedMs: number): Promise<StopReport> {
  switch (outcome.kind) {
    case "timeout":
      return { state: "running", waited_ms: waitedMs, output: "" };
    case "running":
      return { state: "running", output: "" };
    case "exited":
      return { state: "exited", ...exitFields(session.exit), output: "" };
    case "ended":
      return { state: "ended", description: outcome.reason, output: "" };
    case "stopped":
      break;
  }
  const body = asPause(session, outcome.body);
  // After a pause the adapter's pick is arbitrary (delve names no thread, or a runtime goroutine):
  // the thread worth showing is one running the project's code.
  const threadId =
    body.threadId === undefined || body.reason === "pause"
      ? await userThread(session, await session.threadList(), body.threadId)
      : body.threadId;
  if (threadId !== undefined) session.currentThread = threadId;
  const report: StopReport = { state: "stopped", reason: body.reason, output: "" };
  if (body.description) report.description = body.description;
  if (threadId !== undefined) {
    // After a pause or an exception the top frame is often the runtime's (Go's panic stops in
    // runtime.fatalpanic, a C abort in libc): the frame worth showing is the project's nearest.
    const framed = reportedFrame(session, threadId, body.reason === "pause" || body.reason === "exception");
    // A name not known yet is asked for after the frames and waited for only as long as they take:
    // debugpy answers one request at a time, and waiting for its `threads` after the first stop put
    // 40–60 ms into every launch. A name that comes later is known to the next report.
    const named = session.threadName(threadId);
    const shown = await framed;
    const name = await Promise.race([named, Promise.resolve(undefined)]);
    report.thread = { id: threadId, ...(name ? { name } : {}) };
    if (shown.frame) report.frame = shown.frame;
    session.shownDepth = shown.depth;
    if (body.reason === "exception") report.exception = await exceptionText(session, threadId, body);
  }
  return report;
}

/** The stop our own pause caused, worded as one: lldb-vscode calls it an exception (signal SIGSTOP). */
function asPause(session: ReportedSession, body: DebugProtocol.StoppedEvent["body"]): DebugProtocol.StoppedEvent["body"] {
  if (!session.pausing || body.reason !== "exception" || !/SIGSTOP/.test(body.description ?? body.text ?? "")) return body;
  const { description: _description, text: _text, ...rest } = body;
  return { ...rest, reason: "pause" };
}

/**
 * The frame a report shows: the top one, or after a pause the first in the project's code — a
 * paused goroutine sits in runtime.asyncPreempt, which says nothing about where the program was.
 */
export async function topFrame(session: ReportedSession, threadId: number, inProject = false): Promise<ReportFrame | undefined> {
  const frames = await projectFrames(session, threadId, inProject ? USER_FRAME_SCAN : 1);
  const frame = (inProject ? frames.find((f) => inRoot(session, f)) : undefined) ?? frames[0];
  return frame ? shownFrame(session, frame, threadId) : undefined;
}

/** The frame a stop report shows, and how many frames sit above it (steps start from it). */
async function reportedFrame(session: ReportedSession, threadId: number, inProject: boolean): Promise<{ frame?: ReportFrame; depth: number }> {
  const frames = await projectFrames(session, threadId, inProject ? USER_FRAME_SCAN : 1);
  const index = inProject ? Math.max(0, frames.findIndex((f) => inRoot(session, f))) : 0;
  const frame = frames[index];
  return frame ? { frame: shownFrame(session, frame, threadId), depth: index } : { depth: 0 };
}

async function projectFrames(session: ReportedSession, threadId: number, levels: number): Promise<DebugProtocol.StackFrame[]> {
  const body = await session.connection
    .request<DebugProtocol.StackTraceResponse>("stackTrace", { threadId, startFrame: 0, levels })
    .catch(() => undefined);
  return body?.stackFrames.slice(0, levels) ?? [];
}

function inRoot(session: ReportedSession, frame: DebugProtocol.StackFrame): boolean {
  return frame.source?.path !== undefined && isInside(session.root, frame.source.path);
}

export function shownFrame(session: ReportedSession, frame: DebugProtocol.StackFrame, threadId: number): ReportFrame {
  const path = frame.source?.path;
  const source = path ? session.sources.line(path, frame.line) : undefined;
  return {
    id: session.references.mint("frame", frame.id, threadId),
    name: frame.name,
    ...(path ? { file: session.sources.shown(path), line: frame.line } : {}),
    ...(source !== undefined ? { source } : {}),
  };
}

/** The preferred thread if it runs the project's code near its top, else the first thread that does. */
async function userThread(
  session: ReportedSession,
  threads: readonly DebugProtocol.Thread[],
  preferred: number | undefined,
): Promise<number | undefined> {
  const ordered = [...threads].sort((a, b) => Number(b.id === preferred) - Number(a.id === preferred));
  for (const thread of ordered.slice(0, USER_THREAD_SCAN)) {
    const frames = await projectFrames(session, thread.id, USER_FRAME_SCAN);
    if (frames.some((frame) => inRoot(session, frame))) return thread.id;
  }
  return preferred ?? threads[0]?.id;
}

async function exceptionText(session: ReportedSession, threadId: number, body: DebugProtocol.StoppedEvent["body"]): Promise<string> {
  if (session.capabilities.supportsExceptionInfoRequest) {
    const info = await session.connection
      .request<DebugProtocol.ExceptionInfoResponse>("exceptionInfo", { threadId })
      .catch(() => undefined);
    if (info) return [info.exceptionId, info.description].filter(Boolean).join(": ");
  }
  return body.text ?? body.description ?? "an exception (the adapter gave no text)";
}

function exitFields(exit: ExitFacts): Pick<StopReport, "exit_code" | "signal" | "signal_number" | "signal_certain"> {
  return {
    ...(exit.exitCode !== undefined ? { exit_code: exit.exitCode } : {}),
    ...(exit.signal ? { signal: signalName(exit.signal.number), signal_number: exit.signal.number, signal_certain: exit.signal.certain } : {}),
  };
}
