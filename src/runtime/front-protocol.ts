// What the main thread and the front thread (src/runtime/front-worker.bun.ts) share: their messages, and the cap on streams.
import type { FrontSetup, FrontUpdate } from "../http/list-front.ts";

/**
 * Bun's fetch runs at most 256 requests at once per process (BUN_CONFIG_MAX_HTTP_REQUESTS, read at
 * start-up) and queues the rest. A standalone SSE stream (GET /mcp) holds its request open for the
 * session's life, so past 256 of them every call would queue for ever. Streams are capped well
 * below that, leaving the rest for calls, which finish and make room. A GET past the cap gets 405,
 * which the MCP transport allows: that client then hears server messages only on its own calls.
 */
export const MAX_FRONT_STREAMS = 128;

export type ToFront =
  | { type: "start"; host: string; port: number; socket: string; setup: FrontSetup }
  | FrontUpdate
  | { type: "collect"; deep: boolean }
  | { type: "stop" };

export type FromFront =
  | { type: "listening"; port: number }
  | { type: "failed"; message: string }
  | { type: "touched"; ids: string[] }
  | { type: "stopped" };
