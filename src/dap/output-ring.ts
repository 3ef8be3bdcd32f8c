// The debuggee's output, bounded: fragments joined into lines, old text dropped and counted.

/** How many characters of program output a session keeps. */
const OUTPUT_RING_CHARS = 64_000;

interface OutputRead {
  text: string;
  /** Characters that were dropped before this reader saw them. */
  dropped: number;
  /** Absolute offsets (characters since the program started) of the text returned. */
  from: number;
  to: number;
}

export interface OutputPage extends OutputRead {
  /** Characters after `to` that this page left for the next one. */
  more: number;
  /** Every character the program has written so far. */
  total: number;
}

/**
 * One stream of text with absolute offsets. Each reader (the `output` operation, the stop reports)
 * keeps its own cursor, so reading in one place does not hide output from the other.
 *
 * Adapters deliver fragments (debugpy sends `print`'s text and its newline separately), and
 * stdout and stderr interleave: each stream's partial line waits until its newline arrives — or
 * until someone reads — so a stderr line never lands in the middle of a stdout line.
 */
export class OutputRing {
  private text = "";
  /** Absolute offset of `text[0]`. */
  private start = 0;
  private readonly cursors = new Map<string, number>();
  private readonly partial = new Map<string, string>();

  constructor(private readonly capacity = OUTPUT_RING_CHARS) {}

  /** When the last fragment arrived (ms since the epoch): a reader about to report waits for quiet. */
  lastAppendAt = 0;

  append(fragment: string, stream = "stdout"): void {
    this.lastAppendAt = Date.now();
    const pending = (this.partial.get(stream) ?? "") + fragment;
    const lineEnd = pending.lastIndexOf("\n");
    if (lineEnd < 0 && pending.length <= this.capacity) {
      this.partial.set(stream, pending);
      return;
    }
    if (lineEnd < 0) {
      // A line longer than the whole ring (a progress bar without \n) is not held back forever.
      this.partial.set(stream, "");
      this.push(pending);
      return;
    }
    this.partial.set(stream, pending.slice(lineEnd + 1));
    this.push(pending.slice(0, lineEnd + 1));
  }

  /** Everything this reader has not seen yet, and how much it missed. */
  read(reader: string): OutputRead {
    this.flushPartials();
    const cursor = this.cursors.get(reader) ?? 0;
    const from = Math.max(cursor, this.start);
    const end = this.end;
    this.cursors.set(reader, end);
    return { text: this.text.slice(from - this.start), dropped: from - cursor, from, to: end };
  }

  /**
   * At most `maxChars` from `offset` (default: the reader's cursor), moving the reader's cursor to
   * the page's end — so what a page leaves out, the next page returns.
   */
  page(reader: string, maxChars: number, offset?: number): OutputPage {
    this.flushPartials();
    const wanted = offset ?? this.cursors.get(reader) ?? 0;
    const from = Math.min(Math.max(wanted, this.start), this.end);
    const to = Math.min(from + maxChars, this.end);
    this.cursors.set(reader, to);
    return {
      text: this.text.slice(from - this.start, to - this.start),
      dropped: Math.max(0, Math.min(this.start, this.end) - wanted),
      from,
      to,
      more: this.end - to,
      total: this.end,
    };
  }

  /** Absolute offset just past the last character kept. */
  get end(): number {
    return this.start + this.text.length;
  }

  private flushPartials(): void {
    for (const [stream, pending] of this.partial) {
      // lldb ends lines with \r\n, sometimes split across fragments: a trailing \r waits for its \n.
      const held = pending.endsWith("\r") ? "\r" : "";
      this.partial.set(stream, held);
      this.push(held ? pending.slice(0, -1) : pending);
    }
  }

  private push(text: string): void {
    this.text += text.replace(/\r\n/g, "\n");
    const excess = this.text.length - this.capacity;
    if (excess > 0) {
      this.text = this.text.slice(excess);
      this.start += excess;
    }
  }
}
