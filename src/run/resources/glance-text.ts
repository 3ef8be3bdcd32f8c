// The words of a glance row, shared by the resources' sections: process facts, joined parts, cut text.
import { residentBytes } from "../../platform/resident-memory.ts";

/** A worker's result or a last error is cut to this many characters in its row. */
const DETAIL_CHARS = 300;

/** "pid 4242, 85 MB" from /proc, or just the pid where memory cannot be read. */
export function processFacts(pid: number | undefined, label = "pid"): string | undefined {
  if (pid === undefined) return undefined;
  const bytes = residentBytes(pid);
  return bytes === undefined ? `${label} ${pid}` : `${label} ${pid}, ${Math.round(bytes / 2 ** 20)} MB`;
}

export function joined(parts: (string | undefined)[]): string {
  return parts.filter((part): part is string => Boolean(part)).join("; ");
}

export function cut(text: string): string {
  const line = text.trim().replace(/\s+/g, " ");
  return line.length <= DETAIL_CHARS ? line : `${line.slice(0, DETAIL_CHARS)}…`;
}
