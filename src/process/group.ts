// Spawning children as the root of their own process tree, and stopping a whole tree: SIGTERM, grace, SIGKILL.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { groupAlive } from "../platform/group-alive.ts";
import { watchForOrphaning } from "../platform/orphan-watch.ts";
import { lowerProcessPriority, lowerRunningProcessPriority, lowerSessionGroupPriority, MAX_NICE } from "../platform/priority.ts";
import { procStatFields } from "../platform/proc-stat.ts";
import { treeKiller, type TreeSignal } from "../platform/process-tree.ts";
import { sweepTagged, tagEnvironment } from "../platform/tree-tag.ts";

/** How long a group gets between SIGTERM and SIGKILL. */
const TERMINATE_GRACE_MS = 2_000;
/** How long to wait for the exit event after SIGKILL before giving up on it. */
const REAP_TIMEOUT_MS = 1_000;
/** How often to look whether a killed group has emptied. */
const GROUP_POLL_MS = 10;

const killer = treeKiller();
/** Each spawned tree's tag, so a stop also reaches descendants that left the group. */
const treeTags = new WeakMap<ChildProcess, string>();

/**
 * How many nice steps below the sidecar every child runs (language servers, debug adapters, kernels,
 * workers): the sidecar's main thread answers every request, so a child indexing or looping must
 * not take its core. A group at 5 steps below weighs about a third of ours, so three busy children
 * still weigh as much as the sidecar; 19 would starve a kernel's computation behind any unrelated
 * job. It is set just after spawn, so what a child forks in its very first instant keeps ours.
 */
export const CHILD_NICE_STEPS = 5;

interface GroupSpawnOptions extends SpawnOptions {
  /**
   * "at spawn" (the default), or "when started": on Linux the child keeps the sidecar's priority
   * until the caller calls lowerGroupPriority. Only for a child whose start-up a call is waiting for
   * and that runs nothing of the model's before then (a kernel): lowered at spawn, its scheduling
   * group started three times slower on a loaded machine (bench/eval.ts). Elsewhere it is lowered
   * at spawn all the same: there is no /proc to find a wrapper's process by, later.
   */
  lowerPriority?: "at spawn" | "when started";
}

/** Whether lowering can wait for lowerGroupPriority here. */
const CAN_LOWER_LATER = process.platform === "linux";

/**
 * Spawns `command` as the leader of a new process group, so the whole tree can be signalled, and
 * watched so that the group dies with the sidecar even if the sidecar is SIGKILLed.
 */
export function spawnGroup(command: string, args: readonly string[], options: GroupSpawnOptions = {}): ChildProcess {
  const { lowerPriority = "at spawn", ...spawnOptions } = options;
  const { tag, env } = tagEnvironment(spawnOptions.env);
  const child = spawn(command, args, { windowsHide: true, ...spawnOptions, env, detached: killer.detachChildren });
  treeTags.set(child, tag);
  watchForOrphaning(child, tag);
  if (child.pid !== undefined && (lowerPriority === "at spawn" || !CAN_LOWER_LATER)) lowerProcessPriority(child.pid, CHILD_NICE_STEPS);
  return child;
}

/**
 * Lowers a child spawned with `lowerPriority: "when started"` CHILD_NICE_STEPS below us: every thread
 * it has, its scheduling group, and `worker` (the pid that does the work, when a wrapper such as a
 * pyenv shim started it) if that process is in the child's group.
 */
export function lowerGroupPriority(child: ChildProcess, worker?: number): void {
  if (!CAN_LOWER_LATER || child.pid === undefined || hasExited(child)) return;
  lowerRunningProcessPriority(child.pid, CHILD_NICE_STEPS);
  // A pid the child reports is checked against its group: from an enclosure it names another namespace.
  if (worker !== undefined && worker !== child.pid && Number(procStatFields(worker)?.[2]) === child.pid) {
    lowerRunningProcessPriority(worker, CHILD_NICE_STEPS);
  }
}

/**
 * Puts a child's scheduling group as low as it goes while nothing waits for it (a probe the run
 * asks ahead of need), or back to CHILD_NICE_STEPS below us once something does (`waited`): the
 * group, not the process, so every process the child has forked or will fork follows at once, and
 * so going back up needs no privilege. Linux with autogroup only; elsewhere the child stays at
 * CHILD_NICE_STEPS, as spawnGroup left it.
 */
export function setGroupBackground(child: ChildProcess, background: boolean): void {
  if (child.pid === undefined || hasExited(child)) return;
  lowerSessionGroupPriority(child.pid, background ? MAX_NICE : CHILD_NICE_STEPS);
}

/** Sends `signal` to the child's whole tree. */
export function signalGroup(child: ChildProcess, signal: TreeSignal): void {
  if (child.pid === undefined) return;
  try {
    killer.signalTree(child.pid, signal);
  } catch {
    // already gone
  }
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves when the child has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (hasExited(child) || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/**
 * Stops a child and everything in its group: SIGTERM, then SIGKILL after the grace period. The
 * group gets SIGKILL even when the leader exits promptly, so grandchildren that ignored SIGTERM
 * do not survive their parent.
 */
export async function stopGroup(child: ChildProcess, graceMs = TERMINATE_GRACE_MS): Promise<void> {
  if (child.pid === undefined) return;
  signalGroup(child, "SIGTERM");
  await Promise.race([exited(child), delay(graceMs)]);
  signalGroup(child, "SIGKILL");
  const tag = treeTags.get(child);
  // Daemons that left the group with setsid.
  await Promise.all([tag ? sweepTagged(tag) : undefined, Promise.race([exited(child), delay(REAP_TIMEOUT_MS)])]);
}

/**
 * Kills what is left of a child's tree after its leader ended by itself: its group, and daemons
 * that left the group with setsid (a worker's `setsid server &` outlived the worker and the run).
 */
export async function killRemains(child: ChildProcess): Promise<void> {
  signalGroup(child, "SIGKILL");
  const tag = treeTags.get(child);
  if (tag) await sweepTagged(tag);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}
