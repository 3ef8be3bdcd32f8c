// One watcher over the workdir: files created, changed or deleted by anyone (a shell, git, a formatter) reach the servers.
import { watch, type FSWatcher } from "node:fs";
import { lstat, readdir, realpath } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { isInside } from "../workspace/paths.ts";
import { SKIPPED_FOLDERS } from "../workspace/project-roots.ts";

/** Events for one path within this window are one change; a burst (git checkout) is one batch. */
const WATCH_SETTLE_MS = 40;
/**
 * Folders watched at most. One inotify watch each, and the user's limit is shared with every
 * other program (8 192 on older kernels); past this the rest of the tree is left unwatched and
 * `lsp status` says so.
 */
const WATCHED_FOLDERS_MAX = 8_000;
/** Files the first walk remembers, to tell a file a write created from one that was there before. */
const FILES_REMEMBERED = 200_000;

type ChangeKind = "created" | "changed" | "deleted";

export interface WatchedChange {
  path: string;
  kind: ChangeKind;
}

type ChangeListener = (changes: readonly WatchedChange[]) => void;

/**
 * Watches each folder of the workdir on its own (never `recursive: true`: under Bun that walks
 * node_modules too, synchronously — 1 744 folders and 90 ms on this repository alone). Folders a
 * root scan skips (dependencies, build output, dot-folders such as .git) and the state dir are
 * not watched. While walking it also notes symlinks that lead out of the workdir, so answers can
 * tell a file reached through one from the standard library.
 */
export class WorkdirWatcher {
  private readonly folders = new Map<string, FSWatcher>();
  private readonly listeners = new Set<ChangeListener>();
  /** Workspace symlink → the real path outside the workdir it leads to. */
  private readonly outsideLinks = new Map<string, string>();
  private pending = new Map<string, "rename" | "change">();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** Batches are delivered one after another, in the order they were seen. */
  private delivery: Promise<void> = Promise.resolve();
  private deliveriesPending = 0;
  private walked: Promise<void> | undefined;
  private walkDone = false;
  /** Every file the first walk found; undefined once there were too many to remember. */
  private filesAtStart: Set<string> | undefined = new Set();
  private closed = false;
  /** Folders left unwatched because the cap was reached (0 when all are watched). */
  unwatched = 0;
  /** Why watching failed altogether, if it did. */
  failure: string | undefined;

  constructor(
    readonly workdir: string,
    private readonly ignored: readonly string[] = [],
  ) {}

  /** Starts watching (once); resolves when the first walk is done. */
  start(): Promise<void> {
    this.walked ??= this.walkFolder(this.workdir).then(
      () => {
        this.walkDone = true;
      },
      (error: Error) => {
        this.failure = error.message;
        this.walkDone = true;
      },
    );
    return this.walked;
  }

  /** Resolves once the first walk is done (at once if it never started). */
  ready(): Promise<void> {
    return this.walked ?? Promise.resolve();
  }

  get watching(): number {
    return this.folders.size;
  }

  /**
   * Resolves once the changes already seen have reached the listeners: a query first waits for
   * this, so a file created just before it (by a shell command) is known to the server it asks.
   */
  async settled(): Promise<void> {
    if (this.flushTimer !== undefined) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
      this.flush();
    }
    while (this.deliveriesPending > 0) await this.delivery;
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Whether `real` (a real path outside the workdir) lies under the target of a workspace symlink:
   * a file the workspace reaches through a link, not the standard library. Unknown until the first
   * walk is done, which counts as reached.
   */
  reachedThroughLink(real: string): boolean {
    if (!this.walkDone) return true;
    for (const target of this.outsideLinks.values()) if (isInside(target, real)) return true;
    return false;
  }

  /**
   * Whether the file was there when the first walk passed (in a watched folder): a file a write
   * creates has no text before it. Unknown (undefined) before the walk is done, for a file in a
   * skipped folder, or when there were too many files to remember.
   */
  existedAtStart(path: string): boolean | undefined {
    if (!this.walkDone || !this.filesAtStart || !this.folders.has(dirname(path))) return undefined;
    return this.filesAtStart.has(path);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.flushTimer);
    for (const watcher of this.folders.values()) watcher.close();
    this.folders.clear();
    this.listeners.clear();
  }

  private async walkFolder(dir: string): Promise<void> {
    if (this.closed || this.folders.has(dir)) return;
    if (this.folders.size >= WATCHED_FOLDERS_MAX) {
      this.unwatched++;
      return;
    }
    this.watchFolder(dir);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const below: string[] = [];
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) await this.noteLink(path);
      else if (entry.isFile()) this.rememberFile(path);
      else if (entry.isDirectory()) {
        if (entry.name === "node_modules") await this.noteLinksIn(path);
        else if (!this.skips(entry.name, path)) below.push(path);
      }
    }
    for (const path of below) await this.walkFolder(path);
  }

  private rememberFile(path: string): void {
    if (this.walkDone || !this.filesAtStart) return;
    if (this.filesAtStart.size >= FILES_REMEMBERED) this.filesAtStart = undefined;
    else this.filesAtStart.add(path);
  }

  private skips(name: string, path: string): boolean {
    return SKIPPED_FOLDERS.has(name) || name.startsWith(".") || this.ignored.some((ignored) => isInside(ignored, path));
  }

  private watchFolder(dir: string): void {
    try {
      const watcher = watch(dir, { persistent: false }, (event, name) => {
        if (name !== null) this.queue(join(dir, name.toString()), event);
      });
      watcher.on("error", () => this.unwatch(dir));
      this.folders.set(dir, watcher);
    } catch (error) {
      if (dir === this.workdir) throw error;
    }
  }

  private unwatch(dir: string): void {
    for (const [folder, watcher] of this.folders) {
      if (folder === dir || folder.startsWith(dir + sep)) {
        watcher.close();
        this.folders.delete(folder);
      }
    }
  }

  /** A dependency folder is not watched, but a linked package in it (npm link) leads outside. */
  private async noteLinksIn(modules: string): Promise<void> {
    const visit = async (dir: string, depth: number) => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (entry.isSymbolicLink()) await this.noteLink(join(dir, entry.name));
        else if (depth === 0 && entry.isDirectory() && entry.name.startsWith("@")) await visit(join(dir, entry.name), 1);
      }
    };
    await visit(modules, 0);
  }

  private async noteLink(path: string): Promise<void> {
    try {
      const target = await realpath(path);
      if (!isInside(this.workdir, target)) this.outsideLinks.set(path, target);
      else this.outsideLinks.delete(path);
    } catch {
      this.outsideLinks.delete(path); // dangling: it leads nowhere readable
    }
  }

  private queue(path: string, event: string): void {
    if (this.closed) return;
    // A rename anywhere in the burst decides: the path was created or deleted, not only changed.
    if (this.pending.get(path) !== "rename") this.pending.set(path, event === "rename" ? "rename" : "change");
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      this.flush();
    }, WATCH_SETTLE_MS);
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = new Map();
    this.deliveriesPending++;
    this.delivery = this.delivery
      .then(() => this.deliver(batch))
      .catch(() => {})
      .finally(() => this.deliveriesPending--);
  }

  private async deliver(batch: ReadonlyMap<string, "rename" | "change">): Promise<void> {
    const changes: WatchedChange[] = [];
    for (const [path, event] of batch) {
      const info = await lstat(path).catch(() => undefined);
      if (!info) {
        if (this.outsideLinks.delete(path) || this.folders.has(path)) this.unwatch(path);
        changes.push({ path, kind: "deleted" });
      } else if (info.isSymbolicLink()) {
        await this.noteLink(path);
        changes.push({ path, kind: event === "rename" ? "created" : "changed" });
      } else if (info.isDirectory()) {
        const name = path.slice(path.lastIndexOf(sep) + 1);
        if (event === "rename" && !this.folders.has(path) && !this.skips(name, path)) {
          await this.walkFolder(path);
          changes.push(...(await filesBelow(path)).map((file) => ({ path: file, kind: "created" as const })));
        }
      } else {
        changes.push({ path, kind: event === "rename" ? "created" : "changed" });
      }
    }
    if (changes.length === 0 || this.closed) return;
    for (const listener of this.listeners) listener(changes);
  }
}

/** Files already inside a folder that just appeared (`mkdir -p a/b && echo > a/b/f` is one burst). */
async function filesBelow(dir: string): Promise<string[]> {
  const files: string[] = [];
  const visit = async (folder: string, depth: number) => {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isFile()) files.push(path);
      else if (entry.isDirectory() && depth < 8 && !SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith(".")) await visit(path, depth + 1);
    }
  };
  await visit(dir, 0);
  return files;
}
