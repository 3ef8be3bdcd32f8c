// /mcp requests for tests of limits: plain ones by fetch, calls held open on raw sockets (fetch runs
// at most 256 requests at once per process), and a request written whole before it is read, by a
// `node` child whose sockets report EPIPE as most clients' do.
import { execFile } from "node:child_process";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { expect } from "bun:test";
import type { TestRun } from "./sidecar.ts";
import { until } from "./until.ts";

export const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "limits", version: "1" } } };

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function headers(t: TestRun, surface: string, session?: string): Record<string, string> {
  return {
    Authorization: `Bearer ${t.run.surfaces[surface]}`,
    "Content-Type": "application/json",
    Accept: "application/json",
    ...(session ? { "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18" } : {}),
  };
}

/** One request to /mcp with the surface's token (and a session's id); the answer's status and text. */
export async function postMcp(t: TestRun, surface: string, body: string, options: { method?: string; session?: string } = {}): Promise<{ status: number; body: string; session: string | null }> {
  const method = options.method ?? "POST";
  const response = await t.fetch("/mcp", { method, headers: headers(t, surface, options.session), body: method === "POST" ? body : undefined });
  return { status: response.status, body: await response.text(), session: response.headers.get("mcp-session-id") };
}

/** A new session of the surface; its id. */
export async function initializeSession(t: TestRun, surface: string): Promise<string> {
  const answer = await postMcp(t, surface, JSON.stringify(INITIALIZE));
  expect(answer.status).toBe(200);
  return answer.session!;
}

/** Starts a test_quiet call in the session and holds its event stream open until the call runs; destroy the socket to hang up. */
export async function holdQuietCall(t: TestRun, surface: string, session: string, ms = 170_000): Promise<Socket> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "test_quiet", arguments: { ms } } });
  const head = { Host: `127.0.0.1:${t.run.port}`, ...headers(t, surface, session), Accept: "application/json, text/event-stream", "Content-Length": String(Buffer.byteLength(body)) };
  const socket = await new Promise<Socket>((resolve, reject) => {
    const socket = connect(t.run.port, "127.0.0.1", () => socket.write(`POST /mcp HTTP/1.1\r\n${Object.entries(head).map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n${body}`));
    socket.once("data", (answer) => (answer.toString().startsWith("HTTP/1.1 200") ? resolve(socket) : reject(new Error(answer.toString()))));
    socket.on("error", reject);
  });
  await until(`the call in session ${session} to run`, () => (t.run.sessions.get(session)?.callsInFlight ?? 0) > 0);
  return socket;
}

/**
 * POSTs `message` padded with spaces (still one JSON value) to exactly `size` bytes, from a raw
 * socket in a `node` child that writes the whole request before it reads; a write that fails
 * (EPIPE) rejects, as such a client never sees an answer sent while it was still writing.
 */
export function writeAllThenRead(url: URL, token: string, message: object, size: number): Promise<RawAnswer> {
  const spec = {
    requestLine: `POST ${url.pathname} HTTP/1.1`,
    headers: { Host: url.host, Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json" },
    message,
    size,
  };
  return new Promise((resolve, reject) => {
    execFile("node", [join(import.meta.dir, "write-all-then-read.mjs"), url.port, JSON.stringify(spec)], (error, stdout) => {
      if (error) return reject(error);
      const result = JSON.parse(stdout) as RawAnswer | { error: string };
      if ("error" in result) reject(new Error(`a ${size}-byte POST: ${result.error}`));
      else resolve(result);
    });
  });
}
