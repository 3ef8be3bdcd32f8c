// The end of a worker's output kept in memory: the last bytes (its fallback result) and its last line.
import { StringDecoder } from "node:string_decoder";

/** Longest progress line kept; a worker printing a huge line must not bloat every vibe_list. */
const MAX_LINE_CHARS = 200;
/** Of the line being written, this much of its head is kept: enough to trim and show. */
const PARTIAL_KEPT_CHARS = 4096;

export class OutputTail {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private partial = "";
  /** A character split across two chunks is decoded whole. */
  private readonly decoder = new StringDecoder("utf8");
  private line: string | undefined;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.chunks.length > 1 && this.bytes - this.chunks[0]!.length >= this.maxBytes) {
      this.bytes -= this.chunks.shift()!.length;
    }
    const lines = this.decoder.write(chunk).split(/\r?\n|\r/);
    // Only a line's head is ever shown: keeping the whole of a line that never ends re-scanned it on
    // every chunk (a 120 MB line without a newline stalled every call for 30 s).
    lines[0] = (this.partial + lines[0]).slice(0, PARTIAL_KEPT_CHARS);
    this.partial = (lines.pop() ?? "").slice(0, PARTIAL_KEPT_CHARS);
    for (const line of lines) if (line.trim() !== "") this.line = line.trim();
  }

  /** The last `maxBytes` bytes, decoded; a character cut in half at the start is dropped. */
  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.maxBytes)).toString("utf8").replace(/^\uFFFD/, "");
  }

  /** The last non-blank line, including one still being written. */
  lastLine(): string | undefined {
    const line = this.partial.trim() !== "" ? this.partial.trim() : this.line;
    return line === undefined || line.length <= MAX_LINE_CHARS ? line : `${line.slice(0, MAX_LINE_CHARS)}…`;
  }
}
