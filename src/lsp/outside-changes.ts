// Changes made outside the sidecar (a shell, git, a formatter) reach the servers: watched files at once, open copies a moment later.
import type { LanguageServerClient } from "./client.ts";
import { closeDocument, syncDocument, uriOf } from "./documents.ts";
import type { LanguageServerSupervisor } from "./supervisor.ts";
import type { WatchedChange } from "./workdir-watch.ts";

/**
 * An open file changed on disk is re-sent to its server this long after the last change seen, not
 * at once: a write the harness reports through after-write is synced by that call, with the text
 * before it still known to the server, and a write made in two steps (a write, then a formatter)
 * is sent once.
 */
export const OUTSIDE_SYNC_DELAY_MS = 1_000;

export class OutsideChanges {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly supervisor: LanguageServerSupervisor) {}

  /** One batch from the workdir watcher. */
  apply(changes: readonly WatchedChange[]): void {
    for (const { client } of this.supervisor.running()) {
      // gopls and pyright see only what they are told: a new file was missing from a rename.
      client.notifyFileChanges(changes);
      for (const change of changes) if (client.documents.has(uriOf(change.path))) this.resyncLater(client, change.path);
    }
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** Push servers then publish for the file as it now is, and the write that follows compares with it. */
  private resyncLater(client: LanguageServerClient, path: string): void {
    const key = `${client.label}\0${path}`;
    clearTimeout(this.timers.get(key));
    const timer = setTimeout(() => {
      this.timers.delete(key);
      if (!client.alive || !client.documents.has(uriOf(path))) return;
      syncDocument(client, this.supervisor.workdir, path).catch(() => closeDocument(client, path));
    }, OUTSIDE_SYNC_DELAY_MS);
    timer.unref?.();
    this.timers.set(key, timer);
  }
}
