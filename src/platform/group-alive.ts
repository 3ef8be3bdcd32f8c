// Whether anything of a process group still runs, zombies not counted.
import { readdirSync } from "node:fs";
import { HOST } from "./os.ts";
import { procStatFields } from "./proc-stat.ts";

/**
 * True while a live (non-zombie) process is in group `pgid`. A zombie is dead but still counted by
 * kill(-pgid, 0) until its new parent reaps it, and some init processes (containers, microVMs)
 * reap late; on Linux /proc tells them apart. Elsewhere the signal probe is the best answer.
 */
export function groupAlive(pgid: number): boolean {
  if (HOST.family === "windows") return false;
  if (process.platform === "linux") return linuxGroupAlive(pgid); // platform/ is where such checks live
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function linuxGroupAlive(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return false;
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    const fields = procStatFields(Number(entry));
    if (!fields) continue; // exited while we looked
    const [state, , group] = fields;
    if (Number(group) === pgid && state !== "Z" && state !== "X") return true;
  }
  return false;
}
