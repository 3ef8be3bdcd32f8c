// The nice value of a process's scheduling group, read from /proc/<pid>/autogroup (Linux).
import { readFileSync } from "node:fs";

/**
 * "/autogroup-12310 nice 0" → 0. A process in the session of init (a container's, as on CI) is in
 * the kernel's root group, whose file is empty: it weighs as nice 0, and the sidecar reads it so
 * too (src/platform/priority.ts).
 */
export function autogroupNice(pid: number): number {
  return Number(/nice\s+(-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, "utf8"))?.[1] ?? 0);
}
