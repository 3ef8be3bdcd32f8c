// The DAP start-up every adapter accepts: initialize, launch or attach, initialized, breakpoints, configurationDone.
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { BreakpointBook, BreakpointResult, FunctionBreakpoint, LineBreakpoint } from "./breakpoint-book.ts";
import type { AdapterEntry } from "./catalog.ts";
import type { DapConnection } from "./connection.ts";
import { INITIALIZE_ARGUMENTS } from "./detect.ts";
import type { EventGate } from "./event-gate.ts";

/** A cold `go build` under dlv, or a big Python import, happens inside launch: give it room. */
const LAUNCH_TIMEOUT_MS = 120_000;
/** How long an adapter that already answered launch may take to send initialized. */
const INITIALIZED_TIMEOUT_MS = 30_000;

/** What the handshake placed: breakpoints as the adapter took them, exception filters, and words about what it could not. */
export interface Configured {
  breakpoints: Record<string, BreakpointResult[]>;
  functionBreakpoints: BreakpointResult[];
  /** Exception filters in force, and words about those asked for that the adapter lacks. */
  exceptionFilters: string[];
  notes: string[];
}

/** What the handshake uses of a session; DebugSession is one (an interface, so the two files do not import each other). */
interface HandshakingSession {
  readonly adapter: AdapterEntry;
  readonly connection: DapConnection;
  /** Opened by the adapter's `initialized` event. */
  readonly initialized: EventGate;
  /** Whether the launch asked for child processes: then debugpy 1.8 may announce them with startDebugging. */
  readonly family: { readonly childProcesses: boolean };
  capabilities: DebugProtocol.Capabilities;
  readonly exceptionFilters: string[];
  setBreakpoints(file: string, specs: readonly LineBreakpoint[]): Promise<BreakpointResult[]>;
  setFunctionBreakpoints(specs: readonly FunctionBreakpoint[]): Promise<BreakpointResult[]>;
  applyExceptionFilters(wanted: readonly string[] | undefined): Promise<string[]>;
}

/**
 * The one request order all adapters accept: initialize → launch/attach (not awaited: debugpy
 * withholds its answer until configurationDone) → initialized → breakpoints → configurationDone
 * → the launch answer.
 */
export async function handshake(session: HandshakingSession, request: "launch" | "attach", args: Record<string, unknown>, book: BreakpointBook): Promise<Configured> {
  const { connection } = session;
  session.capabilities =
    (await connection.request<DebugProtocol.InitializeResponse>("initialize", {
      ...INITIALIZE_ARGUMENTS,
      adapterID: session.adapter.id,
      // debugpy 1.8 announces a child with this reverse request (1.6 with its debugpyAttach event).
      ...(session.family.childProcesses ? { supportsStartDebuggingRequest: true } : {}),
    })) ?? {};
  const started = connection.request(request, args, LAUNCH_TIMEOUT_MS);
  started.catch(() => {}); // awaited below; an early refusal also ends the wait for initialized
  // lldb answers launch first and sends initialized after; an adapter that never does is stuck.
  await Promise.race([session.initialized.wait(), started.then(() => session.initialized.wait(INITIALIZED_TIMEOUT_MS))]);
  const notes: string[] = [];
  const { files, kept } = book.forAdapter(session.adapter);
  if (kept.length) notes.push(`Breakpoints in ${kept.length} file(s) of another language were kept for a session that debugs them, not sent to ${session.adapter.id}.`);
  const placed: Record<string, BreakpointResult[]> = {};
  for (const [file, specs] of files) placed[file] = await session.setBreakpoints(file, specs);
  const functionBreakpoints = book.functions.length ? await session.setFunctionBreakpoints(book.functions) : [];
  notes.push(...(await session.applyExceptionFilters(book.exceptionFilters)));
  await connection.request("configurationDone");
  await started;
  return { breakpoints: placed, functionBreakpoints, exceptionFilters: session.exceptionFilters, notes };
}
