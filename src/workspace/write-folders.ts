// The folders one atomic write goes through. Where the platform has folder handles (Linux), each
// folder is opened from "/" down, one name at a time, never through a symlink, and every file is then
// created, renamed and removed through the handle: checking the way and writing through it are one
// step, so a folder swapped for a symlink meanwhile cannot redirect anything. Elsewhere the way is
// checked by path (real path unchanged) before and again just before the renames; a swap inside
// that last window is not caught there (docs/harness.md, "Threat model").
import { mkdir, realpath, rmdir } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { folderHandles, FolderRefused, type FolderHandle, type FolderHandles } from "../platform/folder-handles.ts";
import { sameFilePath } from "../platform/file-names.ts";
import { deepestExisting } from "./paths.ts";

/** A folder of the write, held for its duration. */
export interface WriteFolder {
  /** Its absolute real path, as the write was asked. */
  readonly path: string;
  /** A path naming `name` in this folder, for any fs call. */
  entry(name: string): string;
}

/** A folder on the way is a symlink now (swapped since the path was resolved), or was moved away. */
export class FolderMoved extends Error {
  override name = "FolderMoved";
  constructor(readonly folder: string) {
    super(`${folder} or a folder above it was replaced by a symlink or moved`);
  }
}

export interface WriteFolders {
  /** The folder at `path` (creating missing ones when `create`); FolderMoved when the way is not what it was. */
  open(path: string, options: { create: boolean }): Promise<WriteFolder>;
  /** FolderMoved unless every folder opened is still at its path: the last look before files are renamed into place. */
  checkInPlace(): Promise<void>;
  /** Removes the folders `open` created, deepest first (when still empty): a failed write leaves none. */
  removeCreated(): Promise<void>;
  close(): Promise<void>;
}

/** The folders for one write, held by handle where the platform allows it. */
export function writeFolders(handles: FolderHandles | undefined = folderHandles()): WriteFolders {
  return handles ? new HeldFolders(handles) : new CheckedFolders();
}

/** Linux: folders held by handle, opened from "/" down; every path handed out goes through a handle. */
class HeldFolders implements WriteFolders {
  private readonly held = new Map<string, Promise<FolderHandle>>();
  /** Folders this write created, as entries of their (held) parents, in creation order. */
  private readonly created: string[] = [];

  constructor(private readonly handles: FolderHandles) {}

  async open(path: string, options: { create: boolean }): Promise<WriteFolder> {
    const handle = await this.handle(path, options.create);
    return { path, entry: (name) => this.handles.entry(handle, name) };
  }

  private handle(path: string, create: boolean): Promise<FolderHandle> {
    const known = this.held.get(path);
    if (known) return known;
    const parent = dirname(path);
    const opening = parent === path ? this.handles.root() : this.handle(parent, create).then((above) => this.child(above, basename(path), path, create));
    this.held.set(path, opening);
    opening.catch(() => {
      if (this.held.get(path) === opening) this.held.delete(path); // not kept: a later open may create it
    });
    return opening;
  }

  private async child(parent: FolderHandle, name: string, path: string, create: boolean): Promise<FolderHandle> {
    try {
      return await this.handles.child(parent, name);
    } catch (error) {
      if (!(error instanceof FolderRefused)) throw error;
      if (error.why === "symlink") throw new FolderMoved(path);
      if (error.why === "not a folder") throw Object.assign(new Error(`${path} is not a folder`), { code: "ENOTDIR" });
      if (!create) throw Object.assign(new Error(`${path} does not exist`), { code: "ENOENT" });
    }
    const at = this.handles.entry(parent, name);
    const made = await mkdir(at).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST") throw error;
        return false; // another writer made it meanwhile: fine, it is opened below like any folder
      },
    );
    if (made) this.created.push(at);
    try {
      return await this.handles.child(parent, name);
    } catch (error) {
      if (error instanceof FolderRefused && error.why === "symlink") throw new FolderMoved(path);
      throw error;
    }
  }

  async checkInPlace(): Promise<void> {
    for (const [path, opening] of this.held) {
      const now = await this.handles.currentPath(await opening);
      if (now === undefined || !sameFilePath(now, path)) throw new FolderMoved(path);
    }
  }

  async removeCreated(): Promise<void> {
    for (const at of this.created.reverse()) await rmdir(at).catch(() => undefined);
    this.created.length = 0;
  }

  async close(): Promise<void> {
    const opened = await Promise.allSettled(this.held.values());
    this.held.clear();
    await Promise.all(opened.map((o) => (o.status === "fulfilled" ? o.value.close() : undefined)));
  }
}

/** Elsewhere: folders named by path, each checked to resolve to itself (no symlink on the way). */
class CheckedFolders implements WriteFolders {
  private readonly opened = new Set<string>();
  private readonly created: string[] = [];

  async open(path: string, options: { create: boolean }): Promise<WriteFolder> {
    await refuseUnlessReal(path);
    if (options.create) {
      const first = await mkdir(path, { recursive: true });
      if (first !== undefined) {
        const made: string[] = [];
        for (let folder = path; folder.length >= first.length; folder = dirname(folder)) made.unshift(folder);
        this.created.push(...made);
      }
    }
    this.opened.add(path);
    return { path, entry: (name) => join(path, name) };
  }

  async checkInPlace(): Promise<void> {
    for (const path of this.opened) await refuseUnlessReal(path);
  }

  async removeCreated(): Promise<void> {
    for (const path of this.created.reverse()) await rmdir(path).catch(() => undefined);
    this.created.length = 0;
  }

  async close(): Promise<void> {
    this.opened.clear();
  }
}

/** FolderMoved unless the deepest existing part of `path` resolves to itself. */
async function refuseUnlessReal(path: string): Promise<void> {
  const existing = deepestExisting(path);
  const real = await realpath(existing).catch(() => undefined);
  if (real === undefined || !sameFilePath(real, existing)) throw new FolderMoved(path);
}
