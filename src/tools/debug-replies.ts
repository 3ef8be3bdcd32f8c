// The debug tool's words: breakpoint placements, the status of a session, and the output pages.
import type { BreakpointResult } from "../dap/breakpoint-book.ts";
import type { OutputPage } from "../dap/output-ring.ts";
import type { DebugSession } from "../dap/session.ts";
import { ttlWords, type DebugSupervisor } from "../dap/supervisor.ts";
import { relativeToWorkdir } from "../workspace/paths.ts";
import { shownPath } from "../workspace/shown-path.ts";
import type { LineVerdict } from "./debug-lines.ts";

function optionWords(b: BreakpointResult): string {
  const parts = [
    ...(b.condition !== undefined ? [`if ${b.condition}`] : []),
    ...(b.hitCondition !== undefined ? [`hits ${b.hitCondition}`] : []),
    ...(b.logMessage !== undefined ? [`logs ${JSON.stringify(b.logMessage)}`] : []),
  ];
  return parts.length ? ` [${parts.join("; ")}]` : "";
}

/** "app.py:12 verified [if i == 3]", "main.go:9 not verified, moved to line 10 (…)". */
export function breakpointLine(where: string, b: BreakpointResult): string {
  const at = b.function !== undefined ? `function ${b.function}` : `${shownPath(where)}:${b.line}`;
  return `${at} ${b.verified ? "verified" : "not verified"}${b.actual_line ? `, moved to line ${b.actual_line}` : ""}${optionWords(b)}${b.message ? ` (${b.message})` : ""}`;
}

/** Where the breakpoints sent at start landed: one the adapter refused or moved is never hit where the model expects. */
export function breakpointLines(workdir: string, placed: Record<string, BreakpointResult[]>, functions: BreakpointResult[]): string {
  const lines = [
    ...Object.entries(placed).flatMap(([file, results]) => results.map((b) => `breakpoint ${breakpointLine(relativeToWorkdir(workdir, file), b)}\n`)),
    ...functions.map((b) => `breakpoint ${breakpointLine("", b)}\n`),
  ];
  return lines.join("");
}

/** The lines the sidecar moved before sending them (a comment, a blank line), said before the adapter's answer. */
export function movedLines(where: string, verdicts: readonly LineVerdict[]): string[] {
  return verdicts.flatMap((verdict) =>
    verdict.kind === "moved" ? [`${shownPath(where)}:${verdict.line} is ${verdict.why === "blank" ? "blank" : "a comment"}: the breakpoint goes on line ${verdict.to}, the next line with code.`] : [],
  );
}

/** The session's standing facts for `status`: TTL, pids, exception filters, what the adapter cannot do. */
export function sessionFacts(supervisor: DebugSupervisor, session: DebugSession): { text: string; data: Record<string, unknown> } {
  const left = supervisor.ttlLeft(session);
  const caps = session.capabilities;
  const missing = [
    ...(caps.supportsConditionalBreakpoints ? [] : ["breakpoint conditions"]),
    ...(caps.supportsHitConditionalBreakpoints ? [] : ["hit conditions"]),
    ...(caps.supportsLogPoints ? [] : ["log messages"]),
    ...(caps.supportsFunctionBreakpoints ? [] : ["function breakpoints"]),
    ...(caps.supportsSetVariable ? [] : ["set_variable"]),
  ];
  const available = caps.exceptionBreakpointFilters ?? [];
  const processes = session.family.members.map((member) => ({
    ...member.processFacts,
    state: member.state,
    focus: member === session.family.focus,
    ...(member.state === "stopped" && member.lastFrame?.file ? { at: `${shownPath(member.lastFrame.file)}:${member.lastFrame.line}` } : {}),
  }));
  const lines = [
    `Session: ${session.label}, ${ttlWords(left)} of TTL left.`,
    available.length
      ? `Exception filters on: ${session.exceptionFilters.join(", ") || "none"} (available: ${available.map((f) => `${f.filter} — ${f.label}`).join("; ")}).`
      : `Exception filters: ${session.adapter.id} offers none to choose.`,
    ...(missing.length && session.live ? [`${session.adapter.id} does not support: ${missing.join(", ")}.`] : []),
    ...(session.family.childProcesses ? [`Processes (calls act on the one marked *): ${processes.map(processWords).join("; ")}.`] : []),
  ];
  return {
    text: `${lines.join("\n")}\n`,
    data: {
      program: session.label,
      adapter: session.adapter.id,
      ttl_left_s: Math.round(left / 1000),
      exception_filters: session.exceptionFilters,
      exception_filters_available: available.map((f) => f.filter),
      unsupported: missing,
      ...(session.adapterPid !== undefined ? { adapter_pid: session.adapterPid } : {}),
      ...(session.programPid !== undefined ? { debuggee_pid: session.programPid } : {}),
      ...(session.family.childProcesses ? { processes } : {}),
    },
  };
}

/** "*child 1234 stopped at work.py:3": one process of a session that debugs children. */
function processWords(process: { pid?: number; role: string; state: string; focus: boolean; at?: string }): string {
  return `${process.focus ? "*" : ""}${process.role} ${process.pid ?? "(pid unknown)"} ${process.state}${process.at ? ` at ${process.at}` : ""}`;
}

/** One page of the program's output, with where it sits in the whole and how to get the rest. */
export function outputPageText(page: OutputPage): string {
  const notes = [
    ...(page.dropped ? [`(${page.dropped} characters before this were dropped: the session keeps the last 64000)`] : []),
    ...(page.more ? [`(characters ${page.from}–${page.to} of ${page.total}; ${page.more} more follow: call output again, or pass offset ${page.to})`] : []),
  ];
  return [page.text || (page.from < page.total ? "" : "No new output."), ...notes].filter(Boolean).join("\n");
}
