// Parse trees kept for the run, keyed by (path, size, mtime), bounded by source size (LRU). A file
// read but not parsed (none of a pattern's words in it) is kept as text alone, so the next search
// checks it again without touching the disk; it gets its tree once a search needs one.
import type { Tree } from "web-tree-sitter";
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
}

/** Trees cost roughly ten times their source in WASM memory; the bound counts source characters. */
export const DEFAULT_CACHE_CHARS = 24 * 1024 * 1024;

export class ParseCache {
  private readonly entries = new Map<string, ParsedFile>();
  private chars = 0;

  constructor(private readonly maxChars = DEFAULT_CACHE_CHARS) {}

  /** The cached parse when the file is unchanged (same size and mtime) and in the same language. */
  get(path: string, size: number, mtimeMs: number, language: string): ParsedFile | undefined {
    const entry = this.entries.get(path);
    if (!entry) return undefined;
    if (entry.size !== size || entry.mtimeMs !== mtimeMs || entry.language !== language) {
      this.invalidate(path);
      return undefined;
    }
    this.entries.delete(path); // re-insert: Map order is the recency order
    this.entries.set(path, entry);
    return entry;
  }

  put(entry: ParsedFile): void {
    this.invalidate(entry.path);
    if (entry.text.length > this.maxChars) {
      entry.tree?.delete();
      return;
    }
    this.entries.set(entry.path, entry);
    this.chars += entry.text.length;
    for (const [path, oldest] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(path);
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
}
