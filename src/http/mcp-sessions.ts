// MCP Streamable HTTP sessions: one SDK Server + transport per Mcp-Session-Id, bound to one surface.
import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { z } from "zod";
import {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import type { Tool, ToolContext } from "../tool/define.ts";
import { invokeTool } from "../tool/invoke.ts";
import { jsonSchemaOf } from "../tool/json-schema.ts";
import type { Surface, ToolRegistry } from "../tool/registry.ts";
import type { FrontUpdate } from "./list-front.ts";
import { toolsListResponse } from "./tools-list-answer.ts";

/**
 * tools/call with `arguments` loosened: the SDK validates the request itself and answers a
 * non-object `arguments` with JSON-RPC invalid params (-32602). Given its strict schema here, the
 * same request would first fail our handler's parse and come back as an internal error (-32603).
 */
const LooseCallToolRequestSchema = CallToolRequestSchema.extend({
  params: CallToolRequestParamsSchema.extend({ arguments: z.unknown().optional() }),
});

/**
 * Open sessions are bounded: each holds a little memory for its stream. Clients often just drop a
 * session (the SDK's close() sends no DELETE), so a full table makes room by ending the least
 * recently used session with no call in flight; its client gets 404 and initializes again.
 */
export const MAX_SESSIONS = 512;

/** Told when each tool call starts and ends (the run reclaims memory once none is in flight). */
export interface CallActivity {
  callStarted(): void;
  callEnded(): void;
}

export interface ServerIdentity {
  name: string;
  version: string;
}

interface McpSession {
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
  /** Each surface's serialized tools/list result, and the tools it was built from. */
  private readonly listed = new Map<string, { tools: readonly Tool[]; json: string }>();
  /**
   * One validator for every session's Server: the SDK builds an Ajv instance per Server otherwise,
   * tens of ms of main thread per new session (50 clients connecting at once stalled every call).
   */
  private readonly validator = new AjvJsonSchemaValidator();
  /** Fronts answering tools/list on another thread, with the surfaces each keeps lists for. */
  private readonly fronts = new Set<{ tell(update: FrontUpdate): void; surfaces: readonly Surface[] }>();

  constructor(
    private readonly registry: ToolRegistry,
    private readonly identity: ServerIdentity,
    /** Aborted when the run shuts down, so long calls end with it. */
    private readonly runSignal: AbortSignal,
    /** Hears every session's calls start and end (the run's idle reclaim); each session also counts its own. */
    private readonly runActivity?: CallActivity,
  ) {
    this.unsubscribe = registry.onChange(() => {
      // Fronts first: a client re-listing on the notification must find the new list there.
      for (const front of this.fronts) for (const surface of front.surfaces) front.tell(this.listUpdate(surface));
      for (const session of this.sessions.values()) session.server.sendToolListChanged().catch(() => {});
    });
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * Keeps a front (a thread answering tools/list for these sessions) up to date: the surfaces'
   * lists and the open sessions now, then every change. Returns a stop.
   */
  watch(surfaces: readonly Surface[], tell: (update: FrontUpdate) => void): () => void {
    const front = { tell, surfaces };
    for (const surface of surfaces) tell(this.listUpdate(surface));
    for (const [id, session] of this.sessions) tell({ type: "session", id, surface: session.surface.name });
    this.fronts.add(front);
    return () => this.fronts.delete(front);
  }

  private listUpdate(surface: Surface): FrontUpdate {
    return { type: "list", surface: surface.name, json: this.toolsListJson(surface) };
  }

  private tellFronts(update: FrontUpdate): void {
    for (const front of this.fronts) front.tell(update);
  }

  get(id: string): McpSession | undefined {
    const session = this.sessions.get(id);
    if (session) session.lastUsed = Date.now();
    return session;
  }

  /** Room for one more session, evicting the least recently used idle one when full; false if every one is busy. */
  makeRoom(): boolean {
    if (this.sessions.size < MAX_SESSIONS) return true;
    let oldest: [string, McpSession] | undefined;
    for (const entry of this.sessions) {
      if (entry[1].callsInFlight === 0 && (!oldest || entry[1].lastUsed < oldest[1].lastUsed)) oldest = entry;
    }
    if (!oldest) return false;
    this.sessions.delete(oldest[0]);
    this.tellFronts({ type: "ended", id: oldest[0] });
    void oldest[1].server.close();
    return true;
  }

  /** A new session for an initialize request; it is kept once the transport assigns its id. */
  async open(surface: Surface): Promise<McpSession> {
    const sessionCalls = { callsInFlight: 0 };
    const server = this.createServer(surface, sessionCalls, (requestId) => transport.closeSSEStream(requestId));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, session);
        this.tellFronts({ type: "session", id, surface: surface.name });
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
        this.tellFronts({ type: "ended", id });
        void server.close();
      },
    });
    const session: McpSession = Object.assign(sessionCalls, { surface, server, transport, lastUsed: Date.now() });
    await server.connect(transport);
    return session;
  }

  /**
   * A plain tools/list request answered from the surface's cached, already serialized list, as a
   * JSON response. It is the request clients send most, and the SDK path cost about 1 ms of main
   * thread each (schema parsing, a 30 KB stringify, an SSE stream) while other calls waited behind
   * it. Where a front thread listens (src/http/list-front.ts), it answers these itself first.
   */
  answerToolsList(session: McpSession, body: unknown, headers: Headers): Response | undefined {
    const id = session.transport.sessionId;
    return id === undefined ? undefined : toolsListResponse(body, headers, id, this.toolsListJson(session.surface), SUPPORTED_PROTOCOL_VERSIONS);
  }

  /** The serialized tools/list result of a surface, built again only when its tools change. */
  private toolsListJson(surface: Surface): string {
    const tools = this.registry.forSurface(surface);
    const hit = this.listed.get(surface.name);
    if (hit && hit.tools.length === tools.length && hit.tools.every((tool, k) => tool === tools[k])) return hit.json;
    const json = JSON.stringify({ tools: tools.map(describeTool) });
    this.listed.set(surface.name, { tools, json });
    return json;
  }

  async closeAll(): Promise<void> {
    this.unsubscribe();
    const all = [...this.sessions.values()];
    for (const id of this.sessions.keys()) this.tellFronts({ type: "ended", id });
    this.sessions.clear();
    await Promise.allSettled(all.map((s) => s.server.close()));
  }

  /** `endStream` ends a request's response stream, for a call the client cancelled (no answer is sent). */
  private createServer(surface: Surface, sessionCalls: { callsInFlight: number }, endStream: (requestId: RequestId) => void): Server {
    const server = new Server(this.identity, {
      jsonSchemaValidator: this.validator,
      capabilities: { tools: { listChanged: true } },
      instructions:
        "Server-bound tools of this agent run (language servers, structural search, debugger, kernels, questions, workers). Each tool's description says what it needs.",
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: this.registry.forSurface(surface).map(describeTool),
    }));
    server.setRequestHandler(LooseCallToolRequestSchema, async (request, extra) => {
      const tool = this.registry.find(surface, request.params.name);
      if (!tool) {
        const available = this.registry.forSurface(surface).map((t) => t.name);
        throw new RequestFailure(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}. Tools available here: ${available.join(", ") || "none"}.`);
      }
      const progressToken = request.params._meta?.progressToken;
      const signal = AbortSignal.any([extra.signal, this.runSignal]);
      const started = Date.now();
      let lastProgress = { at: started, value: 0 };
      const send = (update: { progress: number; total?: number; message?: string }) => {
        if (progressToken === undefined || signal.aborted) return;
        lastProgress = { at: Date.now(), value: update.progress };
        extra.sendNotification({ method: "notifications/progress", params: { progressToken, ...update } }).catch(() => {});
      };
      const ctx: ToolContext = { signal, surface: surface.name, progress: send };
      // Any call quiet for HEARTBEAT_MS still reports (a language server loading its project can
      // take 30 s): MCP clients cancel a call after 60 s without progress by default. The value
      // creeps up by a thousandth, so it always increases and stays below the tool's own next one.
      const heartbeat = setInterval(() => {
        if (Date.now() - lastProgress.at < HEARTBEAT_MS) return;
        send({ progress: lastProgress.value + 0.001, message: `${tool.name} is still working (${Math.round((Date.now() - started) / 1000)} s)` });
      }, HEARTBEAT_MS / 2);
      sessionCalls.callsInFlight++;
      this.runActivity?.callStarted();
      try {
        return await invokeTool(tool, request.params.arguments, ctx);
      } finally {
        clearInterval(heartbeat);
        sessionCalls.callsInFlight--;
        this.runActivity?.callEnded();
        // The SDK sends no answer to a cancelled request, so its response stream stayed open: under
        // Bun each held one of the front's 256 fetches, and after ~255 cancels every call hung.
        if (extra.signal.aborted) endStream(extra.requestId);
      }
    });
    return server;
  }
}

/** The tools/list entry: schemas from valibot, tier mapped onto MCP annotations. */
export function describeTool(tool: Tool): McpTool {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.input),
    outputSchema: jsonSchemaOf(tool.output),
    annotations: {
      readOnlyHint: tool.tier === "read",
      destructiveHint: tool.tier !== "read",
      ...(tool.tier === "exec" ? { openWorldHint: true } : {}),
    },
  };
}

/** How long a call may go without a progress notification before a heartbeat is sent. */
export const HEARTBEAT_MS = 10_000;

/**
 * A JSON-RPC error with a plain message. The SDK's McpError prefixes its message with
 * "MCP error -32602: ", which the server sends as is and the client prefixes again.
 */
class RequestFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
