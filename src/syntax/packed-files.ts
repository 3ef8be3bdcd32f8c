// File lists as one string and two typed arrays for postMessage: a structured clone of a few
// thousand small objects costs the main thread milliseconds; these cost a copy each.
import type { FileRef } from "./file-search.ts";

export interface PackedFiles {
  /** Paths joined by NUL, which no path contains. */
  paths: string;
  sizes: Float64Array;
  mtimes: Float64Array;
  /** Each file's language, joined by NUL ("" where none was set). */
  languages: string;
}

export function packFiles(files: readonly FileRef[]): PackedFiles {
  const sizes = new Float64Array(files.length);
  const mtimes = new Float64Array(files.length);
  files.forEach((file, k) => {
    sizes[k] = file.size;
    mtimes[k] = file.mtimeMs;
  });
  return { paths: files.map((f) => f.path).join("\0"), sizes, mtimes, languages: files.map((f) => f.language ?? "").join("\0") };
}

export function unpackFiles(packed: PackedFiles): FileRef[] {
  if (packed.sizes.length === 0) return [];
  const languages = packed.languages.split("\0");
  return packed.paths.split("\0").map((path, k) => ({ path, size: packed.sizes[k]!, mtimeMs: packed.mtimes[k]!, ...(languages[k] ? { language: languages[k] } : {}) }));
}
