// The Hono app of one run: guards (Host, Origin, token, size), /mcp, and the harness's own routes.
import { Hono, type Context } from "hono";
import { routeError, type RouteErrorCode } from "../answer/route-error.ts";
import type { HarnessRoute } from "../host/harness-route.ts";
import type { RunLog } from "../log/log.ts";
import type { ToolRegistry, Surface } from "../tool/registry.ts";
import { readBoundedBody } from "./body-limit.ts";
import { openedAtOnce } from "./event-stream.ts";
import { bearerToken, isLoopbackHost, isLoopbackOrigin, isWellFormedHost, matchToken } from "./guard.ts";
import { acceptsOnlyJson, asJsonAnswer } from "./json-answer.ts";
import { negotiatedVersion, requestForSdk, resume } from "./resumable-streams.ts";
import { MAX_SESSIONS_PER_SURFACE, McpSessions, type McpSession, type ServerIdentity } from "./session-table.ts";
import type { CallActivity } from "./tool-call.ts";

export { MAX_BODY_BYTES } from "./body-limit.ts";

export interface SurfaceToken extends Surface {
  token: string;
}

interface AppOptions {
  registry: ToolRegistry;
  surfaces: readonly SurfaceToken[];
  identity: ServerIdentity;
  runSignal: AbortSignal;
  /** Hears each tool call start and end. */
  activity?: CallActivity;
  /** Skip the loopback Host/Origin checks (only with --allow-remote). */
  allowRemote?: boolean;
  routes?: readonly HarnessRoute[];
  /** Where an unhandled error is reported. */
  log?: RunLog;
}

type Env = { Variables: { surface: SurfaceToken } };

export function createApp(options: AppOptions): { app: Hono<Env>; sessions: McpSessions } {
  const sessions = new McpSessions(options.registry, options.identity, options.runSignal, options.activity, options.log);
  const app = new Hono<Env>();

  app.onError((error, c) => {
    // A bug in a handler must not take the process down; the client gets an internal error.
    const where = `${c.req.method} ${c.req.path}`;
    if (options.log) options.log.error("http.unhandled", `Unhandled error on ${where}: ${error.stack ?? error}`, { method: c.req.method, path: c.req.path });
    else console.error(`sidecar: unhandled error on ${where}: ${error.stack ?? error}`);
    return failure(c, 500, "internal_error", "Internal error in the sidecar; the request may be retried.", {}, -32603);
  });

  app.use("*", async (c, next) => {
    const host = c.req.header("host") ?? "";
    // Even with --allow-remote: the request's URL is built from it, and handlers parse that URL.
    if (host !== "" && !isWellFormedHost(host)) {
      return failure(c, 400, "bad_host", `Bad Request: the Host header ${JSON.stringify(host)} is not a host name or address with an optional port, such as 127.0.0.1:8080.`);
    }
    if (!options.allowRemote) {
      if (!isLoopbackHost(host)) return failure(c, 403, "forbidden_host", `Forbidden: Host ${JSON.stringify(host)} is not a loopback name.`);
      const origin = c.req.header("origin");
      if (origin !== undefined && !isLoopbackOrigin(origin)) {
        return failure(c, 403, "forbidden_origin", `Forbidden: Origin ${JSON.stringify(origin)} is not a loopback origin.`);
      }
    }
    await next();
  });

  app.use("*", async (c, next) => {
    const read = await readBoundedBody(c.req.raw);
    // The body was drained: the answer reaches a client that writes it all before reading, and the
    // connection closes after it rather than wait for more of a request already refused.
    if (read.kind === "too_large") return failure(c, 413, "body_too_large", read.sentence, { Connection: "close" });
    if (read.body) c.req.raw = new Request(c.req.raw, { body: read.body });
    await next();
  });

  for (const route of options.routes ?? []) {
    app.on(route.method, route.path, async (c) => {
      if (route.public) return route.handle(c.req.raw, undefined);
      const surface = matchToken(bearerToken(c.req.header("authorization")), options.surfaces);
      const allowed = route.surfaces ?? ["default"];
      if (!surface) return unauthorized(c, `Unauthorized: send the ${allowed.join(" or ")} surface's token as 'Authorization: Bearer <token>'.`);
      if (!allowed.includes(surface.name)) {
        return unauthorized(c, `This route needs the ${allowed.join(" or ")} surface's token; the one sent is the ${surface.name} surface's.`, "wrong_surface");
      }
      return route.handle(c.req.raw, surface);
    });
  }

  app.use("/mcp", async (c, next) => {
    const surface = matchToken(bearerToken(c.req.header("authorization")), options.surfaces);
    if (!surface) return unauthorized(c, "Unauthorized: send the surface's token as 'Authorization: Bearer <token>'.");
    c.set("surface", surface);
    await next();
  });

  app.on(["GET", "DELETE"], "/mcp", async (c) => {
    const session = sessionFor(c, sessions);
    if (session instanceof Response) return session;
    const lastEventId = c.req.method === "GET" ? c.req.header("last-event-id") : undefined;
    if (lastEventId !== undefined) return openedAtOnce(await resume(session, c.req.raw, lastEventId));
    return openedAtOnce(await session.transport.handleRequest(c.req.raw));
  });

  app.post("/mcp", async (c) => {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return jsonRpcError(c, 400, -32700, "Parse error: the request body is not valid JSON.");
    }
    const onlyJson = acceptsOnlyJson(c.req.header("accept"));
    const answer = async (session: McpSession) => {
      const response = await session.transport.handleRequest(requestForSdk(c.req.raw, session, onlyJson), { parsedBody: body });
      return onlyJson ? asJsonAnswer(response) : openedAtOnce(response);
    };
    if (c.req.header("mcp-session-id") === undefined && isInitialize(body)) {
      if (!sessions.makeRoom(c.get("surface"))) {
        return jsonRpcError(c, 503, -32000, `Too many sessions: all ${MAX_SESSIONS_PER_SURFACE} of this token's MCP sessions have a call running, the most a surface holds; wait for one to finish, or close one (DELETE /mcp), and retry.`);
      }
      return answer(await sessions.open(c.get("surface"), negotiatedVersion(body)));
    }
    const session = sessionFor(c, sessions);
    if (session instanceof Response) return session;
    return sessions.answerToolsList(session, body, c.req.raw.headers, onlyJson) ?? answer(session);
  });

  app.notFound((c) => routeError(404, "not_found", `No route ${c.req.method} ${c.req.path}. The MCP endpoint is /mcp.`));
  return { app, sessions };
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

function unauthorized(c: Context, message: string, code: RouteErrorCode = "unauthorized"): Response {
  return failure(c, 401, code, message, { "WWW-Authenticate": 'Bearer realm="sidecar"' });
}

/** An error answer: a JSON-RPC envelope on /mcp, whose clients read those; plain `{error: {code, message}}` on every other route. */
function failure(
  c: Context,
  status: 400 | 401 | 403 | 404 | 413 | 500,
  code: RouteErrorCode,
  message: string,
  headers: Record<string, string> = {},
  rpcCode = -32000,
): Response {
  if (c.req.path !== "/mcp") return routeError(status, code, message, headers);
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return jsonRpcError(c, status, rpcCode, message);
}

function jsonRpcError(c: Context, status: 400 | 401 | 403 | 404 | 413 | 500 | 503, code: number, message: string): Response {
  return c.json({ jsonrpc: "2.0", error: { code, message }, id: null }, status);
}
