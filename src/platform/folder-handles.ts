// Folders held open by handle, so that a path through one cannot be redirected by renaming or
// swapping anything on the way: on Linux an O_PATH descriptor, named again through /proc/self/fd.
import { existsSync } from "node:fs";
import { lstat, open, readlink, type FileHandle } from "node:fs/promises";
import { constants } from "node:fs";

/**
 * O_PATH: a handle on the folder itself that needs only search permission on its parent, not read
 * permission on the folder (a home folder may be 0711). Node's fs.constants lacks it; its value is
 * the same on x86-64 and arm64, the Linux builds this ships for.
 */
const O_PATH = 0o10000000;
const O_PATH_ARCHES: readonly string[] = ["x64", "arm64"];

/** The kernel's view of a descriptor's folder, for a path relative to it (any thread of this process). */
const FD_FOLDER = "/proc/self/fd";

export interface FolderHandle {
  readonly fd: number;
  close(): Promise<void>;
}

/** Why a name could not be opened as a folder, in the terms a writer acts on. */
type FolderRefusal = "symlink" | "not a folder" | "missing";

export class FolderRefused extends Error {
  constructor(readonly why: FolderRefusal) {
    super(why);
  }
}

/**
 * Opening folders one name at a time, each inside a folder already held, never following a symlink:
 * what a folder handle then names is the folder that was there when it was opened, wherever it is
 * later moved and whatever is put at its old path.
 */
export interface FolderHandles {
  /** The root folder "/", where every walk starts. */
  root(): Promise<FolderHandle>;
  /** `name` inside `parent`, refused (FolderRefused) when it is a symlink, not a folder, or missing. */
  child(parent: FolderHandle, name: string): Promise<FolderHandle>;
  /** A path naming `name` inside the folder `parent` holds: usable by any fs call, never redirected on the way. */
  entry(parent: FolderHandle, name: string): string;
  /** Where the folder is now (it may have been moved since it was opened); undefined when it was deleted. */
  currentPath(folder: FolderHandle): Promise<string | undefined>;
}

/** Folder handles on this platform, or undefined where there are none (macOS, Windows, Linux without /proc). */
export function folderHandles(): FolderHandles | undefined {
  if (process.platform !== "linux" || !O_PATH_ARCHES.includes(process.arch) || !existsSync(FD_FOLDER)) return undefined;
  const FLAGS = O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW;
  const held = (handle: FileHandle): FolderHandle => ({ fd: handle.fd, close: () => handle.close() });
  const entry = (parent: FolderHandle, name: string) => `${FD_FOLDER}/${parent.fd}/${name}`;
  return {
    root: async () => held(await open("/", O_PATH | constants.O_DIRECTORY)),
    entry,
    async child(parent, name) {
      try {
        return held(await open(entry(parent, name), FLAGS));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT") throw new FolderRefused("missing");
        // O_DIRECTORY|O_NOFOLLOW fails ENOTDIR on a symlink and on a file alike. A folder there now
        // was a symlink a moment ago (it is being swapped back and forth): that counts as a symlink.
        if (code === "ENOTDIR" || code === "ELOOP") {
          const now = await lstat(entry(parent, name)).catch(() => undefined);
          throw new FolderRefused(now === undefined || now.isSymbolicLink() || now.isDirectory() ? "symlink" : "not a folder");
        }
        throw error;
      }
    },
    async currentPath(folder) {
      const now = await readlink(`${FD_FOLDER}/${folder.fd}`).catch(() => undefined);
      return now === undefined || now.endsWith(" (deleted)") ? undefined : now;
    },
  };
}
