// The one place a tool's path argument is turned into a real path, refused if it leaves the workdir.
import { closeSync, lstatSync, realpathSync, statSync, type Stats } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { ToolFailure } from "../answer/failure.ts";
import { openRegularFile, openRegularFileSync, readOpened, readOpenedSync, readRegularFileSync, specialKind } from "./regular-file.ts";

class PathOutsideWorkdir extends ToolFailure {
  constructor(given: string, why: string) {
    super(`The path ${JSON.stringify(given)} is outside the workspace (${why}). Pass a path relative to the workspace root.`, {
      code: "not_in_workspace",
      path: given,
    });
  }
}

/** A path inside the workdir that leads to a FIFO, socket or device: no tool opens one (it could block). */
class SpecialFile extends ToolFailure {
  constructor(given: string, kind: string) {
    super(`The path ${JSON.stringify(given)} is ${kind}, not a regular file or a folder, so it was not opened. Pass a source file or a folder.`, { code: "not_a_regular_file", path: given });
  }
}

/**
 * Resolves `given` (relative to the workdir, or absolute inside it) and checks the real location —
 * symlinks followed — stays inside the workdir. A path that does not exist yet is checked through
 * its deepest existing ancestor, so a write target is safe too. A FIFO, socket or device is refused
 * (SpecialFile) before anything opens it.
 */
export function resolveInWorkdir(workdir: string, given: string): string {
  if (given.includes("\0")) throw new ToolFailure(`The path ${JSON.stringify(given)} contains a NUL byte; pass the path as it is on disk.`, { code: "invalid_arguments", path: given });
  const root = realpathSync(workdir);
  const candidate = resolve(root, given);
  if (!isInside(root, candidate)) {
    throw new PathOutsideWorkdir(given, isAbsolute(given) ? "an absolute path elsewhere" : "it climbs out with ..");
  }
  let real: string;
  try {
    real = realOfDeepestExisting(candidate);
  } catch {
    throw new PathOutsideWorkdir(given, "a symlink on the way points nowhere");
  }
  if (!isInside(root, real)) throw new PathOutsideWorkdir(given, "a symlink points out of it");
  const info = statSync(real, { throwIfNoEntry: false });
  const kind = info && !info.isDirectory() ? specialKind(info) : undefined;
  if (kind !== undefined) throw new SpecialFile(given, kind);
  return real;
}

/** The workspace-relative form used in every result ("src/a.ts", "." for the root). */
export function relativeToWorkdir(workdir: string, absolute: string): string {
  const rel = relative(workdir, absolute);
  return rel === "" ? "." : rel.split(sep).join("/");
}

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * True when `path` (absolute) names a place inside the workdir but a symlink on the way leads out
 * of it, or nowhere: a folder the harness configured inside the workspace (the stateDir) that a
 * cloned repository shipped as a link to ~/somewhere.
 */
export function leadsOutOfWorkdir(workdir: string, path: string): boolean {
  const root = realpathSync(workdir);
  if (!isInside(resolve(workdir), path) && !isInside(root, path)) return false;
  try {
    return !isInside(root, realOfDeepestExisting(path));
  } catch {
    return true; // a dangling link on the way
  }
}

function realOfDeepestExisting(path: string): string {
  const existing = deepestExisting(path);
  const missing = path === existing ? [] : path.slice(existing.length).split(sep).filter(Boolean);
  return resolve(realpathSync(existing), ...missing);
}

/** The path itself if anything is there (a dangling link counts), else its nearest ancestor that is. */
export function deepestExisting(path: string): string {
  let existing = path;
  while (!existsNoFollow(existing) && dirname(existing) !== existing) existing = dirname(existing);
  return existing;
}

/** True for anything at the path, a dangling symlink included (which then fails realpath). */
function existsNoFollow(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a file checked earlier (by a walk, say) only if what is opened now still lies inside
 * `root`: a path swapped for a symlink out between the check and this read is refused, not read.
 * The opened file must be the one its real path names (same device and inode), so swapping the
 * link back right after the open does not pass either. `root` must be a real path (the config's
 * workdir is one). Anything but a regular file is refused (NotARegularFile) without blocking, and
 * so is a file too large to hold (FileTooLarge).
 */
export function readFileInside(root: string, path: string): Buffer {
  const { fd, info } = openRegularFileSync(path);
  try {
    refuseUnlessInside(root, path, info);
    return readOpenedSync(fd, info);
  } finally {
    closeSync(fd);
  }
}

/**
 * The file of a location a language server answered, to show its lines: one inside the workdir only
 * when its real file is inside too (NoLongerInside when a symlink in the workspace leads out, the
 * same file a tool asked for directly refuses); one outside (a standard library or a dependency the
 * server found itself) as it is. `workdir` must be a real path.
 */
export function readLocationFile(workdir: string, path: string): Buffer {
  return isInside(workdir, path) ? readFileInside(workdir, path) : readRegularFileSync(path);
}

/** readFileInside without blocking the thread on the read itself: for the main thread. */
export async function readFileInsideAsync(root: string, path: string): Promise<Buffer> {
  const { handle, info } = await openRegularFile(path);
  try {
    refuseUnlessInside(root, path, info);
    return await readOpened(handle, info);
  } finally {
    await handle.close();
  }
}

/** A path checked earlier that no longer leads to a file inside the workspace. */
export class NoLongerInside extends Error {}

function refuseUnlessInside(root: string, path: string, opened: Stats): void {
  const real = realpathSync(path);
  if (!isInside(root, real)) throw new NoLongerInside("it now resolves outside the workspace (a symlink out); not read");
  const named = statSync(real);
  if (named.dev !== opened.dev || named.ino !== opened.ino) throw new NoLongerInside("it was replaced while being opened; not read");
}
