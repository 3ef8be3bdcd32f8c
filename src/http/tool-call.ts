// tools/call for one session: the request's params checked in words, the tool found for the
// surface, its context (cancellation, progress, heartbeat) built, and the call counted while it runs.
import { ErrorCode, type CallToolResult, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { CallReport, CallStart } from "../activity/call-report.ts";
import type { ToolContext } from "../tool/define.ts";
import type { ClientElicitation } from "../tool/elicitation.ts";
import { invokeTool } from "../tool/invoke.ts";
import type { Surface, ToolRegistry } from "../tool/registry.ts";
import { CallProgress } from "./call-progress.ts";
import type { ElicitingExtra } from "./client-elicitation.ts";

/**
 * Told when each tool call starts and ends: the run reclaims memory once none is in flight, and
 * records what each call did (activity/call-record.ts).
 */
export interface CallActivity {
  callStarted(start: CallStart): void;
  callEnded(report: CallReport): void;
  /** Any other message of a session (tools/list, ping, …): the run is not idle, though no call is in flight. */
  requestHeard?(): void;
}

/** What the SDK hands a request handler, as far as a tool call uses it. */
interface CallExtra extends ElicitingExtra {
  signal: AbortSignal;
  requestId: RequestId;
  sendNotification(notification: { method: "notifications/progress"; params: Record<string, unknown> }): Promise<void>;
  requestInfo?: { headers: Record<string, string | string[] | undefined> };
}

/**
 * A JSON-RPC error with a plain message. The SDK's McpError prefixes its message with
 * "MCP error -32602: ", which the server sends as is and the client prefixes again.
 */
export class RequestFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface ToolCallDeps {
  registry: ToolRegistry;
  surface: Surface;
  /** Aborted when the run shuts down, so long calls end with it. */
  runSignal: AbortSignal;
  /** Every call, across sessions (the run's idle reclaim) and in this session (eviction). */
  activities: readonly CallActivity[];
  /** Ends a request's response stream: for a call the client cancelled, the SDK sends no answer. */
  endStream(requestId: RequestId): void;
  /** The calling client's own way to ask its person, for this call; undefined when it has none. */
  elicitation(extra: CallExtra): ClientElicitation | undefined;
}

/** The tools/call handler of one session. */
export function toolCallHandler(deps: ToolCallDeps) {
  return async (request: { params?: unknown }, extra: CallExtra): Promise<CallToolResult> => {
    const params = checkedParams(request.params);
    const tool = deps.registry.find(deps.surface, params.name);
    if (!tool) {
      const available = deps.registry.forSurface(deps.surface).map((t) => t.name);
      throw new RequestFailure(ErrorCode.InvalidParams, `Unknown tool: ${params.name}. Tools available here: ${available.join(", ") || "none"}.`);
    }
    const signal = AbortSignal.any([extra.signal, deps.runSignal]);
    const progressToken = params._meta?.progressToken;
    const notify =
      progressToken === undefined
        ? undefined
        : (update: object) => void extra.sendNotification({ method: "notifications/progress", params: { progressToken, ...update } }).catch(() => {});
    const progress = new CallProgress(tool.name, notify, signal, tool.heartbeatMs);
    const ctx: ToolContext = {
      signal,
      surface: deps.surface.name,
      tiers: deps.surface.tiers,
      progress: (update) => progress.send(update),
      describeWork: (describe) => progress.describeWork(describe),
      elicit: deps.elicitation(extra),
    };
    const startedAt = Date.now();
    const started = performance.now();
    const start: CallStart = { surface: deps.surface.name, tool: tool.name, arguments: params.arguments, startedAt };
    for (const activity of deps.activities) activity.callStarted(start);
    let result: CallToolResult = { content: [] };
    try {
      result = await invokeTool(tool, params.arguments, ctx);
      return result;
    } finally {
      progress.stop();
      const report: CallReport = {
        surface: deps.surface.name,
        tool: tool.name,
        tier: tool.tier,
        arguments: params.arguments,
        result,
        startedAt,
        durationMs: performance.now() - started,
        // A call the client cancelled gets no answer, whatever it returned.
        cancelled: extra.signal.aborted || (result.structuredContent?.error as { code?: string } | undefined)?.code === "cancelled",
        start,
      };
      for (const activity of deps.activities) activity.callEnded(report);
      // The SDK sends no answer to a cancelled request, so its response stream stayed open: each
      // held a connection, and under Bun about 255 of them made every later call hang.
      if (extra.signal.aborted) deps.endStream(extra.requestId);
    }
  };
}

interface CallParams {
  name: string;
  arguments?: unknown;
  _meta?: { progressToken?: string | number };
}

/**
 * The params of a tools/call, or invalid params (-32602) in words. This is the one check: the
 * handler is registered with a schema that accepts any params, so a malformed call (alone or in a
 * batch) never reaches the SDK's own check, which answered with its schema library's JSON dump.
 */
function checkedParams(params: unknown): CallParams {
  const problem =
    typeof params !== "object" || params === null || Array.isArray(params)
      ? "params must be an object: {name, arguments}"
      : typeof (params as CallParams).name !== "string" || (params as CallParams).name === ""
        ? "params.name must be the tool's name, a non-empty string"
        : !isObjectOrAbsent((params as CallParams).arguments)
          ? "params.arguments must be an object of the tool's arguments"
          : !isObjectOrAbsent((params as CallParams)._meta)
            ? "params._meta must be an object"
            : undefined;
  if (problem) throw new RequestFailure(ErrorCode.InvalidParams, `Invalid tools/call request: ${problem}.`);
  return params as CallParams;
}

function isObjectOrAbsent(value: unknown): boolean {
  return value === undefined || (typeof value === "object" && value !== null && !Array.isArray(value));
}
