// Changes made outside the sidecar (a shell, git, a formatter) reach the servers: watched files at once, open copies a moment later.
import type { LanguageServerClient } from "./client.ts";
import { closeDocument, syncDocument, uriOf } from "./documents.ts";
import type { LanguageServerSupervisor } from "./supervisor.ts";
import type { WatchedChange } from "./workdir-watch.ts";

/**
 * Changes to one file less than this apart are one write (a write, then a formatter). An open file
 * changed on disk is re-sent to its server this long after the last change seen, not at once: a
 * write the harness reports through after-write is synced by that call, and sent once.
 */
const WRITE_BURST_MS = 1_000;
/** Files whose changes are remembered; past this, which were changed before a write is unknown. */
const PATHS_REMEMBERED = 20_000;

export class OutsideChanges {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Per path: when it last changed, and whether it also changed in an earlier burst. */
  private readonly bursts = new Map<string, { last: number; earlier: boolean }>();
  private forgotSome = false;

  constructor(private readonly supervisor: LanguageServerSupervisor) {}

  /**
   * Whether the file changed on disk before the latest burst of changes to it (the write now being
   * reported): its text at the start of the run is then no longer the text before this write.
   */
  changedBefore(path: string): boolean {
    return this.forgotSome || (this.bursts.get(path)?.earlier ?? false);
  }

  /** A write was reported and diagnosed: its changes are accounted for. */
  accounted(path: string): void {
    this.bursts.delete(path);
  }

  /** One batch from the workdir watcher. */
  apply(changes: readonly WatchedChange[]): void {
    const now = Date.now();
    for (const { path } of changes) this.remember(path, now);
    for (const { client } of this.supervisor.running()) {
      // gopls and pyright see only what they are told: a new file was missing from a rename.
      client.notifyFileChanges(changes);
      for (const change of changes) if (client.documents.has(uriOf(change.path))) this.resyncLater(client, change.path);
    }
  }

  private remember(path: string, now: number): void {
    const burst = this.bursts.get(path);
    if (burst) {
      burst.earlier ||= now - burst.last > WRITE_BURST_MS;
      burst.last = now;
      return;
    }
    if (this.bursts.size >= PATHS_REMEMBERED) {
      this.forgotSome = true;
      return;
    }
    this.bursts.set(path, { last: now, earlier: false });
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
    }, WRITE_BURST_MS);
    timer.unref?.();
    this.timers.set(key, timer);
  }
}
