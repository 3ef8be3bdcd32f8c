// Scheduling priority: the main thread, which every request passes through, comes before bulk work.
// On a busy machine a tools/list otherwise waits for a core behind parse workers matching, a
// language server indexing or a kernel running a loop. Raising a nice value needs no privilege.

import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";

/** Lowers the calling thread's priority (Linux: threads have their own nice value); false where it cannot. */
export function lowerThisThreadPriority(nice: number): boolean {
  if (process.platform !== "linux") return false;
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isInteger(tid) || tid === process.pid) return false; // never the main thread
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}

/** Lowers a child process's priority (its own children inherit it); false where it cannot. */
export function lowerProcessPriority(pid: number, nice: number): boolean {
  if (process.platform === "win32") return false;
  try {
    setPriority(pid, nice);
    return true;
  } catch {
    return false; // already gone
  }
}
