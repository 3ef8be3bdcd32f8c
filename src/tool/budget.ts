// Output budgets: every cap says "N of M shown", never a silent cut.

interface Capped<T> {
  items: T[];
  shown: number;
  total: number;
  /** "50 of 120 shown", or "" when nothing was cut. */
  note: string;
}

/** Keeps the first `max` items and says how many there were. */
export function capList<T>(items: readonly T[], max: number): Capped<T> {
  const shown = Math.min(items.length, Math.max(0, max));
  return {
    items: items.slice(0, shown),
    shown,
    total: items.length,
    note: shown < items.length ? `${shown} of ${items.length} shown` : "",
  };
}

interface CappedText {
  text: string;
  /** Bytes removed from the middle; 0 when the text fit. */
  cutBytes: number;
}

/**
 * Bounds text to about `maxBytes` (UTF-8), keeping the head and the tail — the start says what
 * ran, the end says how it finished — with a marker naming how much was cut between them.
 * `missing`: bytes already left out in the middle of `text` (only a file's ends were read).
 */
export function capText(text: string, maxBytes: number, missing = 0): CappedText {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes && missing === 0) return { text, cutBytes: 0 };
  const half = Math.floor(maxBytes / 2);
  const head = bytes.subarray(0, half).toString("utf8").replace(/\uFFFD$/, "");
  const tail = bytes.subarray(bytes.length - half).toString("utf8").replace(/^\uFFFD/, "");
  const cutBytes = missing + bytes.length - Buffer.byteLength(head) - Buffer.byteLength(tail);
  return { text: `${head}\n… ${cutBytes} bytes cut …\n${tail}`, cutBytes };
}

/** Cuts one value to `max` characters, marking the cut. */
export function capValue(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length - max} more characters)`;
}
