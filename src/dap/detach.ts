// Letting go of an attached program so that it runs on, and checking that it does before saying so.
import { readdirSync } from "node:fs";
import { procStatFields } from "../platform/proc-stat.ts";
import type { DapConnection } from "./connection.ts";
import { descendants } from "./descendants.ts";
import { portOwner } from "./port-owner.ts";

/** How long a detached program may take to leave the trace-stop (delve resumes it asynchronously). */
const DETACH_SETTLE_MS = 1_500;
/** How often its state is looked at meanwhile. */
const DETACH_POLL_MS = 25;
/** How long each clean-up request before a detach (clearing breakpoints, continue) may take. */
const DETACH_REQUEST_TIMEOUT_MS = 2_000;

/** What a detach needs of the session. */
interface Attached {
  connection: DapConnection;
  capabilities: { supportsFunctionBreakpoints?: boolean; exceptionBreakpointFilters?: unknown[] };
  sentFiles: ReadonlySet<string>;
  currentThread: number | undefined;
  lastStop: { threadId?: number } | undefined;
}

/**
 * Readies an attached program to be let go: its breakpoints are cleared (a multi-client server
 * keeps them and would halt it with no client), and a stopped program is continued (delve 1.20
 * leaves it halted otherwise, and ignores suspendDebuggee).
 */
export async function releaseAttached(session: Attached, wasStopped: boolean): Promise<void> {
  const quick = (command: string, args: unknown) => session.connection.request(command, args, DETACH_REQUEST_TIMEOUT_MS).catch(() => undefined);
  for (const file of session.sentFiles) await quick("setBreakpoints", { source: { path: file }, breakpoints: [], lines: [] });
  if (session.capabilities.supportsFunctionBreakpoints) await quick("setFunctionBreakpoints", { breakpoints: [] });
  if (session.capabilities.exceptionBreakpointFilters) await quick("setExceptionBreakpoints", { filters: [] });
  if (wasStopped) await quick("continue", { threadId: session.currentThread ?? session.lastStop?.threadId ?? 0 });
}

/** The attached program's pids: the one the adapter named, else what runs below the port's owner. */
export function attachedPids(named: number | undefined, port: number | undefined): number[] {
  if (named !== undefined) return [named];
  if (port === undefined) return [];
  const owner = portOwner(port);
  if (owner === undefined) return [];
  const children = descendants(owner).map((mark) => mark.pid);
  return children.length ? children : [owner];
}

export interface DetachCheck {
  /** true: every thread runs or sleeps; false: some are stopped; undefined: nothing could be checked. */
  running: boolean | undefined;
  /** The stopped threads' state letters ("t" traced stop, "T" job-control stop), when stopped. */
  stoppedStates: string[];
  pids: number[];
}

/** The state letters of every thread of `pid` (R, S, D, t, T, Z…); empty when it is gone. */
function threadStates(pid: number): string[] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    const state = procStatFields(pid)?.[0];
    return state ? [state] : [];
  }
  return tids.flatMap((tid) => procStatFields(pid, Number(tid))?.[0] ?? []);
}

/**
 * Whether the programs run after a detach, waiting (bounded) for them to leave the stop the
 * debugger held them in. A program that exited meanwhile counts as not stopped.
 */
export async function checkRunning(pids: readonly number[]): Promise<DetachCheck> {
  if (pids.length === 0) return { running: undefined, stoppedStates: [], pids: [] };
  const deadline = Date.now() + DETACH_SETTLE_MS;
  for (;;) {
    const stopped = pids.flatMap((pid) => threadStates(pid).filter((state) => state === "t" || state === "T"));
    if (stopped.length === 0) return { running: true, stoppedStates: [], pids: [...pids] };
    if (Date.now() >= deadline) return { running: false, stoppedStates: [...new Set(stopped)], pids: [...pids] };
    await new Promise((resolve) => setTimeout(resolve, DETACH_POLL_MS));
  }
}

/** The sentence `terminate` gives for an attached program, true to what was checked. */
export function detachWords(label: string, check: DetachCheck): string {
  const which = check.pids.length === 1 ? `the program (pid ${check.pids[0]})` : `the program (pids ${check.pids.join(", ")})`;
  if (check.running === undefined) {
    return `Ended the debug session (${label}) and detached from the program; whether it runs on could not be checked (no pid of it is known here).`;
  }
  if (check.running) return `Ended the debug session (${label}): detached from ${which}, which is running.`;
  const state = check.stoppedStates.includes("t") ? "stopped by a tracer (state t)" : "stopped (state T)";
  return (
    `Ended the debug session (${label}) and detached, but ${which} is still ${state}: the debug server did not let it go. ` +
    "Attach again and continue it, or restart the server it runs under."
  );
}
