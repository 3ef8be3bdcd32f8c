// Writes several files so the tree is never half old, half new: every new content goes to a temp
// file beside its target first (so a full disk fails before anything is replaced), then each is
// renamed into place, permissions kept; if a rename fails, the files already replaced are restored.
// Paths arrive resolved (symlinks followed, as resolveInWorkdir returns them); a folder on the way
// that resolves elsewhere now was swapped for a symlink since, so the write is refused, checked
// both before the temp files are made and again just before they are renamed into place.
import { randomBytes } from "node:crypto";
import { chmod, lstat, mkdir, readFile, realpath, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { sameFilePath } from "../platform/file-names.ts";
import { deepestExisting } from "./paths.ts";

export interface FileChange {
  /** Absolute path. */
  path: string;
  content: string;
}

export class AtomicWriteError extends Error {
  override name = "AtomicWriteError";
  constructor(
    readonly failedPath: string,
    override readonly cause: Error,
    /** Files that had been replaced and were put back; empty when none had been. */
    readonly restored: string[],
    /** Files that could not be put back — reported, never hidden. */
    readonly unrestored: string[],
  ) {
    super(
      `Writing ${failedPath} failed (${cause.message}); ` +
        (unrestored.length > 0
          ? `restoring ${unrestored.join(", ")} failed too, so those files hold the new content.`
          : restored.length > 0
            ? `the ${restored.length} file(s) already written were restored, so nothing changed.`
            : "no file had been written yet, so nothing changed."),
    );
  }
}

/** A folder on the way to these paths resolves somewhere else than when the paths were resolved. */
export class FolderSwapped extends Error {
  override name = "FolderSwapped";
  constructor(readonly paths: string[]) {
    super(`a folder on the way to ${paths.join(", ")} was replaced by a symlink after the path was checked, so nothing was written`);
  }
}

interface Original {
  path: string;
  /** undefined: the file did not exist before. */
  content: Buffer | undefined;
  mode: number | undefined;
}

/**
 * Writes every change (creating files and folders as needed) and then deletes `removals`, or
 * changes nothing. Returns the paths written.
 */
export async function writeFilesAtomically(changes: readonly FileChange[], removals: readonly string[] = []): Promise<string[]> {
  const targets = [...changes.map((c) => c.path), ...removals];
  await refuseSwappedFolders(targets);
  const originals: Original[] = [];
  for (const change of changes) {
    try {
      originals.push(await readOriginal(change.path));
    } catch (error) {
      throw new AtomicWriteError(change.path, error as Error, [], []);
    }
  }
  const temps: string[] = [];
  try {
    for (const [k, change] of changes.entries()) {
      await mkdir(dirname(change.path), { recursive: true });
      temps.push(await writeTemp(change.path, change.content, originals[k]!.mode));
    }
  } catch (error) {
    await removeTemps(temps);
    throw new AtomicWriteError(changes[temps.length]!.path, error as Error, [], []);
  }
  try {
    await refuseSwappedFolders(targets);
  } catch (error) {
    await removeTemps(temps);
    throw error;
  }
  const replaced: Original[] = [];
  for (const [k, change] of changes.entries()) {
    try {
      await rename(temps[k]!, change.path);
      replaced.push(originals[k]!);
    } catch (error) {
      await removeTemps(temps.slice(k));
      const { restored, unrestored } = await restore(replaced);
      throw new AtomicWriteError(change.path, error as Error, restored, unrestored);
    }
  }
  const removed: Original[] = [];
  for (const path of removals) {
    try {
      const original = await readOriginal(path);
      await rm(path);
      removed.push(original);
    } catch (error) {
      const { restored, unrestored } = await restore([...replaced, ...removed]);
      throw new AtomicWriteError(path, error as Error, restored, unrestored);
    }
  }
  return changes.map((c) => c.path);
}

/** Temp files not (or no longer) needed: a failed write leaves none behind. */
async function removeTemps(temps: readonly string[]): Promise<void> {
  await Promise.all(temps.map((t) => rm(t, { force: true })));
}

async function refuseSwappedFolders(paths: readonly string[]): Promise<void> {
  const swapped: string[] = [];
  for (const path of paths) {
    const folder = deepestExisting(dirname(path));
    const real = await realpath(folder).catch(() => undefined);
    if (real === undefined || !sameFilePath(real, folder)) swapped.push(path);
  }
  if (swapped.length > 0) throw new FolderSwapped(swapped);
}

async function readOriginal(path: string): Promise<Original> {
  const info = await lstat(path).catch(() => undefined);
  if (info?.isDirectory()) throw new Error("it is a directory, not a file");
  return { path, content: info ? await readFile(path) : undefined, mode: info ? info.mode & 0o7777 : undefined };
}

/** Writes `content` to a fresh temp file beside `path`, with `path`'s permissions. */
async function writeTemp(path: string, content: string | Buffer, mode: number | undefined): Promise<string> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString("hex")}.sidecar-tmp`);
  try {
    await writeFile(temp, content, { flag: "wx", mode: mode ?? 0o644 });
    if (mode !== undefined) await chmod(temp, mode); // writeFile's mode is filtered by umask
    return temp;
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

async function restore(replaced: readonly Original[]): Promise<{ restored: string[]; unrestored: string[] }> {
  const restored: string[] = [];
  const unrestored: string[] = [];
  for (const original of [...replaced].reverse()) {
    try {
      if (original.content === undefined) await rm(original.path, { force: true });
      else await rename(await writeTemp(original.path, original.content, original.mode), original.path);
      restored.push(original.path);
    } catch {
      unrestored.push(original.path);
    }
  }
  return { restored, unrestored };
}
