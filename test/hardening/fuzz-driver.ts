// Drives hostile inputs through a run's HTTP app in-process and tallies how each was answered.
import type { Hono } from "hono";
import { inputJsonSchemaOf } from "../../src/tool/json-schema.ts";
import type { Tool } from "../../src/tool/define.ts";
import { hostileBody, invalidArguments, seededRng } from "./fuzz-inputs.ts";

export interface FuzzTally {
  inputs: number;
  byStatus: Record<number, number>;
  serverErrors: string[];
  unreadableToolErrors: string[];
  toolArgumentErrors: number;
  /** Non-object `arguments` break MCP's own schema: a JSON-RPC invalid-params error, not a tool result. */
  protocolArgumentErrors: number;
}

const HOST = "127.0.0.1:1";

export async function fuzz(app: Hono<any>, token: string, tools: readonly Tool[], count: number, seed = 1): Promise<FuzzTally> {
  const rng = seededRng(seed);
  const headers = { Host: HOST, Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  const init = await app.request(`http://${HOST}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } } }),
  });
  const session = init.headers.get("mcp-session-id")!;
  await init.text();
  const sessionHeaders = { ...headers, "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18" };
  await app.request(`http://${HOST}/mcp`, { method: "POST", headers: sessionHeaders, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });

  const tally: FuzzTally = { inputs: 0, byStatus: {}, serverErrors: [], unreadableToolErrors: [], toolArgumentErrors: 0, protocolArgumentErrors: 0 };
  for (let i = 0; i < count; i++) {
    const toolCall = tools.length > 0 && rng() < 0.5;
    const tool = toolCall ? tools[Math.floor(rng() * tools.length)]! : undefined;
    const args = tool ? invalidArguments(rng, inputJsonSchemaOf(tool.input)) : undefined;
    const body = tool
      ? JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: tool.name, arguments: args } })
      : hostileBody(rng);
    const response = await app.request(`http://${HOST}/mcp`, { method: "POST", headers: sessionHeaders, body: body as BodyInit });
    const text = await response.text();
    tally.inputs++;
    tally.byStatus[response.status] = (tally.byStatus[response.status] ?? 0) + 1;
    if (response.status >= 500) tally.serverErrors.push(`${response.status} for ${String(body).slice(0, 120)}: ${text.slice(0, 200)}`);
    if (tool && !isPlainObject(args)) {
      if (errorOf(text)?.code === -32602) tally.protocolArgumentErrors++;
      else tally.unreadableToolErrors.push(`${tool.name} ${String(body).slice(0, 160)} → ${text.slice(0, 200)}`);
    } else if (tool) {
      const result = resultOf(text);
      const message = result?.content?.[0]?.text ?? "";
      if (result?.isError === true && message.startsWith(`Invalid arguments for ${tool.name}:`) && message.includes("Expected arguments:")) {
        tally.toolArgumentErrors++;
      } else {
        tally.unreadableToolErrors.push(`${tool.name} ${String(body).slice(0, 160)} → ${text.slice(0, 200)}`);
      }
    }
  }
  return tally;
}

function isPlainObject(value: unknown): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The JSON-RPC message inside an SSE or JSON response body. */
function messageOf(text: string): { result?: unknown; error?: unknown } | undefined {
  const data = text.split("\n").find((line) => line.startsWith("data: "));
  try {
    return JSON.parse(data ? data.slice(6) : text);
  } catch {
    return undefined;
  }
}

function resultOf(text: string) {
  return messageOf(text)?.result as { isError?: boolean; content?: { text?: string }[] } | undefined;
}

function errorOf(text: string) {
  return messageOf(text)?.error as { code?: number } | undefined;
}
