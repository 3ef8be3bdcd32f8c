// How much memory a process holds (its resident set, now and at its peak), read from /proc on Linux.
import { readFileSync } from "node:fs";

/** Bytes resident for `pid`; undefined when the process is gone or the system has no /proc. */
export function residentBytes(pid: number): number | undefined {
  return statusKilobytes(pid, "VmRSS");
}

/** The most bytes `pid` has held resident since it started (its high-water mark); undefined as above. */
export function peakResidentBytes(pid: number): number | undefined {
  return statusKilobytes(pid, "VmHWM");
}

function statusKilobytes(pid: number, field: "VmRSS" | "VmHWM"): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined;
  }
  const kb = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, "m").exec(status)?.[1];
  return kb === undefined ? undefined : Number(kb) * 1024;
}
