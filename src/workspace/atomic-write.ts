// Writes several files so the tree is never half old, half new: every new content goes to a temp
// file beside its target first (so a full disk fails before anything is replaced), then each is
// renamed into place, permissions kept; if a rename fails, the files already replaced are restored.
// A file marked read-only (0444) is refused, though the rename needs only the folder's permission.
// Paths arrive resolved (symlinks followed, as resolveInWorkdir returns them). Every file is read,
// created, renamed and removed through its folder as held by write-folders.ts, so a folder swapped
// for a symlink after the paths were resolved refuses the write instead of redirecting it; and a
// failed write leaves no temp file and no folder it created.
import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { lstat, open, readlink, rename, symlink, unlink } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { readOnlyMode } from "./read-only.ts";
import { specialKind } from "./regular-file.ts";
import { FolderMoved, writeFolders, type WriteFolder, type WriteFolders } from "./write-folders.ts";
import { shownPath } from "./shown-path.ts";

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
      `Writing ${shownPath(failedPath)} failed (${cause.message}); ` +
        (unrestored.length > 0
          ? `restoring ${unrestored.map(shownPath).join(", ")} failed too, so those files hold the new content.`
          : restored.length > 0
            ? `the ${restored.length} file(s) already written were restored, so nothing changed.`
            : "no file had been written yet, so nothing changed."),
    );
  }
}

/** A folder on the way to these paths was replaced by a symlink (or moved) after the paths were resolved. */
export class FolderSwapped extends Error {
  override name = "FolderSwapped";
  constructor(readonly paths: string[]) {
    super(`a folder on the way to ${paths.map(shownPath).join(", ")} was replaced by a symlink after the path was checked, so nothing was written`);
  }
}

/** A target file, named through its held folder. */
interface Place {
  path: string;
  folder: WriteFolder;
  name: string;
}

/** What a target held before the write, to put back if a later step fails. */
interface Original {
  place: Place;
  /** undefined (with no `link`): the file did not exist before. */
  content: Buffer | undefined;
  mode: number | undefined;
  /** The target was a symlink (swapped in for the file since it was resolved): its target, to put it back. */
  link?: string;
}

/**
 * Writes every change (creating files and folders as needed) and then deletes `removals`, or
 * changes nothing. Returns the paths written. `folders`: how folders are held (tests pass the other
 * platform's way, or one that swaps a folder at a chosen moment).
 */
export async function writeFilesAtomically(changes: readonly FileChange[], removals: readonly string[] = [], folders: WriteFolders = writeFolders()): Promise<string[]> {
  try {
    await writeThrough(folders, changes, removals);
    return changes.map((c) => c.path);
  } catch (error) {
    await folders.removeCreated();
    throw error;
  } finally {
    await folders.close();
  }
}

async function writeThrough(folders: WriteFolders, changes: readonly FileChange[], removals: readonly string[]): Promise<void> {
  const writes = await placesOf(folders, changes.map((c) => c.path), true);
  const removes = await placesOf(folders, removals, false);
  const originals: Original[] = [];
  for (const place of writes) {
    try {
      originals.push(await readOriginal(place));
    } catch (error) {
      throw new AtomicWriteError(place.path, error as Error, [], []);
    }
  }
  const temps: Temp[] = [];
  try {
    for (const [k, change] of changes.entries()) temps.push(await writeTemp(writes[k]!, change.content, originals[k]!.mode));
  } catch (error) {
    await removeTemps(temps);
    throw new AtomicWriteError(changes[temps.length]!.path, error as Error, [], []);
  }
  try {
    await folders.checkInPlace();
  } catch (error) {
    await removeTemps(temps);
    throw error instanceof FolderMoved ? swappedBelow([error.folder], [...writes, ...removes]) : error;
  }
  const replaced: Original[] = [];
  for (const [k, place] of writes.entries()) {
    try {
      await rename(temps[k]!.at, place.folder.entry(place.name));
      replaced.push(originals[k]!);
    } catch (error) {
      await removeTemps(temps.slice(k));
      const { restored, unrestored } = await restore(replaced);
      throw new AtomicWriteError(place.path, error as Error, restored, unrestored);
    }
  }
  const removed: Original[] = [];
  for (const place of removes) {
    try {
      const original = await readOriginal(place);
      await unlink(place.folder.entry(place.name));
      removed.push(original);
    } catch (error) {
      const { restored, unrestored } = await restore([...replaced, ...removed]);
      throw new AtomicWriteError(place.path, error as Error, restored, unrestored);
    }
  }
}

/** Opens the folder of every path; FolderSwapped naming every path below a folder that moved. */
async function placesOf(folders: WriteFolders, paths: readonly string[], create: boolean): Promise<Place[]> {
  const opened = await Promise.allSettled(paths.map((path) => folders.open(dirname(path), { create })));
  const moved = opened.flatMap((o) => (o.status === "rejected" && o.reason instanceof FolderMoved ? [o.reason.folder] : []));
  if (moved.length > 0) throw swappedBelow(moved, paths.map((path) => ({ path })));
  return opened.map((o, k) => {
    if (o.status === "rejected") throw new AtomicWriteError(paths[k]!, o.reason as Error, [], []);
    return { path: paths[k]!, folder: o.value, name: basename(paths[k]!) };
  });
}

function swappedBelow(folders: readonly string[], targets: readonly { path: string }[]): FolderSwapped {
  const below = targets.map((t) => t.path).filter((path) => folders.some((folder) => path.startsWith(`${folder}/`) || dirname(path) === folder));
  return new FolderSwapped(below.length > 0 ? below : [...folders]);
}

/** Read-only, never following a symlink, never waiting for a FIFO's writer. */
const ORIGINAL_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

async function readOriginal(place: Place): Promise<Original> {
  const at = place.folder.entry(place.name);
  const before = await lstat(at).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (before === undefined) return { place, content: undefined, mode: undefined };
  if (before.isSymbolicLink()) return { place, content: undefined, mode: undefined, link: await readlink(at) };
  refuseUnlessFile(before);
  const handle = await open(at, ORIGINAL_FLAGS);
  try {
    const info = await handle.stat();
    refuseUnlessFile(info); // swapped for something else since the lstat
    const readOnly = readOnlyMode(at, info);
    if (readOnly !== undefined) throw new Error(`it is read-only for the sidecar's user (mode ${readOnly}), and a file marked read-only is never rewritten; make it writable (chmod u+w) and try again`);
    return { place, content: await handle.readFile(), mode: info.mode & 0o7777 };
  } finally {
    await handle.close();
  }
}

function refuseUnlessFile(info: Stats): void {
  const kind = specialKind(info);
  if (kind === "a folder") throw new Error("it is a directory, not a file");
  if (kind !== undefined) throw new Error(`it is ${kind}, not a regular file`);
}

interface Temp {
  /** The temp file's path through its folder. */
  at: string;
}

/** Temp files never opened through a link, never one that exists already. */
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Writes `content` to a fresh temp file beside the target, with the target's permissions. */
async function writeTemp(place: Place, content: string | Buffer, mode: number | undefined): Promise<Temp> {
  const at = tempEntry(place);
  const handle = await open(at, TEMP_FLAGS, mode ?? 0o644);
  try {
    await handle.writeFile(content);
    if (mode !== undefined) await handle.chmod(mode); // open's mode is filtered by umask
    return { at };
  } catch (error) {
    await unlink(at).catch(() => undefined);
    throw error;
  } finally {
    await handle.close();
  }
}

/** A fresh name beside the target: hidden, and marked as ours. */
function tempEntry(place: Place): string {
  return place.folder.entry(`.${place.name}.${randomBytes(4).toString("hex")}.sidecar-tmp`);
}

/** Temp files not (or no longer) needed: a failed write leaves none behind. */
async function removeTemps(temps: readonly Temp[]): Promise<void> {
  await Promise.all(temps.map((t) => unlink(t.at).catch(() => undefined)));
}

async function restore(replaced: readonly Original[]): Promise<{ restored: string[]; unrestored: string[] }> {
  const restored: string[] = [];
  const unrestored: string[] = [];
  for (const original of [...replaced].reverse()) {
    const { place } = original;
    try {
      if (original.link !== undefined) await putBackLink(place, original.link);
      else if (original.content === undefined) await unlink(place.folder.entry(place.name)).catch(ignoreMissing);
      else await rename((await writeTemp(place, original.content, original.mode)).at, place.folder.entry(place.name));
      restored.push(place.path);
    } catch {
      unrestored.push(place.path);
    }
  }
  return { restored, unrestored };
}

async function putBackLink(place: Place, target: string): Promise<void> {
  const at = tempEntry(place);
  await symlink(target, at);
  await rename(at, place.folder.entry(place.name)).catch(async (error: Error) => {
    await unlink(at).catch(() => undefined);
    throw error;
  });
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== "ENOENT") throw error;
}
