// The one answer every control call gives: where the program stopped (or that it still runs), and its output.
import type { DebugProtocol } from "@vscode/debugprotocol";
import { capText } from "../tool/budget.ts";
import { isInside } from "../workspace/paths.ts";
import type { DapConnection } from "./connection.ts";
import type { OutputRing } from "./output-ring.ts";
import type { ReferenceTable } from "./references.ts";
import type { SourceLines } from "./source-lines.ts";
import { shownPath } from "../workspace/shown-path.ts";

/**
 * What a report reads and records of a debug session. `DebugSession` (session.ts) is one; the
 * interface lives here so that the two files do not import each other.
 */
export interface ReportedSession {
  readonly root: string;
  readonly output: OutputRing;
  readonly sources: SourceLines;
  readonly references: ReferenceTable;
  readonly capabilities: DebugProtocol.Capabilities;
  readonly connection: DapConnection;
  readonly exitCode: number | undefined;
  readonly pausing: boolean;
  lastFrame: ReportFrame | undefined;
  currentThread: number | undefined;
  threadList(): Promise<DebugProtocol.Thread[]>;
  threadName(id: number): Promise<string | undefined>;
}

/** Output carried by one report; the rest stays readable through `output`. */
const REPORT_OUTPUT_BYTES = 4_000;
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

export interface StopReport {
  state: "stopped" | "running" | "exited" | "ended";
  reason?: string;
  description?: string;
  exception?: string;
  thread?: { id: number; name?: string };
  frame?: ReportFrame;
  exit_code?: number;
  waited_ms?: number;
  output: string;
  output_dropped?: number;
  /** Characters of output left out of this report to keep it short; `output` returns them. */
  output_cut?: number;
}

/**
 * After the program exited, output can still be on its way: delve's arrives on dlv's stdout pipe,
 * apart from the DAP stream, and came after the `terminated` event in 1 launch in 5 ("The program
 * exited." with none of it). The report waits until the output has been quiet this long, within a bound.
 */
const EXIT_OUTPUT_QUIET_MS = 60;
const EXIT_OUTPUT_WAIT_MS = 400;

export async function describeStop(session: ReportedSession, outcome: StopOutcome, waitedMs: number): Promise<StopReport> {
  if (outcome.kind === "exited") await outputQuiet(session);
  const report = await describeState(session, outcome, waitedMs);
  session.lastFrame = report.frame;
  const read = session.output.read("report");
  const capped = capText(read.text, REPORT_OUTPUT_BYTES);
  report.output = capped.text;
  if (read.dropped > 0) report.output_dropped = read.dropped;
  // Cut from this report only: the `output` operation still has it (its reader has its own cursor).
  if (capped.cutBytes > 0) report.output_cut = capped.cutBytes;
  return report;
}

async function outputQuiet(session: ReportedSession): Promise<void> {
  const deadline = Date.now() + EXIT_OUTPUT_WAIT_MS;
  let since = Date.now();
  // Quiet counts from the exit itself too: output that stopped before it needs no wait beyond this.
  while (Date.now() < deadline) {
    const last = Math.max(session.output.lastAppendAt, since);
    if (Date.now() - last >= EXIT_OUTPUT_QUIET_MS) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
    since = Math.min(since, Date.now());
  }
}

async function describeState(session: ReportedSession, outcome: StopOutcome, waitedMs: number): Promise<StopReport> {
  switch (outcome.kind) {
    case "timeout":
      return { state: "running", waited_ms: waitedMs, output: "" };
    case "running":
      return { state: "running", output: "" };
    case "exited":
      return { state: "exited", ...(session.exitCode !== undefined ? { exit_code: session.exitCode } : {}), output: "" };
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
    const name = await session.threadName(threadId);
    report.thread = { id: threadId, ...(name ? { name } : {}) };
    // After a pause or an exception the top frame is often the runtime's (Go's panic stops in
    // runtime.fatalpanic, a C abort in libc): the frame worth showing is the project's nearest.
    const frame = await topFrame(session, threadId, body.reason === "pause" || body.reason === "exception");
    if (frame) report.frame = frame;
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

/** The report as the model reads it: one line of where, the source line, then the output. */
export function formatReport(report: StopReport): string {
  const lines: string[] = [];
  switch (report.state) {
    case "running":
      lines.push(
        report.waited_ms === undefined
          ? "The program is running; call pause to stop it where it is."
          : `Still running after ${report.waited_ms} ms; call pause to stop it, or status to check again.`,
      );
      break;
    case "exited":
      lines.push(`The program exited${report.exit_code !== undefined ? ` with code ${report.exit_code}` : ""}.`);
      break;
    case "ended":
      lines.push(`The debug session ended: ${report.description}.`);
      break;
    case "stopped": {
      const where = report.frame?.file ? `${shownPath(report.frame.file)}:${report.frame.line} in ${report.frame.name}` : report.frame?.name ?? "an unknown place";
      const thread = report.thread ? ` (thread ${report.thread.id}${report.thread.name ? ` ${report.thread.name}` : ""})` : "";
      lines.push(`Stopped (${report.reason}) at ${where}${thread}; frame id ${report.frame?.id ?? "?"}.`);
      if (report.exception) lines.push(`Exception: ${report.exception}`);
      else if (report.description && report.description !== report.reason) lines.push(report.description);
      if (report.frame?.source !== undefined) lines.push(`  ${report.frame.line} | ${report.frame.source}`);
      break;
    }
  }
  if (report.output) lines.push(`Output since the last report:\n${report.output.replace(/\n$/, "")}`);
  if (report.output_dropped) lines.push(`(${report.output_dropped} characters of output were dropped; the buffer is bounded)`);
  if (report.output_cut) lines.push(`(${report.output_cut} characters of output were left out of this report; the output operation returns them)`);
  return lines.join("\n");
}
