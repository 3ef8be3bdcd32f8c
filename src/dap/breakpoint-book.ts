// A conversation's breakpoints (lines with conditions and log messages, functions, exception
// filters), kept across sessions and sent to each adapter as far as it supports them.
import type { DebugProtocol } from "@vscode/debugprotocol";
import { takesSource, type AdapterEntry } from "./catalog.ts";

export interface BreakpointOptions {
  /** Stop only when this expression is true. */
  condition?: string;
  /** Stop only on hits this expression admits (adapter syntax: "3", ">= 5", "% 2"). */
  hitCondition?: string;
  /** A logpoint: print this (with {expressions}) instead of stopping. */
  logMessage?: string;
}

export interface LineBreakpoint extends BreakpointOptions {
  line: number;
}

export interface FunctionBreakpoint extends BreakpointOptions {
  name: string;
}

export interface BreakpointResult extends BreakpointOptions {
  line?: number;
  function?: string;
  verified: boolean;
  /** The line the adapter actually put it on, when it moved it. */
  actual_line?: number;
  message?: string;
}

/** Which capability each option needs, and its name in answers. */
const OPTION_SUPPORT: readonly [keyof BreakpointOptions, keyof DebugProtocol.Capabilities, string][] = [
  ["condition", "supportsConditionalBreakpoints", "conditions"],
  ["hitCondition", "supportsHitConditionalBreakpoints", "hit conditions"],
  ["logMessage", "supportsLogPoints", "log messages (logpoints)"],
];

/** The options of `spec` this adapter does not support, as words ("hit conditions"). */
function unsupportedOptions(spec: BreakpointOptions, capabilities: DebugProtocol.Capabilities): string[] {
  return OPTION_SUPPORT.filter(([option, capability]) => spec[option] !== undefined && !capabilities[capability]).map(([, , words]) => words);
}

function options(spec: BreakpointOptions): BreakpointOptions {
  return {
    ...(spec.condition !== undefined ? { condition: spec.condition } : {}),
    ...(spec.hitCondition !== undefined ? { hitCondition: spec.hitCondition } : {}),
    ...(spec.logMessage !== undefined ? { logMessage: spec.logMessage } : {}),
  };
}

/** A placement refused before it reached the adapter, with the reason. */
export function refused(spec: LineBreakpoint | FunctionBreakpoint, message: string): BreakpointResult {
  return { ...("line" in spec ? { line: spec.line } : { function: spec.name }), ...options(spec), verified: false, message };
}

export class BreakpointBook {
  /** Line breakpoints by absolute file path. */
  readonly lines = new Map<string, LineBreakpoint[]>();
  functions: FunctionBreakpoint[] = [];
  /**
   * Exception filters the agent chose (adapter filter ids); undefined until it chooses, and then
   * each adapter gets its `uncaught` filter and its own defaults.
   */
  exceptionFilters: string[] | undefined;

  setLines(path: string, specs: readonly LineBreakpoint[]): LineBreakpoint[] {
    const unique = [...new Map(specs.map((spec) => [spec.line, spec])).values()];
    if (unique.length) this.lines.set(path, unique);
    else this.lines.delete(path);
    return unique;
  }

  /** The files whose breakpoints a session of this adapter takes, and those kept for another kind. */
  forAdapter(adapter: AdapterEntry): { files: [string, LineBreakpoint[]][]; kept: string[] } {
    const files = [...this.lines].filter(([file]) => takesSource(adapter, file));
    const kept = [...this.lines.keys()].filter((file) => !takesSource(adapter, file));
    return { files, kept };
  }
}

/** Sends one file's line breakpoints; unsupported options are refused, not silently dropped. */
export async function sendLineBreakpoints(
  request: <R extends DebugProtocol.Response>(command: string, args: unknown) => Promise<R["body"]>,
  capabilities: DebugProtocol.Capabilities,
  adapterId: string,
  file: string,
  specs: readonly LineBreakpoint[],
): Promise<BreakpointResult[]> {
  const sendable = specs.filter((spec) => unsupportedOptions(spec, capabilities).length === 0);
  const body = await request<DebugProtocol.SetBreakpointsResponse>("setBreakpoints", {
    source: { path: file },
    breakpoints: sendable.map((spec) => ({ line: spec.line, ...options(spec) })),
    lines: sendable.map((spec) => spec.line),
  });
  return specs.map((spec) => {
    const missing = unsupportedOptions(spec, capabilities);
    if (missing.length) return refused(spec, `not set: ${adapterId} does not support ${missing.join(" or ")}`);
    const placed = body?.breakpoints[sendable.indexOf(spec)];
    return placedResult({ line: spec.line, ...options(spec) }, placed, spec.line);
  });
}

/** Sends the function breakpoints, or refuses them all where the adapter has none. */
export async function sendFunctionBreakpoints(
  request: <R extends DebugProtocol.Response>(command: string, args: unknown) => Promise<R["body"]>,
  capabilities: DebugProtocol.Capabilities,
  adapterId: string,
  specs: readonly FunctionBreakpoint[],
): Promise<BreakpointResult[]> {
  if (!capabilities.supportsFunctionBreakpoints) {
    return specs.map((spec) => refused(spec, `not set: ${adapterId} does not support function breakpoints; set a line breakpoint on the function's first line instead`));
  }
  const sendable = specs.filter((spec) => unsupportedOptions(spec, capabilities).length === 0);
  const body = await request<DebugProtocol.SetFunctionBreakpointsResponse>("setFunctionBreakpoints", {
    breakpoints: sendable.map((spec) => ({ name: spec.name, ...options(spec) })),
  });
  return specs.map((spec) => {
    const missing = unsupportedOptions(spec, capabilities);
    if (missing.length) return refused(spec, `not set: ${adapterId} does not support ${missing.join(" or ")}`);
    return placedResult({ function: spec.name, ...options(spec) }, body?.breakpoints[sendable.indexOf(spec)], undefined);
  });
}

function placedResult(base: Omit<BreakpointResult, "verified">, placed: DebugProtocol.Breakpoint | undefined, line: number | undefined): BreakpointResult {
  return {
    ...base,
    verified: placed?.verified ?? false,
    ...(placed?.line !== undefined && placed.line !== line ? { actual_line: placed.line } : {}),
    ...(placed?.message ? { message: placed.message } : {}),
  };
}

/**
 * Matches the agent's words to the adapter's exception filters: a filter id ("userUnhandled") or
 * its label ("User Uncaught Exceptions", or "user_uncaught"), in any case and spacing.
 */
function matchExceptionFilters(
  wanted: readonly string[],
  available: readonly DebugProtocol.ExceptionBreakpointsFilter[],
): { filters: string[]; unknown: string[] } {
  const normal = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");
  const filters: string[] = [];
  const unknown: string[] = [];
  for (const word of wanted) {
    const key = normal(word);
    const match = available.find((f) => [f.filter, f.label, f.label.replace(/exceptions?$/i, "")].some((name) => normal(name) === key));
    if (match) filters.push(match.filter);
    else unknown.push(word);
  }
  return { filters: [...new Set(filters)], unknown };
}

/** The filters a session starts with when the agent chose none: `uncaught` and the adapter's defaults. */
function defaultExceptionFilters(available: readonly DebugProtocol.ExceptionBreakpointsFilter[]): string[] {
  return available.filter((filter) => filter.filter === "uncaught" || filter.default).map((filter) => filter.filter);
}

/**
 * Sends the chosen exception filters (or, when none were chosen, `uncaught` and the adapter's
 * defaults); says which asked-for filters the adapter does not have.
 */
export async function sendExceptionFilters(
  request: <R extends DebugProtocol.Response>(command: string, args: unknown) => Promise<R["body"]>,
  capabilities: DebugProtocol.Capabilities,
  adapterId: string,
  wanted: readonly string[] | undefined,
): Promise<{ filters: string[]; notes: string[] }> {
  const available = capabilities.exceptionBreakpointFilters;
  if (!available) {
    const notes = wanted?.length ? [`${adapterId} has no exception filters to choose from: the exceptions it stops on are fixed (delve stops on every panic).`] : [];
    return { filters: [], notes };
  }
  const match = wanted ? matchExceptionFilters(wanted, available) : { filters: defaultExceptionFilters(available), unknown: [] };
  await request("setExceptionBreakpoints", { filters: match.filters });
  const notes = match.unknown.length
    ? [`${adapterId} has no exception filter ${match.unknown.map((w) => JSON.stringify(w)).join(", ")}; its filters: ${available.map((f) => f.filter).join(", ")}.`]
    : [];
  return { filters: match.filters, notes };
}
