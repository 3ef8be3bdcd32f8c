// MCP Streamable HTTP sessions: one SDK Server + transport per Mcp-Session-Id, bound to one surface.
import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";
import {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import type { Tool, ToolContext } from "../tool/define.ts";
import { invokeTool } from "../tool/invoke.ts";
import { jsonSchemaOf } from "../tool/json-schema.ts";
import type { Surface, ToolRegistry } from "../tool/registry.ts";

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

  constructor(
    private readonly registry: ToolRegistry,
    private readonly identity: ServerIdentity,
    /** Aborted when the run shuts down, so long calls end with it. */
    private readonly runSignal: AbortSignal,
  ) {
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

  /** Room for one more session, evicting the least recently used idle one when full; false if every one is busy. */
  makeRoom(): boolean {
    if (this.sessions.size < MAX_SESSIONS) return true;
    let oldest: [string, McpSession] | undefined;
    for (const entry of this.sessions) {
      if (entry[1].callsInFlight === 0 && (!oldest || entry[1].lastUsed < oldest[1].lastUsed)) oldest = entry;
    }
    if (!oldest) return false;
    this.sessions.delete(oldest[0]);
    void oldest[1].server.close();
    return true;
  }

  /** A new session for an initialize request; it is kept once the transport assigns its id. */
  async open(surface: Surface): Promise<McpSession> {
    const activity = { callsInFlight: 0 };
    const server = this.createServer(surface, activity);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, session);
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
        void server.close();
      },
    });
    const session: McpSession = Object.assign(activity, { surface, server, transport, lastUsed: Date.now() });
    await server.connect(transport);
    return session;
  }

  async closeAll(): Promise<void> {
    this.unsubscribe();
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(all.map((s) => s.server.close()));
  }

  private createServer(surface: Surface, activity: { callsInFlight: number }): Server {
    const server = new Server(this.identity, {
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
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown tool: ${request.params.name}. Tools available here: ${available.join(", ") || "none"}.`,
        );
      }
      const progressToken = request.params._meta?.progressToken;
      const signal = AbortSignal.any([extra.signal, this.runSignal]);
      const ctx: ToolContext = {
        signal,
        surface: surface.name,
        progress: (update) => {
          if (progressToken === undefined || signal.aborted) return;
          extra
            .sendNotification({ method: "notifications/progress", params: { progressToken, ...update } })
            .catch(() => {});
        },
      };
      activity.callsInFlight++;
      try {
        return await invokeTool(tool, request.params.arguments, ctx);
      } finally {
        activity.callsInFlight--;
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
