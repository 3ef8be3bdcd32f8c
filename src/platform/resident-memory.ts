// How much memory a process holds right now (its resident set), read from /proc on Linux.
import { readFileSync } from "node:fs";

/** Bytes resident for `pid`; undefined when the process is gone or the system has no /proc. */
export function residentBytes(pid: number): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined;
  }
  const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  return kb === undefined ? undefined : Number(kb) * 1024;
}
