// The debuggee's output, bounded: fragments joined in one text, old text dropped and counted.

/** How many characters of program output a session keeps. */
export const OUTPUT_RING_CHARS = 64_000;

export interface OutputRead {
  text: string;
  /** Characters that were dropped before this reader saw them. */
  dropped: number;
}

/**
 * One stream of text with absolute offsets. Each reader (the `output` operation, the stop reports)
 * keeps its own cursor, so reading in one place does not hide output from the other.
 */
export class OutputRing {
  private text = "";
  /** Absolute offset of `text[0]`. */
  private start = 0;
  private readonly cursors = new Map<string, number>();
  private heldCarriageReturn = false;

  constructor(private readonly capacity = OUTPUT_RING_CHARS) {}

  append(fragment: string): void {
    // lldb delivers the debuggee's output with \r\n, sometimes split between two fragments: a
    // trailing \r waits for the next fragment instead of being shown and then taken back.
    let joined = (this.heldCarriageReturn ? "\r" : "") + fragment;
    this.heldCarriageReturn = joined.endsWith("\r");
    if (this.heldCarriageReturn) joined = joined.slice(0, -1);
    this.text += joined.replace(/\r\n/g, "\n");
    const excess = this.text.length - this.capacity;
    if (excess > 0) {
      this.text = this.text.slice(excess);
      this.start += excess;
    }
  }

  get end(): number {
    return this.start + this.text.length;
  }

  /** Everything this reader has not seen yet, and how much it missed. */
  read(reader: string): OutputRead {
    const cursor = this.cursors.get(reader) ?? 0;
    const from = Math.max(cursor, this.start);
    this.cursors.set(reader, this.end);
    return { text: this.text.slice(from - this.start), dropped: from - cursor };
  }
}
