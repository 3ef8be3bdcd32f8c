// Reading a stopped program: threads, stack, scopes, variables, evaluate — capped, with fresh ids.
import type { DebugProtocol } from "@vscode/debugprotocol";
import { capList, capValue } from "../tool/budget.ts";
import { paged } from "../tool/paging.ts";
import { ToolFailure } from "../answer/failure.ts";
import type { DebugSession } from "./session.ts";
import { shownFrame, topFrame, type ReportFrame } from "./stop-report.ts";

const STACK_CAP = 30;
const THREADS_CAP = 100;
const VARIABLES_CAP = 50;
export const VALUE_CHARS = 400;

interface ShownVariable {
  name: string;
  value: string;
  type?: string;
  /** Pass to `variables` to expand it; absent for a leaf. */
  reference?: number;
}

export async function threads(session: DebugSession) {
  session.requireLive();
  const body = await session.connection.request<DebugProtocol.ThreadsResponse>("threads");
  // A Go program easily has hundreds of goroutines.
  const capped = capList(body?.threads ?? [], THREADS_CAP);
  return { threads: capped.items.map((thread) => ({ id: thread.id, name: thread.name })), total: capped.total, note: capped.note };
}

export async function stack(session: DebugSession, threadId: number | undefined) {
  session.requireStopped("read the stack");
  const thread = threadId ?? session.currentThread ?? (await session.anyThread());
  const body = await session.connection.request<DebugProtocol.StackTraceResponse>("stackTrace", {
    threadId: thread,
    startFrame: 0,
    levels: STACK_CAP,
  });
  const frames = body?.stackFrames ?? [];
  // Adapters page loosely (debugpy ignores levels): cap here, and count from totalFrames when given.
  const total = Math.max(frames.length, body?.totalFrames ?? 0);
  const capped = capList(frames, STACK_CAP);
  const note = capped.shown < total ? `${capped.shown} of ${total} shown` : "";
  return { thread, frames: capped.items.map((frame) => shownFrame(session, frame, thread)), total, note };
}

export async function scopes(session: DebugSession, frameId: number) {
  session.requireStopped("read scopes");
  const frame = session.references.resolve("frame", frameId);
  const body = await session.connection.request<DebugProtocol.ScopesResponse>("scopes", { frameId: frame.dapId });
  return (body?.scopes ?? []).map((scope) => ({
    name: scope.name,
    reference: session.references.mint("variables", scope.variablesReference, frame.threadId, { name: scope.name, frameDapId: frame.dapId }),
    ...(scope.expensive ? { expensive: true } : {}),
  }));
}

/**
 * A page of a container's children: VARIABLES_CAP from `offset`. Adapters page loosely (debugpy
 * ignores start/count), so all children are asked for and the page is cut here.
 */
export async function variables(session: DebugSession, reference: number, offset = 0) {
  session.requireStopped("read variables");
  const handle = session.references.resolve("variables", reference);
  const body = await session.connection.request<DebugProtocol.VariablesResponse>("variables", {
    variablesReference: handle.dapId,
  });
  const hidden = new Set(session.adapter.hiddenVariables);
  const children = (body?.variables ?? []).filter((variable) => !hidden.has(variable.name));
  const page = paged(children, offset, VARIABLES_CAP);
  return {
    variables: page.items.map((variable): ShownVariable => shownVariable(session, variable, handle.threadId)),
    total: page.total,
    offset,
    note: page.note,
  };
}

export async function evaluate(session: DebugSession, expression: string, frameId: number | undefined) {
  session.requireStopped("evaluate");
  let frame: ReportFrame | undefined;
  let dapFrame: number | undefined;
  let threadId: number | undefined;
  if (frameId !== undefined) {
    const handle = session.references.resolve("frame", frameId);
    dapFrame = handle.dapId;
    threadId = handle.threadId;
  } else if (session.lastFrame && session.references.has("frame", session.lastFrame.id)) {
    // The frame the stop report showed: after a pause the thread's top frame is runtime or libc
    // code, where the report picked the project's frame, and `evaluate i` must mean that one's i.
    frame = session.lastFrame;
    const handle = session.references.resolve("frame", frame.id);
    dapFrame = handle.dapId;
    threadId = handle.threadId;
  } else {
    // lldb evaluates nothing without a frame: default to the stopped thread's top frame.
    threadId = session.currentThread ?? (await session.anyThread());
    frame = await topFrame(session, threadId);
    if (!frame) throw new ToolFailure("The stopped thread has no frames to evaluate in; call stack and pass a frame_id.");
    dapFrame = session.references.resolve("frame", frame.id).dapId;
  }
  const assigned = ASSIGNMENT.exec(expression)?.[1];
  const shadowed = assigned && session.adapter.evaluateContext === "repl" ? await isGlobalOnly(session, assigned, dapFrame) : false;
  let body: DebugProtocol.EvaluateResponse["body"] | undefined;
  try {
    body = await session.connection.request<DebugProtocol.EvaluateResponse>("evaluate", {
      expression,
      frameId: dapFrame,
      context: session.adapter.evaluateContext,
    });
    // Remembered so set_variable later sets the global the program reads, not this evaluation-only local.
    if (shadowed) session.evaluationLocals.add(`${dapFrame}\0${assigned}`);
  } catch (error) {
    // delve and lldb evaluate expressions, not assignments: `i = 5` is refused with a parse error.
    if (assigned && error instanceof Error) throw new ToolFailure(`${error.message}. To change a variable, call set_variable with name ${assigned} and value.`, { code: "server_error" });
    throw error;
  }
  return {
    result: capValue(body?.result ?? "", VALUE_CHARS),
    ...(body?.type ? { type: body.type } : {}),
    ...(body?.variablesReference ? { reference: session.references.mint("variables", body.variablesReference, threadId) } : {}),
    ...(frame ? { frame } : {}),
    ...(shadowed
      ? {
          note:
            `Note: ${assigned} is a global of this frame's module. The assignment bound a new local of that name for later evaluations only; ` +
            `the program still sees the global unchanged. To change the global, call set_variable with name ${assigned}.`,
        }
      : {}),
  };
}

/** `name = value` (not `==`, not `a.b = …`): a plain assignment to one name. */
const ASSIGNMENT = /^\s*([A-Za-z_]\w*)\s*=(?!=)/;

/** In a function frame, whether `name` is a module global and not a local (debugpy's assignments bind locals). */
async function isGlobalOnly(session: DebugSession, name: string, frameId: number | undefined): Promise<boolean> {
  if (frameId === undefined) return false;
  const scopes = (await session.connection.request<DebugProtocol.ScopesResponse>("scopes", { frameId }).catch(() => undefined))?.scopes ?? [];
  const holds = async (scopeName: string) => {
    const scope = scopes.find((s) => s.name === scopeName);
    if (!scope) return false;
    const body = await session.connection.request<DebugProtocol.VariablesResponse>("variables", { variablesReference: scope.variablesReference }).catch(() => undefined);
    return body?.variables.some((variable) => variable.name === name) ?? false;
  };
  return (await holds("Globals")) && !(await holds("Locals"));
}

function shownVariable(session: DebugSession, variable: DebugProtocol.Variable, threadId: number | undefined): ShownVariable {
  return {
    name: variable.name,
    value: capValue(variable.value, VALUE_CHARS),
    ...(variable.type ? { type: variable.type } : {}),
    ...(variable.variablesReference > 0
      ? { reference: session.references.mint("variables", variable.variablesReference, threadId) }
      : {}),
  };
}
