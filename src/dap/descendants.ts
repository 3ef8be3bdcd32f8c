// The processes below a pid, read from /proc: how we learn the pid of a debuggee an adapter never names.
import { readdirSync } from "node:fs";
import { procStatFields } from "../platform/proc-stat.ts";

/** A process as /proc saw it; `started` tells a reused pid from the one we meant. */
export interface ProcessMark {
  pid: number;
  started: string;
}

/** Every live descendant of `root` (children, grandchildren, …); empty where /proc is absent. */
export function descendants(root: number): ProcessMark[] {
  const children = new Map<number, ProcessMark[]>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = procStatFields(Number(entry));
    if (!fields) continue;
    const parent = Number(fields[1]);
    const list = children.get(parent) ?? [];
    list.push({ pid: Number(entry), started: fields[19] ?? "" });
    children.set(parent, list);
  }
  const found: ProcessMark[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** Whether the process is still the one marked (not gone, not a new process under a reused pid). */
export function stillRunning(mark: ProcessMark): boolean {
  return procStatFields(mark.pid)?.[19] === mark.started;
}
