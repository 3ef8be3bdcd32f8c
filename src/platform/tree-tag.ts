// A child that calls setsid (a daemon) leaves its process group, so a group kill misses it. Every
// spawned tree carries a tag in its environment, which descendants inherit through setsid and
// double forks; stopping the tree also kills whatever still carries the tag (Linux: /proc).
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

/** Per sidecar, so a sidecar started by another one keeps both tags on its children. */
export const TREE_TAG_VARIABLE = `SIDECAR_TREE_${process.pid}`;

/** A fresh tag for one child tree, and the environment that carries it. */
export function tagEnvironment(env: NodeJS.ProcessEnv | undefined): { tag: string; env: NodeJS.ProcessEnv } {
  const tag = randomUUID();
  return { tag, env: { ...(env ?? process.env), [TREE_TAG_VARIABLE]: tag } };
}

/** PIDs of live processes whose environment carries this tag; empty where /proc is missing. */
function taggedProcesses(tag: string): number[] {
  return processesWithEnvironmentEntry(`${TREE_TAG_VARIABLE}=${tag}`);
}

/** PIDs of processes (this one excluded) whose environment holds `entry` ("NAME=value"); Linux /proc. */
export function processesWithEnvironmentEntry(entry: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync("/proc");
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const pid of pids) {
    if (pid.charCodeAt(0) < 48 || pid.charCodeAt(0) > 57 || Number(pid) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(entry)) found.push(Number(pid));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** SIGKILLs every process still carrying the tag (escaped daemons); returns how many were found. */
function killTagged(tag: string): number {
  const pids = taggedProcesses(tag);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return pids.length;
}

/** Pause between sweeps; an exec's unreadable moment lasts microseconds. */
const SWEEP_GAP_MS = 20;
/** Sweeps in a row that must find nothing before the tree counts as gone. */
const EMPTY_SWEEPS_NEEDED = 2;
/** Bound on the whole sweep, so a tree that forks faster than it is killed cannot hold a stop. */
const SWEEP_LIMIT_MS = 2_000;

/**
 * Kills every process carrying the tag until sweeps in a row find none. One sweep is not enough:
 * a process in the middle of an exec shows an empty environment (the kernel has not yet set the new
 * image's), and a daemon being started (`setsid sh -c 'exec server'`) execs twice right as its
 * parent exits, so on a loaded machine one sweep in fifty missed it (test/process/group.test.ts).
 * A daemon that forks while being killed is caught by the next sweep the same way.
 */
export async function sweepTagged(tag: string): Promise<number> {
  const deadline = Date.now() + SWEEP_LIMIT_MS;
  let killed = 0;
  let emptyInARow = 0;
  for (;;) {
    const found = killTagged(tag);
    killed += found;
    emptyInARow = found === 0 ? emptyInARow + 1 : 0;
    if (emptyInARow >= EMPTY_SWEEPS_NEEDED || Date.now() >= deadline) return killed;
    await new Promise((resolve) => setTimeout(resolve, SWEEP_GAP_MS));
  }
}

/** The same sweep as a shell fragment, for the orphan watcher that outlives a SIGKILLed sidecar. */
export function killTaggedShell(tag: string): string {
  // One grep over every environ file (-z: NUL-separated entries, -x: the whole entry, -l: file names).
  return `for e in $(grep -lsxz '${TREE_TAG_VARIABLE}=${tag}' /proc/[0-9]*/environ); do p=\${e#/proc/}; kill -KILL "\${p%/environ}" 2>/dev/null; done`;
}
