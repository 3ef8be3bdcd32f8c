// The tool bridge's sidecar half: forwards a tool call made inside a cell to the harness's registry.
import type { BridgeSettings } from "../config/resources/bridge.ts";
import type { ToolAnswer } from "./kernel-process.ts";

/**
 * A bridged call may legitimately take long (a sub-agent fan-out, an approval prompt waiting on a
 * person); the cell's inactivity budget is suspended meanwhile, so this is the only bound on it.
 */
const BRIDGE_CALL_TIMEOUT_MS = 60 * 60_000;

/** Forwards one bridged call; `language` says which kernel made it. */
export type ToolCaller = (name: string, args: Record<string, unknown>, signal: AbortSignal, language: string) => Promise<ToolAnswer>;

/** Without a bridge in the run config, tool() fails with a sentence saying so. */
export function missingBridge(): ToolCaller {
  return async (name) => ({
    ok: false,
    denied: false,
    message: `This run has no tool bridge (resources.bridge in the run config), so tool(${JSON.stringify(name)}, …) cannot reach the harness's tools.`,
  });
}

/**
 * POSTs {tool, arguments, conversation, origin} to the harness and reads back
 * {ok: true, result} or {ok: false, denied?, message} (docs/harness.md, "Tool bridge").
 */
export function bridgeClient(settings: BridgeSettings, conversation: string | undefined): ToolCaller {
  return async (name, args, signal, language) => {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (settings.token) headers.Authorization = `Bearer ${settings.token}`;
    let response: Response;
    try {
      response = await fetch(settings.url, {
        method: "POST",
        headers,
        body: JSON.stringify({
          tool: name,
          arguments: args,
          conversation: conversation ?? null,
          origin: { tool: "eval", language },
        }),
        signal: AbortSignal.any([signal, AbortSignal.timeout(BRIDGE_CALL_TIMEOUT_MS)]),
      });
    } catch (error) {
      const why = signal.aborted ? "the cell was stopped first" : (error as Error).message;
      return { ok: false, denied: false, message: `The harness's tool bridge at ${settings.url} did not answer the ${name} call: ${why}.` };
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    return readAnswer(name, response.status, body);
  };
}

function readAnswer(name: string, status: number, body: unknown): ToolAnswer {
  const answer = (body && typeof body === "object" ? body : {}) as { ok?: unknown; result?: unknown; denied?: unknown; message?: unknown };
  const message = typeof answer.message === "string" ? answer.message : undefined;
  if (status >= 200 && status < 300 && answer.ok === true) return { ok: true, result: answer.result ?? null };
  if (answer.denied === true || status === 403) {
    return { ok: false, denied: true, message: message ?? `The harness denied the ${name} call.` };
  }
  if (status >= 200 && status < 300 && answer.ok === false) {
    return { ok: false, denied: false, message: message ?? `The ${name} call failed in the harness.` };
  }
  return {
    ok: false,
    denied: false,
    message: message ?? `The harness's tool bridge answered the ${name} call with HTTP ${status} and no {ok, result} body.`,
  };
}
