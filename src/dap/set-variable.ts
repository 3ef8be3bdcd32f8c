// Changing a variable in a stopped program, and reading it back, so the answer says what the program will see.
import type { DebugProtocol } from "@vscode/debugprotocol";
import { capValue } from "../tool/budget.ts";
import { ToolFailure } from "../answer/failure.ts";
import { VALUE_CHARS } from "./inspect.ts";
import type { Handle } from "./references.ts";
import type { DebugSession } from "./session.ts";

interface SetVariableResult {
  name: string;
  /** The value read back after the change. */
  value: string;
  type?: string;
  /** Where it was found: a scope's name ("Locals", "Globals") or "the object with reference N". */
  where: string;
  /** What the adapter said it set, when that differs from what was read back. */
  claimed?: string;
  /** false when the value read back is not the one asked for (the change did not take). */
  took: boolean;
}

interface Container {
  dapId: number;
  where: string;
  scope?: Handle["scope"];
}

/**
 * Sets `name` to `value` (an expression in the program's language) in the container `reference`
 * (a scope or an object), or else in the first scope of the frame that has it.
 */
export async function setVariable(session: DebugSession, name: string, value: string, reference: number | undefined, frameId: number | undefined): Promise<SetVariableResult> {
  session.requireStopped("set a variable");
  const container = reference !== undefined ? fromReference(session, reference) : await scopeHolding(session, name, frameId);
  let claimed: string | undefined;
  const assignment = container.scope && session.adapter.assignInScope?.(container.scope.name, name, value);
  if (assignment && container.scope) {
    await session.connection.request("evaluate", { expression: assignment, frameId: container.scope.frameDapId, context: "repl" });
  } else {
    if (!session.capabilities.supportsSetVariable) throw new ToolFailure(`${session.adapter.id} cannot change variables (it does not support setVariable).`, { code: "unsupported" });
    const body = await session.connection.request<DebugProtocol.SetVariableResponse>("setVariable", { variablesReference: container.dapId, name, value });
    claimed = body?.value;
  }
  const after = await readAgain(session, container, name);
  if (!after) throw new ToolFailure(`${name} was set, but reading ${container.where} again no longer shows it; call variables to look.`);
  const expected = claimed ?? (await evaluated(session, value, container.scope?.frameDapId));
  const took = expected === undefined || expected === after.value;
  return {
    name,
    value: capValue(after.value, VALUE_CHARS),
    ...(after.type ? { type: after.type } : {}),
    where: container.where,
    ...(claimed !== undefined && claimed !== after.value ? { claimed: capValue(claimed, VALUE_CHARS) } : {}),
    took,
  };
}

function fromReference(session: DebugSession, reference: number): Container {
  const handle = session.references.resolve("variables", reference);
  return { dapId: handle.dapId, where: handle.scope ? handle.scope.name : `the object with reference ${reference}`, ...(handle.scope ? { scope: handle.scope } : {}) };
}

/** The first scope of the frame (the report's frame by default) that holds `name`. */
async function scopeHolding(session: DebugSession, name: string, frameId: number | undefined): Promise<Container> {
  const frame = frameId ?? session.lastFrame?.id;
  if (frame === undefined) throw new ToolFailure("No frame to look the variable up in; pass reference (from scopes or variables) or frame_id (from stack).", { code: "invalid_arguments" });
  const handle = session.references.resolve("frame", frame);
  const body = await session.connection.request<DebugProtocol.ScopesResponse>("scopes", { frameId: handle.dapId });
  const scopes = body?.scopes ?? [];
  // A local an earlier evaluate bound in place of a global (debugpy) is not what the program reads.
  const skipLocals = session.evaluationLocals.has(`${handle.dapId}\0${name}`);
  for (const scope of scopes.filter((s) => !s.expensive && !(skipLocals && s.name === "Locals"))) {
    if (await readBack(session, scope.variablesReference, name)) {
      return { dapId: scope.variablesReference, where: scope.name, scope: { name: scope.name, frameDapId: handle.dapId } };
    }
  }
  throw new ToolFailure(
    `No variable named ${name} in the scopes of frame ${frame} (${scopes.map((s) => s.name).join(", ") || "none"}); ` +
      "for a field or element, pass the reference of the object holding it (from variables) and its name there.",
  );
}

/**
 * The variable as the program holds it now. delve answers `variables` for a reference it loaded
 * before from that load, so a scope is asked for afresh (new scopes, new references).
 */
async function readAgain(session: DebugSession, container: Container, name: string): Promise<DebugProtocol.Variable | undefined> {
  if (!container.scope) return readBack(session, container.dapId, name);
  const body = await session.connection.request<DebugProtocol.ScopesResponse>("scopes", { frameId: container.scope.frameDapId });
  const fresh = body?.scopes.find((scope) => scope.name === container.scope!.name);
  return readBack(session, fresh?.variablesReference ?? container.dapId, name);
}

async function readBack(session: DebugSession, container: number, name: string): Promise<DebugProtocol.Variable | undefined> {
  const body = await session.connection.request<DebugProtocol.VariablesResponse>("variables", { variablesReference: container });
  return body?.variables.find((variable) => variable.name === name);
}

/** The value expression as the adapter shows it ("5" for `2 + 3`), to compare with what was read back. */
async function evaluated(session: DebugSession, value: string, frameDapId: number | undefined): Promise<string | undefined> {
  if (frameDapId === undefined) return undefined;
  const body = await session.connection
    .request<DebugProtocol.EvaluateResponse>("evaluate", { expression: value, frameId: frameDapId, context: "watch" })
    .catch(() => undefined);
  return body?.result;
}
