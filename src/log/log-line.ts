// One log event as one line: for a person (text) or for a machine (json, one object per line).
import type { LogEvent } from "./log.ts";

export const LOG_FORMATS = ["text", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The word a text line puts before the message; info needs none. */
const LEVEL_WORDS = { error: "error: ", warn: "warning: ", info: "", debug: "debug: " } as const;

/**
 * text: `2026-12-01T20:42:16.123Z sidecar: warning: <message>`.
 * json: `{"time", "level", "event", "message", ...fields}`; a field never overwrites those four.
 */
export function formatLogLine(event: LogEvent, format: LogFormat): string {
  const time = event.time.toISOString();
  if (format === "text") return `${time} sidecar: ${LEVEL_WORDS[event.level]}${oneLine(event.message)}`;
  const line: Record<string, unknown> = { time, level: event.level, event: event.event, message: event.message };
  for (const [key, value] of Object.entries(event.fields)) if (!(key in line)) line[key] = value;
  return JSON.stringify(line);
}

/** A message with a newline (a stack) would read as several events: its lines are joined. */
function oneLine(text: string): string {
  return text.replace(/\r?\n\s*/g, " ⏎ ");
}
