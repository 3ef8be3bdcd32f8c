// Resumable event streams (MCP 2025-11-25): each response stream opens with a priming event (an id
// and a retry delay), every event carries an id, and a client whose connection dropped reconnects
// with Last-Event-ID and gets what it missed. The SDK does the framing and the live resume; this
// file decides what it cannot: which version frames a session's streams, and when a stream is over.
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { streamOf, type EventLog } from "./event-log.ts";
import { ANSWERED_AS_JSON_HEADER } from "./json-answer.ts";

/** How long a client waits before reconnecting a dropped stream (the priming event's `retry`). */
export const RETRY_MS = 1_000;

export interface ResumableSession {
  transport: WebStandardStreamableHTTPServerTransport;
  events: EventLog;
  /** Negotiated at initialize. */
  protocolVersion: string;
}

/** The version a session's initialize settles on, as the SDK's Server picks it. */
export function negotiatedVersion(initialize: unknown): string {
  const messages = Array.isArray(initialize) ? initialize : [initialize];
  const asked = messages.find((m) => (m as { method?: unknown } | null)?.method === "initialize")?.params?.protocolVersion;
  return typeof asked === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
}

/**
 * The request as the SDK's transport should see it. The SDK frames a stream by the version in the
 * request's header, but the session's negotiated version is what its client agreed to: a request
 * naming an older (supported) version, or none, still gets the session's framing. An unsupported
 * version is left for the SDK to refuse. `acceptBoth`: see json-answer.ts.
 */
export function requestForSdk(request: Request, session: ResumableSession | undefined, acceptBoth: boolean): Request {
  const changes: Record<string, string> = {};
  if (acceptBoth) {
    changes.accept = "application/json, text/event-stream";
    changes[ANSWERED_AS_JSON_HEADER] = "1";
  }
  const named = request.headers.get("mcp-protocol-version");
  if (session && named !== session.protocolVersion && (named === null || SUPPORTED_PROTOCOL_VERSIONS.includes(named))) {
    changes["mcp-protocol-version"] = session.protocolVersion;
  }
  if (Object.keys(changes).length === 0) return request;
  const headers = new Headers(request.headers);
  for (const [name, value] of Object.entries(changes)) headers.set(name, value);
  // The body was read already and is handed to the SDK parsed.
  return new Request(request.url, { method: request.method, headers, signal: request.signal });
}

/**
 * Ends the response stream of a call the client cancelled: the SDK sends no answer to it, so the
 * stream stayed open (each held a connection; under Bun about 255 of them made every call hang).
 * The stream is over, and resuming it replays what is left and ends.
 */
export function endCancelledStream(session: ResumableSession, requestId: RequestId): void {
  const streams = requestStreams(session.transport);
  const streamId = streams.get(requestId);
  session.transport.closeSSEStream(requestId);
  // The SDK keeps a cancelled request's entry for ever; without it the stream counts as over.
  streams.delete(requestId);
  if (streamId !== undefined) session.events.settle(streamId);
}

/**
 * A GET with Last-Event-ID. While a call still runs on the stream (or for the standalone stream),
 * the SDK replays what was missed and carries on with it. A stream that is over is answered here
 * with what is left of it, then ended, or 204 when nothing is: the SDK would hold it open for ever,
 * and the SDK's client reconnects, again and again, to a stream that ends without a result in it.
 */
export async function resume(session: ResumableSession, request: Request, lastEventId: string): Promise<Response> {
  const streamId = streamOf(lastEventId);
  const running = streamId === STANDALONE_STREAM || [...requestStreams(session.transport).values()].includes(streamId ?? "");
  // An id that names no stream is the SDK's to refuse; a live stream the SDK's to carry on.
  if (streamId === undefined || running) return session.transport.handleRequest(request);
  const missed = session.events.eventsAfter(lastEventId) ?? [];
  const sessionId = session.transport.sessionId ?? "";
  if (missed.length === 0) return new Response(null, { status: 204, headers: { "mcp-session-id": sessionId } });
  const text = missed.map((event) => `event: message\nid: ${event.id}\ndata: ${JSON.stringify(event.message)}\n\n`).join("");
  return new Response(text, { headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "mcp-session-id": sessionId } });
}

/** The SDK's id for the standalone stream of GET /mcp, where server-initiated messages go. */
const STANDALONE_STREAM = "_GET_stream";

/**
 * Which stream each unanswered request's response goes to. The SDK keeps this privately
 * (`_requestToStreamMapping`); resuming needs to know whether a call still runs on a stream.
 */
function requestStreams(transport: WebStandardStreamableHTTPServerTransport): Map<RequestId, string> {
  const streams = (transport as unknown as { _requestToStreamMapping?: unknown })._requestToStreamMapping;
  if (!(streams instanceof Map)) throw new Error("The MCP SDK's transport no longer keeps _requestToStreamMapping; src/http/resumable-streams.ts must follow it.");
  return streams as Map<RequestId, string>;
}
