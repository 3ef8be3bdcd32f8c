// One install of a server at a time across every sidecar on the machine: a lock file created exclusively, broken when its owner is gone.
import { hostname } from "node:os";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** A lock older than this is abandoned whoever holds it: no install takes that long (INSTALL_TIMEOUT_MS is less). */
const LOCK_ABANDONED_MS = 10 * 60_000;
/** How often a waiting sidecar looks whether the lock is free. */
const LOCK_POLL_MS = 200;

interface LockOwner {
  pid: number;
  host: string;
  since: number;
}

interface InstallLock {
  release(): void;
}

/**
 * Takes the lock at `path`, waiting while another live process holds it; `onWait` hears who. A
 * lock whose owner died (same host, pid gone) or that is older than LOCK_ABANDONED_MS is broken.
 * Breaking can race with another waiter; that only costs a second install, never a broken one:
 * each install is staged apart and moved into place with one rename.
 */
export async function acquireInstallLock(path: string, onWait: (owner: LockOwner) => void, signal?: AbortSignal): Promise<InstallLock> {
  mkdirSync(dirname(path), { recursive: true });
  const mine: LockOwner = { pid: process.pid, host: hostname(), since: Date.now() };
  // Written whole beside the lock, then hard-linked to its name: the lock never exists half-written.
  const draft = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(draft, JSON.stringify(mine));
  let told = false;
  try {
    for (;;) {
      signal?.throwIfAborted();
      try {
        linkSync(draft, path);
        return { release: () => releaseIfMine(path, mine) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const owner = readOwner(path);
      if (!owner || abandoned(owner)) {
        rmSync(path, { force: true });
        continue;
      }
      if (!told) {
        onWait(owner);
        told = true;
      }
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
  } finally {
    rmSync(draft, { force: true });
  }
}

/** Who holds the lock now, if anyone live does. */
export function lockHolder(path: string): LockOwner | undefined {
  const owner = readOwner(path);
  return owner && !abandoned(owner) ? owner : undefined;
}

function readOwner(path: string): LockOwner | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as LockOwner;
  } catch {
    return undefined;
  }
}

function abandoned(owner: LockOwner): boolean {
  if (Date.now() - owner.since > LOCK_ABANDONED_MS) return true;
  return owner.host === hostname() && !processAlive(owner.pid);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function releaseIfMine(path: string, mine: LockOwner): void {
  const owner = readOwner(path);
  if (owner && owner.pid === mine.pid && owner.since === mine.since) rmSync(path, { force: true });
}
