// The run's log for MCP clients that ask for it: `logging/setLevel` per session, then every event
// at or above that level as `notifications/message` (logger = the event's name, data = its message
// and fields). A session that never set a level is sent nothing; a surface hears of its own calls only.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, SetLevelRequestSchema, type LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { LogEvent, LogLevel, RunLog } from "../log/log.ts";
import type { Surface } from "../tool/registry.ts";
import { RequestFailure } from "./tool-call.ts";

/** MCP's levels, least severe first (RFC 5424's, as the spec names them). */
const MCP_LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const AS_MCP: Record<LogLevel, LoggingLevel> = { debug: "debug", info: "info", warn: "warning", error: "error" };

/** logging/setLevel with any params: checked below in words, not by the SDK's schema (a zod dump as -32603). */
const AnyParamsSetLevelSchema = SetLevelRequestSchema.extend({ params: z.unknown().optional() });

/** Answers the session's logging/setLevel and forwards the log to it from then on; returns the removal. */
export function offerLogging(server: Server, surface: Surface, log: RunLog): () => void {
  let threshold: LoggingLevel | undefined;
  server.setRequestHandler(AnyParamsSetLevelSchema, (request) => {
    const level = (request.params as { level?: unknown } | undefined)?.level;
    if (!MCP_LEVELS.includes(level as LoggingLevel)) {
      throw new RequestFailure(ErrorCode.InvalidParams, `Invalid logging/setLevel request: params.level must be one of ${MCP_LEVELS.join(", ")}.`);
    }
    threshold = level as LoggingLevel;
    return {};
  });
  return log.add({
    write(event: LogEvent) {
      if (threshold === undefined) return;
      const level = AS_MCP[event.level];
      if (MCP_LEVELS.indexOf(level) < MCP_LEVELS.indexOf(threshold)) return;
      // Another surface's calls are its own business (plan mode need not see what default ran).
      if (typeof event.fields.surface === "string" && event.fields.surface !== surface.name) return;
      void server
        .notification({ method: "notifications/message", params: { level, logger: event.event, data: { message: event.message, ...event.fields } } })
        .catch(() => {});
    },
  });
}
