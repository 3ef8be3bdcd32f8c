// Steps from the frame a report showed (not the runtime's top frame), and running to a line.
import type { DebugProtocol } from "@vscode/debugprotocol";
import { ToolFailure } from "../answer/failure.ts";
import type { BreakpointBook, LineBreakpoint } from "./breakpoint-book.ts";
import type { DebugSession } from "./session.ts";
import type { StopReport } from "./stop-report.ts";

type StepCommand = "next" | "stepIn" | "stepOut";

interface StepOutcome {
  report: StopReport;
  /** Frames stepped out of first, to reach the frame the last report showed (names, innermost first). */
  climbed: string[];
  /** Set when a stop on the way (a breakpoint, an exception) ended the step early. */
  interrupted?: boolean;
}

/**
 * After a pause or an exception the report shows the project's frame, while the thread's top is
 * runtime or libc code (nanosleep, runtime.gopark): stepping there landed in nanosleep.c. So the
 * step first returns to the shown frame (one stepOut per frame above it), then steps from there.
 */
export async function stepFromShownFrame(session: DebugSession, command: StepCommand, threadId: number | undefined, signal?: AbortSignal): Promise<StepOutcome> {
  session.requireStopped("step");
  const onShownThread = threadId === undefined || threadId === session.currentThread;
  const depth = onShownThread ? session.shownDepth : 0;
  const climbed = depth > 0 ? await frameNames(session, depth) : [];
  const shownLine = session.lastFrame?.line;
  const outputs: string[] = [];
  let report: StopReport | undefined;
  for (let i = 0; i < depth; i++) {
    report = await session.resume("stepOut", session.currentThread, signal);
    outputs.push(report.output);
    if (report.state !== "stopped" || report.reason !== "step") {
      return { report: withEarlierOutput(report, outputs.slice(0, -1)), climbed, interrupted: true };
    }
  }
  // When the call was the last thing on the shown line, returning from it already reached the next
  // line (usleep, then `n += 1`): the step over (or into) that line is done.
  if (report && command !== "stepOut" && report.frame?.line !== shownLine) {
    return { report: withEarlierOutput(report, outputs.slice(0, -1)), climbed };
  }
  const last = await session.resume(command, depth > 0 ? session.currentThread : threadId, signal);
  return { report: withEarlierOutput(last, outputs), climbed };
}

async function frameNames(session: DebugSession, depth: number): Promise<string[]> {
  const body = await session.connection
    .request<DebugProtocol.StackTraceResponse>("stackTrace", { threadId: session.currentThread, startFrame: 0, levels: depth })
    .catch(() => undefined);
  return (body?.stackFrames ?? []).slice(0, depth).map((frame) => frame.name);
}

/** Output the intermediate steps' reports read belongs to the one report the agent sees. */
function withEarlierOutput(report: StopReport, earlier: string[]): StopReport {
  const before = earlier.join("");
  return before ? { ...report, output: before + report.output } : report;
}

interface RunToOutcome {
  report: StopReport;
  /** The line the temporary breakpoint landed on (the adapter may move it). */
  line: number;
  reached: boolean;
}

/**
 * Continues to `line` of `path` through a temporary breakpoint, which is removed at the next stop —
 * there, or wherever the program stopped first.
 */
export async function runTo(session: DebugSession, book: BreakpointBook, path: string, line: number, signal?: AbortSignal): Promise<RunToOutcome> {
  session.requireStopped("run to a line");
  if (!session.takes(path)) throw new ToolFailure(`${session.adapter.id} does not debug ${path}; run_to takes a source file of the program being debugged.`, { code: "invalid_arguments" });
  const kept: LineBreakpoint[] = book.lines.get(path) ?? [];
  const withTarget = kept.some((spec) => spec.line === line) ? kept : [...kept, { line }];
  const placed = (await session.setBreakpoints(path, withTarget)).find((result) => result.line === line);
  if (!placed?.verified) {
    await session.setBreakpoints(path, kept);
    throw new ToolFailure(`Cannot run to line ${line}: the adapter did not place a breakpoint there (${placed?.message ?? "no reason given"}).`);
  }
  const target = placed.actual_line ?? line;
  session.afterStop(() => session.setBreakpoints(path, book.lines.get(path) ?? []));
  const report = await session.resume("continue", undefined, signal);
  const reached = report.state === "stopped" && report.frame?.line === target && session.sources.shown(path) === report.frame.file;
  return { report, line: target, reached };
}
