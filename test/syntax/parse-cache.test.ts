// The parse cache's bound: the entries least recently read go first, and a file changed on disk
// is never answered from its old entry.
import { describe, expect, test } from "bun:test";
import { ParseCache, type ParsedFile } from "../../src/syntax/parse-cache.ts";

function entry(path: string, chars: number, mtimeMs = 1): ParsedFile {
  return { path, size: chars, mtimeMs, language: "typescript", text: "x".repeat(chars) };
}

const cached = (cache: ParseCache, path: string, chars = 10, mtimeMs = 1) => cache.get(path, chars, mtimeMs, "typescript") !== undefined;

describe("parse cache", () => {
  test("past its bound it drops the entries read least recently, keeping those read since", () => {
    const cache = new ParseCache(30);
    for (const path of ["a", "b", "c"]) cache.put(entry(path, 10));
    expect(cached(cache, "a")).toBe(true); // a is read again: b is now the least recently read
    cache.put(entry("d", 10));
    expect(["a", "b", "c", "d"].filter((path) => cached(cache, path))).toEqual(["a", "c", "d"]);
    expect(cache.size).toBe(3);
  });

  test("every entry read since: the oldest put goes, and the bound holds", () => {
    const cache = new ParseCache(30);
    for (const path of ["a", "b", "c"]) cache.put(entry(path, 10));
    for (const path of ["c", "b", "a"]) expect(cached(cache, path)).toBe(true);
    cache.put(entry("d", 15));
    expect(cache.size).toBe(2);
    expect(cached(cache, "d", 15)).toBe(true);
  });

  test("a changed size or mtime is a miss, and the old entry is gone", () => {
    const cache = new ParseCache(100);
    cache.put(entry("a", 10, 1));
    expect(cached(cache, "a", 10, 2)).toBe(false);
    expect(cached(cache, "a", 10, 1)).toBe(false);
    expect(cache.size).toBe(0);
  });
});
