// The SDK Server of one MCP session, whatever carries it (Streamable HTTP or stdio): the surface's
// tools/list and tools/call, and tools/list_changed whenever the run's tool set changes.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolRequestSchema, LATEST_PROTOCOL_VERSION, ListToolsRequestSchema, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { RunLog } from "../log/log.ts";
import type { Surface, ToolRegistry } from "../tool/registry.ts";
import { clientElicitation, ELICITATION_ANSWERS } from "./client-elicitation.ts";
import { ANSWERED_AS_JSON_HEADER } from "./json-answer.ts";
import { offerLogging } from "./mcp-log.ts";
import { negotiatedVersion } from "./resumable-streams.ts";
import { toolCallHandler, type CallActivity } from "./tool-call.ts";
import { ToolListCache } from "./tool-list.ts";

/** tools/call with any params: `toolCallHandler` checks them itself, in words (see there). */
const AnyParamsCallToolRequestSchema = CallToolRequestSchema.extend({ params: z.unknown().optional() });

const INSTRUCTIONS =
  "Server-bound tools of this agent run (language servers, structural search, debugger, kernels, questions, workers). Each tool's description says what it needs.";

export interface ServerIdentity {
  name: string;
  version: string;
}

interface SessionHooks {
  /** Hears this session's calls start and end, besides the run's own listener. */
  activity?: CallActivity;
  /** Ends a request's response stream once its call was cancelled (Streamable HTTP only). */
  endStream?(requestId: RequestId): void;
}

/**
 * A session's Server before its handlers: what it answers to initialize. `serve --stdio` answers the
 * handshake with one of its own before the run exists (http/roots-first.ts), so both must agree.
 */
export function sessionServer(identity: ServerIdentity, offersLogging: boolean): Server {
  return new Server(identity, {
    jsonSchemaValidator: ELICITATION_ANSWERS,
    capabilities: { tools: { listChanged: true }, ...(offersLogging ? { logging: {} } : {}) },
    instructions: INSTRUCTIONS,
  });
}

export class SurfaceServers {
  /** Every open session's Server, to tell each when the tool set changes. */
  private readonly open = new Set<Server>();
  private readonly unsubscribe: () => void;
  readonly lists: ToolListCache;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly identity: ServerIdentity,
    /** Aborted when the run shuts down, so long calls end with it. */
    private readonly runSignal: AbortSignal,
    /** Hears every session's calls start and end (the run's idle reclaim). */
    private readonly runActivity?: CallActivity,
    /** The run's log, offered to clients that set a logging level. */
    private readonly log?: RunLog,
  ) {
    this.lists = new ToolListCache(registry);
    this.unsubscribe = registry.onChange(() => {
      for (const server of this.open) server.sendToolListChanged().catch(() => {});
    });
  }

  /** A Server for one session of the surface, connected to its transport; forgotten once it closes. */
  async connect(surface: Surface, transport: Transport, hooks: SessionHooks = {}): Promise<Server> {
    // The version the Server answers initialize with (the SDK keeps it nowhere): a form's schema depends on it.
    let protocolVersion = LATEST_PROTOCOL_VERSION;
    const server = sessionServer(this.identity, this.log !== undefined);
    const stopLogging = this.log ? offerLogging(server, surface, this.log) : () => {};
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
        activities: [this.runActivity, hooks.activity].filter((a) => a !== undefined),
        endStream: hooks.endStream ?? (() => {}),
        elicitation: (extra) => clientElicitation(server, protocolVersion, extra, extra.requestInfo?.headers[ANSWERED_AS_JSON_HEADER] !== undefined),
      }),
    );
    const closed = server.onclose;
    server.onclose = () => {
      this.open.delete(server);
      stopLogging();
      closed?.();
    };
    this.open.add(server);
    await server.connect(transport);
    const handle = transport.onmessage;
    transport.onmessage = (message, extra) => {
      this.heard();
      if ((message as { method?: string }).method === "initialize") protocolVersion = negotiatedVersion(message);
      handle?.(message, extra);
    };
    return server;
  }

  /** A request or notification arrived: the run is not idle, though no call may be in flight. */
  heard(): void {
    this.runActivity?.requestHeard?.();
  }

  async closeAll(): Promise<void> {
    this.unsubscribe();
    const all = [...this.open];
    this.open.clear();
    await Promise.allSettled(all.map((server) => server.close()));
  }
}
