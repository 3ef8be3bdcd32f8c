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

/** Sessions beyond this many are refused until one ends; each holds a little memory for its stream. */
export const MAX_SESSIONS = 512;

export interface ServerIdentity {
  name: string;
  version: string;
}

interface McpSession {
  surface: Surface;
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
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
    return this.sessions.get(id);
  }

  isFull(): boolean {
    return this.sessions.size >= MAX_SESSIONS;
  }

  /** A new session for an initialize request; it is kept once the transport assigns its id. */
  async open(surface: Surface): Promise<McpSession> {
    const server = this.createServer(surface);
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
    const session: McpSession = { surface, server, transport };
    await server.connect(transport);
    return session;
  }

  async closeAll(): Promise<void> {
    this.unsubscribe();
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(all.map((s) => s.server.close()));
  }

  private createServer(surface: Surface): Server {
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
      return invokeTool(tool, request.params.arguments, ctx);
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
