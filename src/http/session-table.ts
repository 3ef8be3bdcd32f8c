// MCP Streamable HTTP sessions: one SDK Server + transport per Mcp-Session-Id, bound to one surface.
import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { Surface, ToolRegistry } from "../tool/registry.ts";
import { SurfaceServers, type ServerIdentity } from "./surface-server.ts";
import type { RunLog } from "../log/log.ts";
import type { CallActivity } from "./tool-call.ts";
import { EventLog } from "./event-log.ts";
import { endCancelledStream, RETRY_MS, type ResumableSession } from "./resumable-streams.ts";
import { plainToolsListResponse } from "./tool-list.ts";

export type { ServerIdentity } from "./surface-server.ts";

/**
 * Open sessions are bounded per surface: each holds a little memory and, once its client opens it,
 * an event stream. Clients often just drop a session (the SDK's close() sends no DELETE), so a
 * surface at its cap makes room by ending its own least recently used session with no call in
 * flight; its client gets 404 and initializes again. Per surface, so that a plan token opening
 * sessions in a loop ends only plan's sessions, never the default client's.
 */
export const MAX_SESSIONS_PER_SURFACE = 256;

export interface McpSession extends ResumableSession {
  surface: Surface;
  server: Server;
  /** When a request last arrived for it (ms since epoch). */
  lastUsed: number;
  /** Tool calls running in it; a session with one is never evicted. */
  callsInFlight: number;
}

export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  private readonly servers: SurfaceServers;

  constructor(registry: ToolRegistry, identity: ServerIdentity, runSignal: AbortSignal, runActivity?: CallActivity, log?: RunLog) {
    this.servers = new SurfaceServers(registry, identity, runSignal, runActivity, log);
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
  async open(surface: Surface, protocolVersion: string): Promise<McpSession> {
    let session: McpSession; // set below, before any request reaches the transport
    const events = new EventLog();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, session),
      onsessionclosed: (id) => {
        this.sessions.delete(id);
        void session.server.close();
      },
      eventStore: events,
      retryInterval: RETRY_MS,
    });
    const server = await this.servers.connect(surface, transport, {
      activity: { callStarted: () => session.callsInFlight++, callEnded: () => session.callsInFlight-- },
      endStream: (requestId) => endCancelledStream(session, requestId),
    });
    session = { surface, server, transport, events, protocolVersion, lastUsed: Date.now(), callsInFlight: 0 };
    return session;
  }

  /**
   * One session over a transport of its own (stdio): the same tools, tiers, progress, cancellation
   * and list_changed as over HTTP. It ends when the transport closes, or with the run.
   */
  attach(surface: Surface, transport: Transport): Promise<Server> {
    return this.servers.connect(surface, transport);
  }

  /** A plain tools/list request answered from the surface's cached, serialized list; undefined for anything else. */
  answerToolsList(session: McpSession, body: unknown, headers: Headers, onlyJson: boolean): Response | undefined {
    const id = session.transport.sessionId;
    if (id === undefined) return undefined;
    const answer = plainToolsListResponse(body, headers, id, () => this.servers.lists.json(session.surface), SUPPORTED_PROTOCOL_VERSIONS, onlyJson);
    // Answered here, the request never reaches the session's Server, which tells the run of the others.
    if (answer) this.servers.heard();
    return answer;
  }

  async closeAll(): Promise<void> {
    this.sessions.clear();
    await this.servers.closeAll();
  }
}
