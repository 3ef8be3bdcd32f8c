// The run's log: events with a level, handed to every sink (stderr, a file, MCP clients that asked),
// each of which keeps the levels it wants. One event is one line wherever it goes.

/** Most severe first: a sink at `info` keeps error, warn and info. */
export const LOG_LEVELS = ["error", "warn", "info", "debug"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogEvent {
  time: Date;
  level: LogLevel;
  /** What kind of event, dotted: `run.serving`, `call`, `shutdown.failed` (docs/harness.md lists them). */
  event: string;
  /** The event in words, complete by itself. */
  message: string;
  /** Facts for machines (the json format and MCP clients): a tool, a surface, a duration. */
  fields: Record<string, unknown>;
}

export interface LogSink {
  write(event: LogEvent): void;
}

/** True when a sink at `threshold` keeps an event at `level`. */
export function levelAllows(threshold: LogLevel, level: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) <= LOG_LEVELS.indexOf(threshold);
}

export class RunLog {
  private readonly sinks = new Set<LogSink>();

  /** Adds a sink; returns its removal. */
  add(sink: LogSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  error(event: string, message: string, fields: Record<string, unknown> = {}): void {
    this.emit("error", event, message, fields);
  }

  warn(event: string, message: string, fields: Record<string, unknown> = {}): void {
    this.emit("warn", event, message, fields);
  }

  info(event: string, message: string, fields: Record<string, unknown> = {}): void {
    this.emit("info", event, message, fields);
  }

  debug(event: string, message: string, fields: Record<string, unknown> = {}): void {
    this.emit("debug", event, message, fields);
  }

  private emit(level: LogLevel, event: string, message: string, fields: Record<string, unknown>): void {
    const entry: LogEvent = { time: new Date(), level, event, message, fields };
    for (const sink of this.sinks) {
      try {
        sink.write(entry);
      } catch {
        // A sink that fails (a closed pipe, a full disk) must not fail what was being logged.
      }
    }
  }
}
