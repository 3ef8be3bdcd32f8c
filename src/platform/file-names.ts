// Comparing file paths as the file system does: case-insensitively on macOS and Windows by default.
import { HOST } from "./os.ts";

/** A key under which two spellings of the same file collide on this file system. */
export function filePathKey(path: string, caseInsensitive = HOST.caseInsensitiveFiles): string {
  const slashes = path.replace(/\\/g, "/");
  return caseInsensitive ? slashes.toLowerCase() : slashes;
}

export function sameFilePath(a: string, b: string, caseInsensitive = HOST.caseInsensitiveFiles): boolean {
  return filePathKey(a, caseInsensitive) === filePathKey(b, caseInsensitive);
}
