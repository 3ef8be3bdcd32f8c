// Each surface's tools/list, described and serialized once and kept until its tool set changes:
// the request clients send most. The SDK's handler and the plain-request answer both read it here.
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Tool } from "../tool/define.ts";
import type { Surface, ToolRegistry } from "../tool/registry.ts";
import { describeTool } from "./describe-tool.ts";

interface ListedTools {
  /** The tools it was built from, to notice a change of the set. */
  tools: readonly Tool[];
  described: McpTool[];
  /** `{"tools": [...]}`, serialized. */
  json: string;
}

export class ToolListCache {
  private readonly listed = new Map<string, ListedTools>();

  constructor(private readonly registry: ToolRegistry) {}

  /** The surface's tools as tools/list describes them. */
  described(surface: Surface): McpTool[] {
    return this.current(surface).described;
  }

  /** The surface's tools/list result, serialized. */
  json(surface: Surface): string {
    return this.current(surface).json;
  }

  private current(surface: Surface): ListedTools {
    const tools = this.registry.forSurface(surface);
    const hit = this.listed.get(surface.name);
    if (hit && hit.tools.length === tools.length && hit.tools.every((tool, k) => tool === tools[k])) return hit;
    const described = tools.map(describeTool);
    const fresh = { tools, described, json: JSON.stringify({ tools: described }) };
    this.listed.set(surface.name, fresh);
    return fresh;
  }
}

/**
 * The JSON response to a plain tools/list, from the cached serialized list, or undefined when the
 * request is anything else — a batch, params other than a cursor, headers the SDK would refuse — so
 * that it goes through the SDK and its answers and errors stay the SDK's own. The SDK path costs
 * about 1 ms of main thread per list (schema parsing, a 30 KB stringify, an event stream).
 */
export function plainToolsListResponse(
  body: unknown,
  headers: Headers,
  sessionId: string,
  /** The list's JSON, asked for only when the request is a plain tools/list: building it the first time costs tens of ms, which a tools/call must not wait for. */
  listJson: () => string,
  protocolVersions: readonly string[],
  /** The client accepts JSON but no event stream (json-answer.ts): JSON is its answer too. */
  onlyJson = false,
): Response | undefined {
  if (!isPlainToolsList(body)) return undefined;
  const accept = headers.get("accept") ?? "";
  if (!onlyJson && (!accept.includes("application/json") || !accept.includes("text/event-stream"))) return undefined;
  if (headers.get("content-type")?.split(";")[0]!.trim().toLowerCase() !== "application/json") return undefined;
  const version = headers.get("mcp-protocol-version");
  if (version !== null && !protocolVersions.includes(version)) return undefined;
  return new Response(`{"result":${listJson()},"jsonrpc":"2.0","id":${JSON.stringify(body.id)}}`, {
    headers: { "Content-Type": "application/json", "mcp-session-id": sessionId },
  });
}

/** `{"jsonrpc": "2.0", "id": 7, "method": "tools/list"}`, with at most a cursor in params (there is one page). */
function isPlainToolsList(body: unknown): body is { id: string | number } {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return false;
  const { jsonrpc, id, method, params, ...rest } = body as Record<string, unknown>;
  if (jsonrpc !== "2.0" || method !== "tools/list" || Object.keys(rest).length > 0) return false;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isInteger(id)))) return false;
  if (params === undefined) return true;
  if (params === null || typeof params !== "object" || Array.isArray(params)) return false;
  return Object.keys(params).every((key) => key === "cursor" || key === "_meta");
}
