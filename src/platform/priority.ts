// Scheduling priority: the main thread, which every request passes through, comes before bulk work.
// On a busy machine a tools/list otherwise waits for a core behind parse workers matching, a
// language server indexing or a kernel running a loop. Raising a nice value needs no privilege.

import { readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

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
  } catch {
    return false; // already gone
  }
  lowerSessionGroupPriority(pid, nice);
  return true;
}

/**
 * Linux with autogroup scheduling (most desktop and many server kernels) makes every session a
 * scheduling group, and groups share the CPU as equals whatever the nice values of their threads.
 * A child that leads its own session (spawned detached, for group kills) is such a group: its
 * process nice alone would leave it level with the whole sidecar, so the group's nice is lowered
 * too. Raising it needs no privilege. A child in our own group is left alone, since that nice
 * would lower the sidecar with it. False where there is no group of the child's own to lower.
 */
export function lowerSessionGroupPriority(pid: number, nice: number): boolean {
  if (process.platform !== "linux") return false;
  try {
    const ours = autogroupName(readFileSync("/proc/self/autogroup", "utf8"));
    const path = `/proc/${pid}/autogroup`;
    if (autogroupName(readFileSync(path, "utf8")) === ours) return false;
    writeFileSync(path, String(nice));
    return true;
  } catch {
    return false; // autogroup off (no file), or the child is gone
  }
}

/** "/autogroup-12310 nice 0" → "/autogroup-12310". */
function autogroupName(line: string): string {
  return line.split(" ")[0] ?? "";
}

/** Nice value of the runtime's helper threads; the parse workers, bulk work too, have their own. */
export const HELPER_THREAD_NICE = 10;
/** The name of the front thread (src/runtime/front.bun.ts), which answers requests as the main thread does. */
export const FRONT_THREAD_NAME = "sidecar-front";
/**
 * Threads on the path of every request, kept at the main thread's priority: the front thread, and
 * Bun's "HTTP Client" thread, where fetch does its I/O as the front passes each call on.
 */
const SERVING_THREAD_NAMES = new Set([FRONT_THREAD_NAME, "HTTP Client"]);

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
  for (const tid of threadIds()) {
    if (tid === process.pid) continue; // the main thread
    try {
      if (getPriority(tid) < HELPER_THREAD_NICE && !SERVING_THREAD_NAMES.has(threadName(tid))) setPriority(tid, HELPER_THREAD_NICE);
    } catch {
      // the thread ended meanwhile
    }
  }
}

function threadName(tid: number): string {
  try {
    return readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
}

function threadIds(): number[] {
  try {
    return readdirSync("/proc/self/task").map(Number);
  } catch {
    return [];
  }
}
