// MCP Streamable HTTP sessions: one SDK Server + transport per Mcp-Session-Id, bound to one surface.
import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { z } from "zod";
import { CallToolRequestSchema, ListToolsRequestSchema, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { Surface, ToolRegistry } from "../tool/registry.ts";
import { toolCallHandler, type CallActivity } from "./tool-call.ts";
import { plainToolsListResponse, ToolListCache } from "./tool-list.ts";

/**
 * Open sessions are bounded per surface: each holds a little memory and, once its client opens it,
 * an event stream. Clients often just drop a session (the SDK's close() sends no DELETE), so a
 * surface at its cap makes room by ending its own least recently used session with no call in
 * flight; its client gets 404 and initializes again. Per surface, so that a plan token opening
 * sessions in a loop ends only plan's sessions, never the default client's.
 */
export const MAX_SESSIONS_PER_SURFACE = 256;

/** tools/call with any params: `toolCallHandler` checks them itself, in words (see there). */
const AnyParamsCallToolRequestSchema = CallToolRequestSchema.extend({ params: z.unknown().optional() });

/** Refuses every schema: it would only be asked to check an elicitation answer, which never comes. */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: "the sidecar does not elicit input" }),
};

export interface ServerIdentity {
  name: string;
  version: string;
}

export interface McpSession {
  surface: Surface;
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  /** When a request last arrived for it (ms since epoch). */
  lastUsed: number;
  /** Tool calls running in it; a session with one is never evicted. */
  callsInFlight: number;
}

export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  private readonly unsubscribe: () => void;
  private readonly lists: ToolListCache;
  /**
   * The SDK's Server validates only elicitation answers with a JSON Schema validator, and the
   * sidecar never elicits; without one given it builds an Ajv instance per session (tens of ms of
   * main thread each, and about a MB of heap).
   */
  private readonly validator: jsonSchemaValidator = NO_ELICITATION;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly identity: ServerIdentity,
    /** Aborted when the run shuts down, so long calls end with it. */
    private readonly runSignal: AbortSignal,
    /** Hears every session's calls start and end (the run's idle reclaim). */
    private readonly runActivity?: CallActivity,
  ) {
    this.lists = new ToolListCache(registry);
    this.unsubscribe = registry.onChange(() => {
      for (const session of this.sessions.values()) session.server.sendToolListChanged().catch(() => {});
    });
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): McpSession | undefined {
    const session = this.sessions.get(id);
    if (session) session.lastUsed = Date.now();
    return session;
  }

  /** How many sessions the named surface has open. */
  countOf(surface: string): number {
    let count = 0;
    for (const session of this.sessions.values()) if (session.surface.name === surface) count++;
    return count;
  }

  /**
   * Room for one more session of this surface, ending its least recently used idle session when it
   * is at its cap; false if every one of its sessions has a call running.
   */
  makeRoom(surface: Surface): boolean {
    if (this.countOf(surface.name) < MAX_SESSIONS_PER_SURFACE) return true;
    let oldest: [string, McpSession] | undefined;
    for (const entry of this.sessions) {
      const [, session] = entry;
      if (session.surface.name !== surface.name || session.callsInFlight > 0) continue;
      if (!oldest || session.lastUsed < oldest[1].lastUsed) oldest = entry;
    }
    if (!oldest) return false;
    this.sessions.delete(oldest[0]);
    void oldest[1].server.close();
    return true;
  }

  /** A new session for an initialize request; it is kept once the transport assigns its id. */
  async open(surface: Surface): Promise<McpSession> {
    const server = new Server(this.identity, {
      jsonSchemaValidator: this.validator,
      capabilities: { tools: { listChanged: true } },
      instructions:
        "Server-bound tools of this agent run (language servers, structural search, debugger, kernels, questions, workers). Each tool's description says what it needs.",
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, session),
      onsessionclosed: (id) => {
        this.sessions.delete(id);
        void server.close();
      },
    });
    const session: McpSession = { surface, server, transport, lastUsed: Date.now(), callsInFlight: 0 };
    const inThisSession: CallActivity = { callStarted: () => session.callsInFlight++, callEnded: () => session.callsInFlight-- };
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.lists.described(surface) }));
    // Registered past the Server's own tools/call wrapper, whose check of the params would answer a
    // malformed call with a schema dump before ours could word it.
    Protocol.prototype.setRequestHandler.call(
      server,
      AnyParamsCallToolRequestSchema,
      toolCallHandler({
        registry: this.registry,
        surface,
        runSignal: this.runSignal,
        activities: this.runActivity ? [this.runActivity, inThisSession] : [inThisSession],
        endStream: (requestId) => transport.closeSSEStream(requestId),
      }),
    );
    await server.connect(transport);
    return session;
  }

  /** A plain tools/list request answered from the surface's cached, serialized list; undefined for anything else. */
  answerToolsList(session: McpSession, body: unknown, headers: Headers): Response | undefined {
    const id = session.transport.sessionId;
    return id === undefined ? undefined : plainToolsListResponse(body, headers, id, this.lists.json(session.surface), SUPPORTED_PROTOCOL_VERSIONS);
  }

  async closeAll(): Promise<void> {
    this.unsubscribe();
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(all.map((s) => s.server.close()));
  }
}
