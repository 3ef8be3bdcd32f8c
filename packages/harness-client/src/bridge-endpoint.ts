// A reference bridge endpoint (docs/harness.md, "Tool bridge"): eval cells' `tool()` calls arrive
// here; each is answered by the harness's own tool function, a denial, or an error.
import type { IncomingMessage, ServerResponse } from "node:http";
import { authorised, listen, readJson, reply } from "./http-server.ts";
import type { BridgeAnswer, BridgeRequest } from "./wire.ts";

/** Thrown by a bridge tool to refuse the call: the cell gets `ToolDenied(message)`. */
export class ToolDenied extends Error {}

/** One of the harness's tools as a cell reaches it; any other error becomes the cell's `ToolError`. */
export type BridgeTool = (args: Record<string, unknown>, request: BridgeRequest) => unknown;

export interface BridgeOptions {
  tools: Record<string, BridgeTool>;
  /** Required as `Authorization: Bearer <token>` (the run config's `bridge.token`). */
  token?: string;
  host?: string;
  port?: number;
}

export interface Bridge {
  /** The URL for the run config's `resources.bridge.url`. */
  url: string;
  /** Every request received, oldest first (for logs and tests). */
  readonly requests: BridgeRequest[];
  close(): Promise<void>;
}

export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const requests: BridgeRequest[] = [];
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (!authorised(request, options.token)) return reply(response, 401, { ok: false, message: "The bridge needs its bearer token." });
    if (request.method !== "POST") return reply(response, 405, { ok: false, message: "The bridge takes POST only." });
    const call = (await readJson(request)) as BridgeRequest | undefined;
    if (!call || typeof call.tool !== "string") return reply(response, 400, { ok: false, message: "Expected {tool, arguments, conversation, origin}." });
    requests.push(call);
    return reply(response, 200, await answer(options.tools, call));
  };
  const listening = await listen(handle, options.host, options.port);
  return { url: listening.origin, requests, close: () => listening.close() };
}

async function answer(tools: Record<string, BridgeTool>, call: BridgeRequest): Promise<BridgeAnswer> {
  const tool = Object.hasOwn(tools, call.tool) ? tools[call.tool] : undefined;
  if (!tool) return { ok: false, message: `No tool ${call.tool} on this bridge; it has ${Object.keys(tools).join(", ") || "none"}.` };
  try {
    return { ok: true, result: (await tool(call.arguments ?? {}, call)) ?? null };
  } catch (error) {
    if (error instanceof ToolDenied) return { ok: false, denied: true, message: error.message };
    return { ok: false, message: (error as Error).message };
  }
}
