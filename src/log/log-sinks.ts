// Where log lines go: a stream (stderr) whose reader may be gone, and a file.
import { levelAllows, type LogEvent, type LogLevel, type LogSink } from "./log.ts";
import { formatLogLine, type LogFormat } from "./log-line.ts";
import { LineFile } from "./line-file.ts";

/**
 * Makes a closed pipe harmless for the process's own stdout and stderr. Without a listener, the
 * EPIPE of a write to a pipe nobody reads any more is an uncaught error: a harness that closed its
 * end made the sidecar exit 1 in the middle of its shutdown, leaving workers and temp state behind.
 */
export function ignoreClosedPipes(...streams: NodeJS.WritableStream[]): void {
  for (const stream of streams) {
    if (closedStreams.has(stream)) continue;
    closedStreams.set(stream, false);
    stream.on("error", () => closedStreams.set(stream, true));
  }
}

const closedStreams = new WeakMap<NodeJS.WritableStream, boolean>();

/** Writes to a stream unless it is known to be closed; never throws. */
export function writeQuietly(stream: NodeJS.WritableStream, text: string): void {
  if (closedStreams.get(stream)) return;
  try {
    stream.write(text);
  } catch {
    closedStreams.set(stream, true);
  }
}

/** Lines at `level` and above to a stream (stderr), quietly dropped once it has no reader. */
export class StreamSink implements LogSink {
  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly level: LogLevel,
    private readonly format: LogFormat,
  ) {
    ignoreClosedPipes(stream);
  }

  write(event: LogEvent): void {
    if (levelAllows(this.level, event.level)) writeQuietly(this.stream, `${formatLogLine(event, this.format)}\n`);
  }
}

/** Lines at `level` and above appended to a file, in the background. */
export class FileSink implements LogSink {
  private readonly file: LineFile;

  constructor(
    path: string,
    private readonly level: LogLevel,
    private readonly format: LogFormat,
    onError: (error: Error) => void,
  ) {
    this.file = new LineFile(path, { onError });
  }

  write(event: LogEvent): void {
    if (levelAllows(this.level, event.level)) this.file.append(formatLogLine(event, this.format));
  }

  close(): Promise<void> {
    return this.file.close();
  }
}
