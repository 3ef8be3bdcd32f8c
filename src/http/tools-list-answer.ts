// The answer to a plain tools/list from an already serialized list, without the SDK: the request
// clients send most. The main thread gives it for its sessions, and so does the front thread
// (src/http/list-front.ts), which answers it without waiting for the main thread. No SDK import
// here: loading the SDK's schemas cost the front thread about 100 ms of start-up, so the caller
// passes in the protocol versions its SDK accepts.

/**
 * The JSON response to a plain tools/list, or undefined when the request is anything else — a batch,
 * params other than a cursor, headers the SDK would refuse — so that it goes through the SDK and
 * its answers and errors stay the SDK's own.
 */
export function toolsListResponse(
  body: unknown,
  headers: Headers,
  sessionId: string,
  listJson: string,
  protocolVersions: readonly string[],
): Response | undefined {
  if (!isPlainToolsList(body)) return undefined;
  const accept = headers.get("accept") ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  if (headers.get("content-type")?.split(";")[0]!.trim().toLowerCase() !== "application/json") return undefined;
  const version = headers.get("mcp-protocol-version");
  if (version !== null && !protocolVersions.includes(version)) return undefined;
  return new Response(`{"result":${listJson},"jsonrpc":"2.0","id":${JSON.stringify(body.id)}}`, {
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
