// Scheduling priority: the main thread, which every request passes through, comes before bulk work.
// On a busy machine a call otherwise waits for a core behind parse workers matching, a language
// server indexing or a kernel running a loop. Every nice set here is relative to the process's own:
// a sidecar started under `nice -n 15` puts its children at 19, never back at 5 (a raise above the
// parent that root could make and a user could not, and that would invert the order asked for).

import { readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

/** The highest nice value (lowest priority) Linux and macOS accept. */
export const MAX_NICE = 19;

/** The process's own nice value (its main thread's); 0 where it cannot be read. */
function ownNice(): number {
  try {
    return getPriority(process.pid);
  } catch {
    return 0;
  }
}

/** `by` steps below the process's own priority, within the valid range. */
export function niceBelowOwn(by: number): number {
  return Math.min(MAX_NICE, ownNice() + by);
}

/** Lowers the calling thread `by` steps below the process (Linux: threads have their own nice value); false where it cannot. */
export function lowerThisThreadPriority(by: number): boolean {
  if (process.platform !== "linux") return false;
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isInteger(tid) || tid === process.pid) return false; // never the main thread
    setPriority(tid, niceBelowOwn(by));
    return true;
  } catch {
    return false;
  }
}

/** Lowers a child process `by` steps below this process (its own children inherit it); false where it cannot. */
export function lowerProcessPriority(pid: number, by: number): boolean {
  if (process.platform === "win32") return false;
  const nice = niceBelowOwn(by);
  try {
    // A child of a sidecar under `nice -n 19` starts as low as it can go: its nice stays (never
    // raised), but its scheduling group is still lowered below ours.
    if (getPriority(pid) < nice) setPriority(pid, nice);
  } catch {
    return false; // already gone
  }
  lowerSessionGroupPriority(pid, by);
  return true;
}

/**
 * Lowers a child that has been running for a while (every thread it started so far, and its session's
 * scheduling group) `by` steps below this process. For a child left at our priority while a call
 * waited for its start-up: threads it starts from now on inherit the lowered nice of their creator.
 */
export function lowerRunningProcessPriority(pid: number, by: number): boolean {
  if (process.platform !== "linux") return lowerProcessPriority(pid, by); // one nice per process there
  const nice = niceBelowOwn(by);
  let threads: number[];
  try {
    threads = readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return false; // already gone
  }
  for (const tid of threads) {
    try {
      if (getPriority(tid) < nice) setPriority(tid, nice); // never raise one
    } catch {
      // the thread ended meanwhile
    }
  }
  lowerSessionGroupPriority(pid, by);
  return true;
}

/**
 * Linux with autogroup scheduling (most desktop and many server kernels) makes every session a
 * scheduling group, and groups share the CPU as equals whatever the nice values of their threads.
 * A child that leads its own session (spawned detached, for group kills) is such a group: its
 * process nice alone would leave it level with the whole sidecar, so the group's nice is lowered
 * too, `by` steps below our own group's. Raising it needs no privilege. A child in our own group
 * is left alone, since that nice would lower the sidecar with it. False where there is no group of
 * the child's own to lower. Called again with fewer steps, it puts the group back up, never above ours.
 */
export function lowerSessionGroupPriority(pid: number, by: number): boolean {
  if (process.platform !== "linux") return false;
  try {
    const ours = autogroup(readFileSync("/proc/self/autogroup", "utf8"));
    const path = `/proc/${pid}/autogroup`;
    if (autogroup(readFileSync(path, "utf8")).name === ours.name) return false;
    writeFileSync(path, String(Math.min(MAX_NICE, ours.nice + by)));
    return true;
  } catch {
    return false; // autogroup off (no file), or the child is gone
  }
}

/** "/autogroup-12310 nice 0" → its name and nice. */
function autogroup(line: string): { name: string; nice: number } {
  const [name = "", , nice = "0"] = line.trim().split(" ");
  return { name, nice: Number(nice) || 0 };
}

/** Steps below the main thread for the runtime's helper threads; the parse workers have their own. */
export const HELPER_THREAD_STEPS = 10;

/** Helper threads start lazily (the JIT's once code gets hot), so the check repeats. */
const HELPER_CHECK_MS = 5_000;

/**
 * Keeps the runtime's own helper threads (JIT compiler, GC helpers, the allocator's scavenger, the
 * file-system pool) below the main thread for the life of the process: under load they otherwise
 * take turns on the CPU ahead of it. Linux only; returns a stop.
 */
export function keepHelperThreadsLow(): () => void {
  if (process.platform !== "linux") return () => {};
  lowerHelperThreads();
  const timer = setInterval(lowerHelperThreads, HELPER_CHECK_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}

function lowerHelperThreads(): void {
  const nice = niceBelowOwn(HELPER_THREAD_STEPS);
  for (const tid of threadIds()) {
    if (tid === process.pid) continue; // the main thread
    try {
      if (getPriority(tid) < nice) setPriority(tid, nice);
    } catch {
      // the thread ended meanwhile
    }
  }
}

function threadIds(): number[] {
  try {
    return readdirSync("/proc/self/task").map(Number);
  } catch {
    return [];
  }
}
