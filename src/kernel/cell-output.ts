// What one cell produced, in order, bounded while it arrives so a runaway cell cannot exhaust memory.
import type { MimeBundle } from "./protocol.ts";

/**
 * Per stream run, the head and tail kept while output arrives. The answer shows far less (see
 * render.ts); this only bounds memory, and the cut is counted so the answer can say how much.
 */
export const STREAM_KEEP_CHARS = 64_000;
/** Displays kept per cell; image data is never cut, so the count is what is bounded. */
export const MAX_DISPLAYS = 100;

export type OutputItem =
  | { kind: "stream"; name: "stdout" | "stderr"; text: string }
  | { kind: "display"; data: MimeBundle; result: boolean }
  | { kind: "error"; ename: string; evalue: string; traceback: string };

export class CellOutput {
  readonly items: OutputItem[] = [];
  /** Bytes of stream output dropped from the middle of long runs. */
  droppedBytes = 0;
  /** Displays beyond MAX_DISPLAYS, not kept. */
  droppedDisplays = 0;
  private displays = 0;

  stream(name: "stdout" | "stderr", text: string): void {
    let last = this.items.at(-1);
    if (last?.kind === "stream" && last.name === name) last.text += text;
    else this.items.push((last = { kind: "stream", name, text }));
    if (last.text.length > 3 * STREAM_KEEP_CHARS) {
      const head = last.text.slice(0, STREAM_KEEP_CHARS);
      const tail = last.text.slice(-STREAM_KEEP_CHARS);
      const dropped = last.text.slice(STREAM_KEEP_CHARS, -STREAM_KEEP_CHARS);
      // An inner marker: it always lands inside the part render.ts cuts, which reports the total.
      this.droppedBytes += Buffer.byteLength(dropped);
      last.text = `${head}\n…\n${tail}`;
    }
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
