// Where `bun build --compile` keeps embedded files: /$bunfs/root/ on POSIX, B:/~BUN/root/ on Windows.

const EMBEDDED_ROOTS = ["/$bunfs/", "B:/~BUN/", "B:\\~BUN\\"];

/** True when `path` lives inside a compiled binary's embedded file system. */
export function isEmbeddedPath(path: string): boolean {
  return EMBEDDED_ROOTS.some((root) => path.startsWith(root));
}
