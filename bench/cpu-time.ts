// CPU time from /proc (Linux) for the benches: of a process, one of its threads, or the machine.
import { readFileSync } from "node:fs";
import { procStatFields } from "../src/platform/proc-stat.ts";

/** /proc counts CPU time in clock ticks (USER_HZ). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU seconds so far (user + system) of process `pid`, its threads included, or of its thread
 * `tid`; with `reaped`, also the time of its children it has reaped. 0 once the process is gone.
 */
export function cpuSeconds(pid: number, options: { tid?: number; reaped?: boolean } = {}): number {
  const fields = procStatFields(pid, options.tid) ?? [];
  const columns = options.reaped ? [11, 12, 13, 14] : [11, 12]; // utime, stime, cutime, cstime
  return columns.reduce((sum, k) => sum + Number(fields[k] ?? 0), 0) / CLOCK_TICKS_PER_SECOND;
}

/** Busy and total CPU seconds of the whole machine so far, all cores (/proc/stat). */
export function machineCpu(): { busy: number; total: number } {
  const ticks = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const idle = ticks[3]! + ticks[4]!; // idle, iowait
  const total = ticks.reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / CLOCK_TICKS_PER_SECOND, total: total / CLOCK_TICKS_PER_SECOND };
}
