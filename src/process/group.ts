// Spawning children as the root of their own process tree, and stopping a whole tree: SIGTERM, grace, SIGKILL.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { groupAlive } from "../platform/group-alive.ts";
import { watchForOrphaning } from "../platform/orphan-watch.ts";
import { lowerProcessPriority } from "../platform/priority.ts";
import { treeKiller, type TreeSignal } from "../platform/process-tree.ts";
import { killTagged, tagEnvironment } from "../platform/tree-tag.ts";

/** How long a group gets between SIGTERM and SIGKILL. */
export const TERMINATE_GRACE_MS = 2_000;
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

/**
 * Spawns `command` as the leader of a new process group, so the whole tree can be signalled, and
 * watched so that the group dies with the sidecar even if the sidecar is SIGKILLed.
 */
export function spawnGroup(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const { tag, env } = tagEnvironment(options.env);
  const child = spawn(command, args, { windowsHide: true, ...options, env, detached: killer.detachChildren });
  treeTags.set(child, tag);
  watchForOrphaning(child, tag);
  if (child.pid !== undefined) lowerProcessPriority(child.pid, CHILD_NICE_STEPS);
  return child;
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
  if (tag) killTagged(tag); // daemons that left the group with setsid
  await Promise.race([exited(child), delay(REAP_TIMEOUT_MS)]);
}

/**
 * Kills what is left of a child's tree after its leader ended by itself: its group, and daemons
 * that left the group with setsid (a worker's `setsid server &` outlived the worker and the run).
 */
export function killRemains(child: ChildProcess): void {
  signalGroup(child, "SIGKILL");
  const tag = treeTags.get(child);
  if (tag) killTagged(tag);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}
