// The front thread (Bun): it holds the public port. A plain tools/list on a known session it answers
// itself (src/http/list-front.ts); every other request it passes, unchanged and streaming, to the
// main thread's listener on a unix socket. Under load this keeps tools/list from waiting
// behind other calls' work and the main thread's garbage collections (docs/architecture.md).
import { FRONT_BODY_PEEK_BYTES, ListFront } from "../http/list-front.ts";
import { collectGarbage, shrinkFootprint } from "../platform/gc.ts";
import { MAX_FRONT_STREAMS, type FromFront, type ToFront } from "./front-protocol.ts";

declare const self: Worker;

/** How often the front tells the main thread which sessions it answered for (their idle clocks). */
const TOUCH_REPORT_MS = 1_000;

let front: ListFront | undefined;
let server: ReturnType<typeof Bun.serve> | undefined;
let touchTimer: ReturnType<typeof setInterval> | undefined;

function post(message: FromFront): void {
  self.postMessage(message);
}

self.onmessage = (event: MessageEvent<ToFront>) => {
  const message = event.data;
  switch (message.type) {
    case "start":
      return start(message);
    case "stop":
      return stop();
    case "collect":
      // Deep (long idle) also drops compiled code: the front's is small and quick to compile again.
      return message.deep ? shrinkFootprint() : collectGarbage(true);
    default:
      front?.apply(message);
  }
};

function start({ host, port, socket, setup }: Extract<ToFront, { type: "start" }>): void {
  const desk = new ListFront(setup);
  front = desk;
  try {
    server = Bun.serve({
      hostname: host,
      port,
      // As on the main listener: SSE streams and long tool calls must not be cut at 10 s.
      idleTimeout: 0,
      fetch: (request) => handle(desk, socket, request),
    });
  } catch (error) {
    post({ type: "failed", message: (error as Error).message });
    return;
  }
  touchTimer = setInterval(() => {
    const ids = desk.takeTouched();
    if (ids.length > 0) post({ type: "touched", ids });
  }, TOUCH_REPORT_MS);
  post({ type: "listening", port: server.port ?? port });
}

let openStreams = 0;

async function handle(desk: ListFront, socket: string, request: Request): Promise<Response> {
  // Only the MCP server-message streams are capped: the operator page and /harness/vibe must not
  // be refused because MCP sessions hold every slot.
  if (request.method !== "GET" || new URL(request.url).pathname !== "/mcp") return forward(desk, socket, request);
  if (openStreams >= MAX_FRONT_STREAMS) {
    return Response.json(
      {
        jsonrpc: "2.0",
        error: { code: -32000, message: `Method Not Allowed: ${MAX_FRONT_STREAMS} sessions already hold a server-message stream (GET /mcp); this session gets server messages on its own requests only. Close unused sessions (DELETE /mcp) to make room.` },
        id: null,
      },
      { status: 405, headers: { Allow: "POST, DELETE" } },
    );
  }
  openStreams++;
  let open = true;
  const release = () => {
    if (open) openStreams--;
    open = false;
  };
  request.signal.addEventListener("abort", release, { once: true });
  try {
    const response = await forward(desk, socket, request);
    if (!response.body) {
      release();
      return response;
    }
    return new Response(untilDone(response.body, release), { status: response.status, statusText: response.statusText, headers: response.headers });
  } catch (error) {
    release();
    throw error;
  }
}

/** The same stream, calling `done` once it ends, fails or is cancelled. */
function untilDone(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { value, done: ended } = await reader.read();
        if (ended) {
          done();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}

async function forward(desk: ListFront, socket: string, request: Request): Promise<Response> {
  const url = new URL(request.url);
  let body: ArrayBuffer | ReadableStream<Uint8Array> | null = request.body;
  const length = Number(request.headers.get("content-length") ?? NaN);
  if (request.method === "POST" && url.pathname === "/mcp" && length <= FRONT_BODY_PEEK_BYTES) {
    // The bytes are passed on as they came (invalid UTF-8 included); only the peek decodes them.
    const bytes = await request.arrayBuffer();
    const answer = desk.answer(request.headers, parsedOrUndefined(bytes));
    if (answer) return answer;
    body = bytes;
  }
  try {
    return await fetch(`http://localhost${url.pathname}${url.search}`, {
      unix: socket,
      method: request.method,
      headers: body instanceof ReadableStream ? withoutHopByHop(request.headers) : request.headers,
      body,
      signal: request.signal,
      redirect: "manual",
      decompress: false,
      timeout: false,
    } as RequestInit);
  } catch (error) {
    if (request.signal.aborted) return new Response(null, { status: 499 }); // the client is gone; nobody reads this
    return Response.json(
      { jsonrpc: "2.0", error: { code: -32603, message: `The sidecar could not pass the request on (${(error as Error).message}); it may be shutting down. Retry, or start it again.` }, id: null },
      { status: 502 },
    );
  }
}

/** A streamed body is framed again on the way in; its original framing headers would contradict that. */
function withoutHopByHop(headers: Headers): Headers {
  const copy = new Headers(headers);
  for (const name of ["transfer-encoding", "content-length", "connection", "keep-alive"]) copy.delete(name);
  return copy;
}

const decoder = new TextDecoder();

/**
 * The body parsed, when it may be a tools/list. Others are not parsed here: the main thread does
 * that anyway, and a tools/list spelled unusually (an escaped slash) is still answered there.
 */
function parsedOrUndefined(bytes: ArrayBuffer): unknown {
  const text = decoder.decode(bytes);
  if (!text.includes('"tools/list"')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function stop(): void {
  clearInterval(touchTimer);
  server?.stop(true);
  post({ type: "stopped" });
}
