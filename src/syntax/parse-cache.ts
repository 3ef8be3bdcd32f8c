// Parse trees kept for the run, keyed by (path, size, mtime), bounded by source size (second-chance LRU). A file
// read but not parsed (none of a pattern's words in it) is kept as text alone, so the next search
// checks it again without touching the disk; it gets its tree once a search needs one.
import type { Tree } from "web-tree-sitter";
import type { RememberedOutcomes } from "./remembered-outcomes.ts";
import type { TextFacts } from "./text-facts.ts";

export interface ParsedFile {
  path: string;
  size: number;
  mtimeMs: number;
  language: string;
  text: string;
  /** Absent until a search needed the file parsed. */
  tree?: Tree;
  /** What searches found in `text` so far; goes with the entry when the file changes. */
  facts?: TextFacts;
  /** What earlier searches found in `text`; goes with the entry when the file changes. */
  outcomes?: RememberedOutcomes;
  /** ERROR and MISSING nodes in `tree`, once counted. */
  parseErrors?: number;
  /** Read since eviction last passed it: it gets a second chance (see put). */
  used?: boolean;
}

/** Trees cost roughly ten times their source in WASM memory; the bound counts source characters. */
export const DEFAULT_CACHE_CHARS = 24 * 1024 * 1024;

/** The entry is of the file as it is now (same size and mtime) and in the same language. */
export function isSameVersion(entry: ParsedFile, size: number, mtimeMs: number, language: string | undefined): boolean {
  return entry.size === size && entry.mtimeMs === mtimeMs && entry.language === language;
}

export class ParseCache {
  private readonly entries = new Map<string, ParsedFile>();
  private chars = 0;

  constructor(private readonly maxChars = DEFAULT_CACHE_CHARS) {}

  /** The cached parse when the file is unchanged (same size and mtime) and in the same language. */
  get(path: string, size: number, mtimeMs: number, language: string): ParsedFile | undefined {
    const entry = this.entries.get(path);
    if (!entry) return undefined;
    if (!isSameVersion(entry, size, mtimeMs, language)) {
      this.invalidate(path);
      return undefined;
    }
    entry.used = true;
    return entry;
  }

  /** The entry kept for `path`, whatever its size and mtime, without counting it as read. */
  peek(path: string): ParsedFile | undefined {
    return this.entries.get(path);
  }

  put(entry: ParsedFile): void {
    this.invalidate(entry.path);
    if (entry.text.length > this.maxChars) {
      entry.tree?.delete();
      return;
    }
    this.entries.set(entry.path, entry);
    this.chars += entry.text.length;
    // Second-chance eviction in insertion order: an entry read since it was last passed moves to
    // the back instead. Every search reads hundreds of entries, and moving each one on every read
    // (a Map delete and set) was a tenth of a warm search.
    while (this.chars > this.maxChars) {
      const [path, oldest] = this.entries.entries().next().value!;
      this.entries.delete(path);
      if (oldest === entry || oldest.used) {
        oldest.used = false; // the entry just put is the newest: it goes back too
        this.entries.set(path, oldest);
        continue;
      }
      this.chars -= oldest.text.length;
      oldest.tree?.delete();
    }
  }

  invalidate(path: string): void {
    const entry = this.entries.get(path);
    if (!entry) return;
    this.entries.delete(path);
    this.chars -= entry.text.length;
    entry.tree?.delete();
  }

  clear(): void {
    for (const path of [...this.entries.keys()]) this.invalidate(path);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Source characters held, the bound's measure. */
  get sourceChars(): number {
    return this.chars;
  }
}
