// A search's files grouped and counted by language: the pool and the worker that lists a search of
// every language both need them.
import type { FileRef } from "./file-search.ts";

/** Files by language, in language order; `language` stands for all of them when the search has one. */
export function byLanguage(files: FileRef[], language: string | undefined): Map<string, FileRef[]> {
  const groups = new Map<string, FileRef[]>();
  if (language !== undefined) return groups.set(language, files);
  for (const file of files) {
    const group = groups.get(file.language!);
    if (group) group.push(file);
    else groups.set(file.language!, [file]);
  }
  return new Map([...groups].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** How many files of each language. */
export function countByLanguage(files: readonly FileRef[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const file of files) counts[file.language!] = (counts[file.language!] ?? 0) + 1;
  return counts;
}
