// What the call adapter (http/tool-call.ts) reports about each tool call as it starts and as it
// ends: the facts the call record, the log and the operator page are made from.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Tier } from "../tool/tier.ts";

/** A call as it starts; the same object comes back as the report's `start` when it ends. */
export interface CallStart {
  surface: string;
  tool: string;
  /** The arguments as the client sent them (before validation). */
  arguments: unknown;
  /** When the call started (ms since the epoch). */
  startedAt: number;
}

export interface CallReport {
  surface: string;
  tool: string;
  tier: Tier;
  /** The arguments as the client sent them (before validation). */
  arguments: unknown;
  result: CallToolResult;
  /** When the call started (ms since the epoch) and how long it ran. */
  startedAt: number;
  durationMs: number;
  /** Cancelled by the client or by the run's shutdown (the client then gets no answer). */
  cancelled: boolean;
  /** What callStarted was given for this call, so a listener can pair the two. */
  start?: CallStart;
}
