// Spawning children in their own process group, and stopping a whole group: SIGTERM, grace, SIGKILL.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

/** How long a group gets between SIGTERM and SIGKILL. */
export const TERMINATE_GRACE_MS = 2_000;

/** Spawns `command` as the leader of a new process group, so the whole tree can be signalled. */
export function spawnGroup(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(command, args, { ...options, detached: process.platform !== "win32" });
}

/** Sends `signal` to the child's whole group (falling back to the child alone). */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === "win32") child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves when the child has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (hasExited(child) || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/**
 * Stops a child and everything in its group: SIGTERM, then SIGKILL after the grace period. The
 * group gets SIGKILL even when the leader exits promptly, so grandchildren that ignored SIGTERM
 * do not survive their parent.
 */
export async function stopGroup(child: ChildProcess, graceMs = TERMINATE_GRACE_MS): Promise<void> {
  if (child.pid === undefined) return;
  signalGroup(child, "SIGTERM");
  const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), graceMs).unref?.());
  await Promise.race([exited(child), timer]);
  signalGroup(child, "SIGKILL");
  await Promise.race([exited(child), new Promise((resolve) => setTimeout(resolve, 1_000))]);
}
