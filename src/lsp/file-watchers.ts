// The file watchers a language server registered (workspace/didChangeWatchedFiles), and which
// changes made outside its view each one wants to hear of.
import { relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isInside } from "../workspace/paths.ts";
import { globToRegExp } from "./glob.ts";
import type { WatchedChange as FileChange } from "./workdir-watch.ts";

/** A file watcher a server registered: which paths (a glob, maybe relative to a folder) and which kinds of change. */
interface FileWatcher {
  base: string | undefined;
  pattern: RegExp;
  /** WatchKind bits: 1 create, 2 change, 4 delete. */
  kinds: number;
}

const CHANGE_TYPES = { created: 1, changed: 2, deleted: 3 } as const;
const WATCH_KINDS = { created: 1, changed: 2, deleted: 4 } as const;

export class RegisteredWatchers {
  /** By registration id: a server registers under new ids and unregisters by id. */
  private readonly byRegistration = new Map<string, FileWatcher[]>();

  register(id: string, registerOptions: unknown): void {
    this.byRegistration.set(id, compileWatchers(registerOptions));
  }

  unregister(id: string): void {
    this.byRegistration.delete(id);
  }

  /** The didChangeWatchedFiles entries for the changes some watcher wants (none when none was registered). */
  wanted(changes: readonly FileChange[], root: string): Array<{ uri: string; type: number }> {
    const watchers = [...this.byRegistration.values()].flat();
    if (watchers.length === 0) return [];
    return changes
      .filter((change) => watchers.some((watcher) => watches(watcher, change, root)))
      .map((change) => ({ uri: pathToFileURL(change.path).href, type: CHANGE_TYPES[change.kind] }));
  }
}

type GlobPattern = string | { baseUri: string | { uri: string }; pattern: string };

function compileWatchers(options: unknown): FileWatcher[] {
  const watchers = (options as { watchers?: { globPattern: GlobPattern; kind?: number }[] } | undefined)?.watchers ?? [];
  return watchers.flatMap((watcher): FileWatcher[] => {
    try {
      const glob = watcher.globPattern;
      if (typeof glob === "string") return [{ base: undefined, pattern: globToRegExp(glob), kinds: watcher.kind ?? 7 }];
      const baseUri = typeof glob.baseUri === "string" ? glob.baseUri : glob.baseUri.uri;
      return [{ base: fileURLToPath(baseUri), pattern: globToRegExp(glob.pattern), kinds: watcher.kind ?? 7 }];
    } catch {
      return []; // a pattern we cannot read watches nothing, rather than everything
    }
  });
}

/** A plain glob is tried on the absolute path and on the path below the root (`**\/*.go` and `go.mod` alike). */
function watches(watcher: FileWatcher, change: FileChange, root: string): boolean {
  if ((watcher.kinds & WATCH_KINDS[change.kind]) === 0) return false;
  if (watcher.base !== undefined) return isInside(watcher.base, change.path) && watcher.pattern.test(relative(watcher.base, change.path));
  return watcher.pattern.test(change.path) || (isInside(root, change.path) && watcher.pattern.test(relative(root, change.path)));
}
