// `serve`'s log: --log-level, --log-format and --log-file turned into the run's log and its sinks.
import { resolve } from "node:path";
import { RunLog, LOG_LEVELS, type LogLevel } from "../log/log.ts";
import { LOG_FORMATS, type LogFormat } from "../log/log-line.ts";
import { FileSink, StreamSink } from "../log/log-sinks.ts";
import { UsageError, type CliFlags } from "./args.ts";

const DEFAULT_LOG_LEVEL: LogLevel = "info";

interface ServeLog {
  log: RunLog;
  /** Writes what the log file still has queued; the last step of shutdown. */
  close(): Promise<void>;
}

/** The run's log: stderr always, the file when --log-file names one, both at --log-level in --log-format. */
export function logFromFlags(flags: CliFlags, stderr: NodeJS.WritableStream = process.stderr): ServeLog {
  const level = pick("log-level", flags["log-level"], LOG_LEVELS, DEFAULT_LOG_LEVEL);
  const format = pick("log-format", flags["log-format"], LOG_FORMATS, "text");
  const log = new RunLog();
  log.add(new StreamSink(stderr, level, format));
  let file: FileSink | undefined;
  if (flags["log-file"] !== undefined) {
    const path = resolve(flags["log-file"]);
    try {
      file = new FileSink(path, level, format, (error) => log.warn("log.file_failed", `The log file ${path} cannot be written (${error.message}); logging to stderr only.`));
    } catch (error) {
      throw new UsageError(`--log-file ${flags["log-file"]}: cannot open it for appending (${(error as Error).message}).`);
    }
    log.add(file);
  }
  return { log, close: async () => file?.close() };
}

function pick<T extends string>(flag: string, given: string | undefined, allowed: readonly T[], fallback: T): T {
  if (given === undefined) return fallback;
  if ((allowed as readonly string[]).includes(given)) return given as T;
  throw new UsageError(`--${flag} must be one of ${allowed.join(", ")}, not ${JSON.stringify(given)}.`);
}
