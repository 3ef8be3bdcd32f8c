// What a stop shows: frames (async ones too), their scopes, variables, evaluation and changes, over one pause.
import { basename } from "node:path";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type Protocol from "devtools-protocol";
import type { CdpClient } from "./cdp.ts";
import { DapRefusal } from "./dap-server.ts";
import type { ScriptPlace, ScriptTable } from "./scripts.ts";
import { hasChildren, valueText, valueType } from "./values.ts";

/** How many async parents (`await` links) a stack shows; V8 keeps as many as setAsyncCallStackDepth asks. */
export const ASYNC_STACK_DEPTH = 32;
/** Remote objects of one pause: released together when the program moves on. */
const OBJECT_GROUP = "sidecar-pause";

type Container =
  | { kind: "scope"; callFrameId: string; scopeNumber: number; object: Protocol.Runtime.RemoteObject; extra: DebugProtocol.Variable[] }
  | { kind: "object"; objectId: string };

interface Frame {
  dap: DebugProtocol.StackFrame;
  /** Absent for an async parent's frame: V8 keeps its place, not its variables. */
  call?: Protocol.Debugger.CallFrame;
}

const SCOPE_NAMES: Record<string, string> = {
  local: "Local",
  closure: "Closure",
  block: "Block",
  catch: "Catch",
  with: "With",
  script: "Script",
  module: "Module",
  global: "Global",
  eval: "Eval",
  wasmExpressionStack: "Wasm stack",
};

export class PauseInspection {
  private frames: Frame[] = [];
  private readonly containers = new Map<number, Container>();
  private nextRef = 1;
  /**
   * Variables set at this pause, by call frame and name. V8's scope objects are copies made at the
   * pause: read again, they show the old value (debugpy-like "the change did not take"), so these
   * names are read live from their frame instead.
   */
  private readonly changed = new Set<string>();

  constructor(
    private readonly cdp: CdpClient,
    private readonly scripts: ScriptTable,
    paused: Protocol.Debugger.PausedEvent,
  ) {
    this.frames = paused.callFrames.map((call, index) => ({ call, dap: this.frame(index + 1, call.functionName, call.location) }));
    let parent = paused.asyncStackTrace;
    let depth = 0;
    while (parent && depth++ < ASYNC_STACK_DEPTH) {
      if (parent.callFrames.length) {
        this.frames.push({ dap: { id: this.frames.length + 1, name: `── ${parent.description ?? "async"} ──`, line: 0, column: 0, presentationHint: "label" } });
        for (const call of parent.callFrames) this.frames.push({ dap: this.frame(this.frames.length + 1, call.functionName, call) });
      }
      parent = parent.parent;
    }
  }

  stackTrace(start = 0, levels = 0): DebugProtocol.StackTraceResponse["body"] {
    const end = levels > 0 ? start + levels : undefined;
    return { stackFrames: this.frames.slice(start, end).map((frame) => frame.dap), totalFrames: this.frames.length };
  }

  scopes(frameId: number): DebugProtocol.ScopesResponse["body"] {
    const call = this.callFrame(frameId, "its scopes");
    const scopes = call.scopeChain.map((scope, scopeNumber): DebugProtocol.Scope => {
      const extra: DebugProtocol.Variable[] = [];
      if (scopeNumber === 0) {
        if (call.returnValue) extra.push(this.variable("return value", call.returnValue));
        if (call.this.type !== "undefined" && !(call.this.type === "object" && call.this.className === "global")) extra.push(this.variable("this", call.this));
      }
      const ref = this.remember({ kind: "scope", callFrameId: call.callFrameId, scopeNumber, object: scope.object, extra });
      const name = SCOPE_NAMES[scope.type] ?? scope.type;
      return { name: scope.name && scope.type === "closure" ? `${name} (${scope.name})` : name, variablesReference: ref, expensive: scope.type === "global" };
    });
    return { scopes };
  }

  async variables(reference: number): Promise<DebugProtocol.VariablesResponse["body"]> {
    const container = this.container(reference);
    const objectId = container.kind === "scope" ? container.object.objectId : container.objectId;
    if (!objectId) return { variables: container.kind === "scope" ? container.extra : [] };
    const props = await this.cdp.send("Runtime.getProperties", { objectId, ownProperties: true, generatePreview: true, objectGroup: OBJECT_GROUP } as never);
    const variables = container.kind === "scope" ? [...container.extra] : [];
    for (const property of props.result) {
      if (property.name === "__proto__") continue;
      const live = container.kind === "scope" && this.changed.has(`${container.callFrameId}\0${property.name}`) ? await this.liveValue(container, property.name) : undefined;
      if (live ?? property.value) variables.push(this.variable(property.name, (live ?? property.value)!));
      else if (property.get && property.get.type !== "undefined") variables.push({ name: property.name, value: "(getter)", variablesReference: 0 });
    }
    for (const internal of props.internalProperties ?? []) {
      if (internal.value && ["[[Entries]]", "[[PrimitiveValue]]", "[[PromiseState]]", "[[PromiseResult]]", "[[Target]]"].includes(internal.name)) {
        variables.push(this.variable(internal.name, internal.value));
      }
    }
    return { variables };
  }

  async evaluate(expression: string, frameId: number | undefined): Promise<DebugProtocol.EvaluateResponse["body"]> {
    const result = await this.evaluateRaw(expression, frameId);
    return { result: valueText(result), type: valueType(result), variablesReference: hasChildren(result) ? this.remember({ kind: "object", objectId: result.objectId! }) : 0 };
  }

  /** Sets `name` in a scope (V8's setVariableValue, else an assignment in its frame) or on an object, and answers the value it now has. */
  async setVariable(reference: number, name: string, value: string): Promise<DebugProtocol.SetVariableResponse["body"]> {
    const container = this.container(reference);
    const frameId = container.kind === "scope" ? this.frames.find((frame) => frame.call?.callFrameId === container.callFrameId)?.dap.id : undefined;
    const newValue = await this.evaluateRaw(value, frameId ?? 1);
    const argument: Protocol.Runtime.CallArgument = newValue.objectId
      ? { objectId: newValue.objectId }
      : newValue.unserializableValue
        ? { unserializableValue: newValue.unserializableValue }
        : { value: newValue.value };
    if (container.kind === "scope") {
      const set = await this.cdp
        .send("Debugger.setVariableValue", { scopeNumber: container.scopeNumber, variableName: name, newValue: argument, callFrameId: container.callFrameId })
        .then(() => true, () => false);
      // V8 refuses some scopes (script, module, global): an assignment in the frame reaches them.
      if (!set && /^[A-Za-z_$][\w$]*$/.test(name) && frameId !== undefined) await this.evaluateRaw(`${name} = (${value})`, frameId);
      else if (!set) throw new DapRefusal(`V8 cannot set ${name} in this scope`);
      this.changed.add(`${container.callFrameId}\0${name}`);
    } else {
      await this.cdp.send("Runtime.callFunctionOn", {
        objectId: container.objectId,
        functionDeclaration: `function (value) { this[${JSON.stringify(name)}] = value; }`,
        arguments: [argument],
      });
    }
    return { value: valueText(newValue), type: valueType(newValue), variablesReference: hasChildren(newValue) ? this.remember({ kind: "object", objectId: newValue.objectId! }) : 0 };
  }

  /** The variable's value now, read in its frame — unless an inner scope has a variable of that name, which the frame would read instead. */
  private async liveValue(container: Extract<Container, { kind: "scope" }>, name: string): Promise<Protocol.Runtime.RemoteObject | undefined> {
    const call = this.frames.find((frame) => frame.call?.callFrameId === container.callFrameId)?.call;
    if (!call) return undefined;
    for (const inner of call.scopeChain.slice(0, container.scopeNumber)) {
      if (!inner.object.objectId) continue;
      const props = await this.cdp.send("Runtime.getProperties", { objectId: inner.object.objectId, ownProperties: true });
      if (props.result.some((property) => property.name === name)) return undefined;
    }
    const answer = await this.cdp.send("Debugger.evaluateOnCallFrame", { callFrameId: call.callFrameId, expression: name, generatePreview: true, objectGroup: OBJECT_GROUP });
    return answer.exceptionDetails ? undefined : answer.result;
  }

  /** Forgets the pause's objects in V8 (the program moved on). */
  release(): void {
    void this.cdp.send("Runtime.releaseObjectGroup", { objectGroup: OBJECT_GROUP }).catch(() => undefined);
  }

  private async evaluateRaw(expression: string, frameId: number | undefined): Promise<Protocol.Runtime.RemoteObject> {
    const call = frameId !== undefined ? this.callFrame(frameId, "evaluation") : undefined;
    const answer = call
      ? await this.cdp.send("Debugger.evaluateOnCallFrame", { callFrameId: call.callFrameId, expression, generatePreview: true, objectGroup: OBJECT_GROUP })
      : await this.cdp.send("Runtime.evaluate", { expression, generatePreview: true, objectGroup: OBJECT_GROUP });
    if (answer.exceptionDetails) {
      const thrown = answer.exceptionDetails.exception?.description?.split("\n")[0] ?? answer.exceptionDetails.text;
      throw new DapRefusal(`evaluating ${JSON.stringify(expression)} threw ${thrown}`);
    }
    return answer.result;
  }

  private variable(name: string, object: Protocol.Runtime.RemoteObject): DebugProtocol.Variable {
    return {
      name,
      value: valueText(object),
      type: valueType(object),
      variablesReference: hasChildren(object) ? this.remember({ kind: "object", objectId: object.objectId! }) : 0,
    };
  }

  private frame(id: number, functionName: string, location: ScriptPlace): DebugProtocol.StackFrame {
    const place = this.scripts.original(location);
    const name = functionName || "(anonymous)";
    if (place) return { id, name, source: { name: basename(place.path), path: place.path }, line: place.line, column: place.column + 1 };
    const url = this.scripts.url(location.scriptId);
    return { id, name, ...(url ? { source: { name: url, presentationHint: "deemphasize" } } : {}), line: location.lineNumber + 1, column: (location.columnNumber ?? 0) + 1 };
  }

  private callFrame(frameId: number, what: string): Protocol.Debugger.CallFrame {
    const frame = this.frames[frameId - 1];
    if (!frame) throw new DapRefusal(`no frame ${frameId} at this stop`);
    if (!frame.call) throw new DapRefusal(`frame ${frameId} is an async parent (${frame.dap.name}); V8 keeps only its place, not ${what}`);
    return frame.call;
  }

  private container(reference: number): Container {
    const container = this.containers.get(reference);
    if (!container) throw new DapRefusal(`no variables reference ${reference} at this stop`);
    return container;
  }

  private remember(container: Container): number {
    const ref = this.nextRef++;
    this.containers.set(ref, container);
    return ref;
  }
}
