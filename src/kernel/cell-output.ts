// What one cell produced, in order, bounded while it arrives so a runaway cell cannot exhaust memory.
import { collectGarbage } from "../platform/gc.ts";
import type { MimeBundle } from "./protocol.ts";

/**
 * Per stream run, the head and tail kept while output arrives. The answer shows far less (see
 * render.ts); this only bounds memory, and the cut is counted so the answer can say how much.
 */
const STREAM_KEEP_CHARS = 64_000;
/** After this much stream output, the runtime is asked to collect the dead chunks. */
const GC_EVERY_BYTES = 16 * 1024 * 1024;
/** Displays kept per cell; image data is never cut, so the count is what is bounded. */
export const MAX_DISPLAYS = 100;

type OutputItem =
  | StreamRun
  | { kind: "display"; data: MimeBundle; result: boolean }
  | { kind: "error"; ename: string; evalue: string; traceback: string };

/**
 * One run of a stream's output: a head kept whole, then a tail of chunks from which the oldest are
 * dropped. Chunks are never concatenated while output streams in, so a flood costs memory in
 * proportion to what is kept, not (through repeated joins of a growing string) to what passed.
 */
export class StreamRun {
  readonly kind = "stream";
  private head = "";
  private readonly tail: string[] = [];
  private tailChars = 0;
  private cut = false;

  constructor(readonly name: "stdout" | "stderr") {}

  /** Adds output; returns the bytes dropped from the middle to stay within the budget. */
  append(text: string): number {
    if (this.tail.length === 0 && this.head.length + text.length <= 2 * STREAM_KEEP_CHARS) {
      this.head += text;
      return 0;
    }
    if (this.tail.length === 0) {
      const all = this.head + text;
      this.head = all.slice(0, STREAM_KEEP_CHARS);
      this.tail.push(all.slice(STREAM_KEEP_CHARS));
      this.tailChars = all.length - STREAM_KEEP_CHARS;
    } else {
      this.tail.push(text);
      this.tailChars += text.length;
    }
    let dropped = 0;
    while (this.tail.length > 1 && this.tailChars - this.tail[0]!.length >= STREAM_KEEP_CHARS) {
      const chunk = this.tail.shift()!;
      this.tailChars -= chunk.length;
      dropped += Buffer.byteLength(chunk);
      this.cut = true;
    }
    return dropped;
  }

  get text(): string {
    // An inner marker: it always lands inside the part render.ts cuts, which reports the total.
    return this.cut ? `${this.head}\n…\n${this.tail.join("")}` : this.head + this.tail.join("");
  }
}

export class CellOutput {
  readonly items: OutputItem[] = [];
  /** Bytes of stream output dropped from the middle of long runs. */
  droppedBytes = 0;
  /** Displays beyond MAX_DISPLAYS, not kept. */
  droppedDisplays = 0;
  private displays = 0;
  private droppedSinceCollect = 0;

  stream(name: "stdout" | "stderr", text: string): void {
    let last = this.items.at(-1);
    if (!(last instanceof StreamRun && last.name === name)) this.items.push((last = new StreamRun(name)));
    const dropped = last.append(text);
    this.droppedBytes += dropped;
    this.droppedSinceCollect += dropped;
    if (this.droppedSinceCollect >= GC_EVERY_BYTES) {
      this.droppedSinceCollect = 0;
      collectGarbage();
    }
  }

  /** Output that belongs before everything the cell wrote (background work's, from between cells). */
  lead(name: "stdout" | "stderr", text: string): void {
    const run = new StreamRun(name);
    this.droppedBytes += run.append(text);
    this.items.unshift(run);
  }

  display(data: MimeBundle, result: boolean): void {
    if (this.displays >= MAX_DISPLAYS && !result) {
      this.droppedDisplays++;
      return;
    }
    this.displays++;
    this.items.push({ kind: "display", data, result });
  }

  error(ename: string, evalue: string, traceback: string): void {
    this.items.push({ kind: "error", ename, evalue, traceback });
  }
}
