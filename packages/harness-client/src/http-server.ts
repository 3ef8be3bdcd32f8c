// The small HTTP server the reference question port and bridge endpoint run on (node:http, so the
// package works on Node and Bun alike): listen on loopback, read a JSON body, answer JSON.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** Bodies past this are refused: a card or a bridge call is a few KB. */
const MAX_BODY_BYTES = 4 * 2 ** 20;

export interface Listening {
  server: Server;
  /** http://127.0.0.1:PORT */
  origin: string;
  close(): Promise<void>;
}

export type Handler = (request: IncomingMessage, response: ServerResponse) => Promise<void> | void;

export async function listen(handler: Handler, host = "127.0.0.1", port = 0): Promise<Listening> {
  const server = createServer((request, response) => {
    Promise.resolve(handler(request, response)).catch((error: Error) => {
      if (!response.headersSent) reply(response, 500, { error: { code: "internal_error", message: error.message } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the server has no TCP address");
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    server,
    origin: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The request's JSON body, or undefined when it is not JSON (or too large). */
export async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}

export function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  response.end(JSON.stringify(body));
}

/** True when no token is required, or the request carries it as a bearer token. */
export function authorised(request: IncomingMessage, token: string | undefined): boolean {
  return token === undefined || request.headers.authorization === `Bearer ${token}`;
}
