// One process's (or one thread's) /proc stat line, split into fields (Linux).
import { readFileSync } from "node:fs";

/**
 * The fields after "pid (comm) ": state at index 0, ppid 1, pgrp 2, utime 11, stime 12, nice 16,
 * starttime 19. Undefined when the process is gone or there is no /proc. comm may hold spaces and
 * parentheses, so the split starts after the last ")".
 */
export function procStatFields(pid: number, tid?: number): string[] | undefined {
  let stat: string;
  try {
    stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, "utf8");
  } catch {
    return undefined; // exited while we looked
  }
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}
