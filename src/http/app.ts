// The Hono app of one run: guards (Host, Origin, token, size), /mcp, and the harness's own routes.
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ToolRegistry, Surface } from "../tool/registry.ts";
import { openedAtOnce } from "./event-stream.ts";
import { bearerToken, isLoopbackHost, isLoopbackOrigin, matchToken } from "./guard.ts";
import type { ListFrontFeed } from "./list-front.ts";
import { McpSessions, type CallActivity, type ServerIdentity } from "./mcp-sessions.ts";

export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface SurfaceToken extends Surface {
  token: string;
}

/**
 * A route the harness calls (diagnostics on write, vibe switch, permission prompts, …). Routes are
 * handed in as data so this layer never imports a domain service.
 */
export interface HarnessRoute {
  method: "GET" | "POST" | "DELETE";
  /** Path under the app root, e.g. "/harness/after-write". */
  path: string;
  /** Which surfaces' tokens may call it; default just "default". */
  surfaces?: readonly string[];
  /** Routes that authenticate by themselves (e.g. a page taking its token from the query). */
  public?: boolean;
  handle(request: Request, surface: Surface | undefined): Promise<Response> | Response;
}

export interface AppOptions {
  registry: ToolRegistry;
  surfaces: readonly SurfaceToken[];
  identity: ServerIdentity;
  runSignal: AbortSignal;
  /** Hears each tool call start and end. */
  activity?: CallActivity;
  /** Skip the loopback Host/Origin checks (only with --allow-remote). */
  allowRemote?: boolean;
  routes?: readonly HarnessRoute[];
}

type Env = { Variables: { surface: SurfaceToken } };

export function createApp(options: AppOptions): { app: Hono<Env>; sessions: McpSessions; front: ListFrontFeed } {
  const sessions = new McpSessions(options.registry, options.identity, options.runSignal, options.activity);
  const app = new Hono<Env>();
  // For a runtime that answers tools/list on a front thread: everything that thread must know.
  const front: ListFrontFeed = {
    setup: {
      surfaces: options.surfaces.map(({ name, token }) => ({ name, token })),
      allowRemote: options.allowRemote ?? false,
      protocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
    },
    watch: (listener) => sessions.watch(options.surfaces, listener),
    touched: (ids) => {
      for (const id of ids) sessions.get(id);
    },
  };

  app.onError((error, c) => {
    // A bug in a handler must not take the process down; the client gets a JSON-RPC internal error.
    console.error(`sidecar: unhandled error on ${c.req.method} ${c.req.path}: ${error.stack ?? error}`);
    return jsonRpcError(c, 500, -32603, "Internal error in the sidecar; the request may be retried.");
  });

  app.use("*", async (c, next) => {
    if (!options.allowRemote) {
      const host = c.req.header("host") ?? "";
      if (!isLoopbackHost(host)) return jsonRpcError(c, 403, -32000, `Forbidden: Host ${JSON.stringify(host)} is not a loopback name.`);
      const origin = c.req.header("origin");
      if (origin !== undefined && !isLoopbackOrigin(origin)) {
        return jsonRpcError(c, 403, -32000, `Forbidden: Origin ${JSON.stringify(origin)} is not a loopback origin.`);
      }
    }
    await next();
  });

  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => jsonRpcError(c, 413, -32000, `Request body too large: the limit is ${MAX_BODY_BYTES} bytes.`),
    }),
  );

  for (const route of options.routes ?? []) {
    app.on(route.method, route.path, async (c) => {
      if (route.public) return route.handle(c.req.raw, undefined);
      const surface = matchToken(bearerToken(c.req.header("authorization")), options.surfaces);
      const allowed = route.surfaces ?? ["default"];
      if (!surface || !allowed.includes(surface.name)) return unauthorized(c);
      return route.handle(c.req.raw, surface);
    });
  }

  app.use("/mcp", async (c, next) => {
    const surface = matchToken(bearerToken(c.req.header("authorization")), options.surfaces);
    if (!surface) return unauthorized(c);
    c.set("surface", surface);
    await next();
  });

  app.on(["GET", "DELETE"], "/mcp", async (c) => {
    const session = sessionFor(c, sessions);
    if (session instanceof Response) return session;
    return openedAtOnce(await session.transport.handleRequest(c.req.raw));
  });

  app.post("/mcp", async (c) => {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return jsonRpcError(c, 400, -32700, "Parse error: the request body is not valid JSON.");
    }
    if (c.req.header("mcp-session-id") === undefined && isInitialize(body)) {
      if (!sessions.makeRoom()) return jsonRpcError(c, 503, -32000, "Too many MCP sessions have a call running; wait for one to finish, or close one (DELETE /mcp), and retry.");
      const session = await sessions.open(c.get("surface"));
      return openedAtOnce(await session.transport.handleRequest(c.req.raw, { parsedBody: body }));
    }
    const session = sessionFor(c, sessions);
    if (session instanceof Response) return session;
    const malformed = malformedToolCall(body);
    if (malformed) return c.json(malformed);
    return sessions.answerToolsList(session, body, c.req.raw.headers) ?? openedAtOnce(await session.transport.handleRequest(c.req.raw, { parsedBody: body }));
  });

  app.notFound((c) => c.json({ error: `No route ${c.req.method} ${c.req.path}. The MCP endpoint is /mcp.` }, 404));
  return { app, sessions, front };
}

function sessionFor(c: Context<Env>, sessions: McpSessions) {
  const id = c.req.header("mcp-session-id");
  if (id === undefined) return jsonRpcError(c, 400, -32000, "Bad Request: no Mcp-Session-Id header; send initialize first.");
  const session = sessions.get(id);
  if (!session) return jsonRpcError(c, 404, -32001, "Session not found: it ended or never existed; initialize a new one.");
  if (session.surface.name !== c.get("surface").name) {
    return jsonRpcError(c, 403, -32000, "Forbidden: this session belongs to another surface's token.");
  }
  return session;
}

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => m !== null && typeof m === "object" && (m as { method?: unknown }).method === "initialize");
}

function unauthorized(c: Context): Response {
  c.header("WWW-Authenticate", 'Bearer realm="sidecar"');
  return jsonRpcError(c, 401, -32000, "Unauthorized: send the surface's token as 'Authorization: Bearer <token>'.");
}

/**
 * A tools/call whose params are not `{name: string, arguments?: object}`, answered here with
 * invalid params (-32602) in words. The SDK answered it as an internal error carrying its schema
 * library's JSON dump, or with "MCP error -32602: " twice.
 */
function malformedToolCall(body: unknown): object | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const request = body as { method?: unknown; id?: unknown; params?: unknown };
  if (request.method !== "tools/call" || (typeof request.id !== "string" && typeof request.id !== "number")) return undefined;
  const params = request.params as { name?: unknown; arguments?: unknown } | undefined;
  const args = params?.arguments;
  const problem =
    typeof params !== "object" || params === null || Array.isArray(params)
      ? "params must be an object: {name, arguments}"
      : typeof params.name !== "string" || params.name === ""
        ? "params.name must be the tool's name, a non-empty string"
        : args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))
          ? "params.arguments must be an object of the tool's arguments"
          : undefined;
  return problem && { jsonrpc: "2.0", id: request.id, error: { code: -32602, message: `Invalid tools/call request: ${problem}.` } };
}

function jsonRpcError(c: Context, status: 400 | 401 | 403 | 404 | 413 | 500 | 503, code: number, message: string): Response {
  return c.json({ jsonrpc: "2.0", error: { code, message }, id: null }, status);
}
