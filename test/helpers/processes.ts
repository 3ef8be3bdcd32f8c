// Whether a process is alive, one answer for every test: a zombie is dead (it has exited and merely
// waits to be reaped), though `kill(pid, 0)` still finds it. Whether its parent has collected it is
// another question, isReaped.
import { procStatFields } from "../../src/platform/proc-stat.ts";
import { until } from "./until.ts";

export function isAlive(pid: number): boolean {
  const state = procStatFields(pid)?.[0];
  return state !== undefined && state !== "Z";
}

/**
 * Gone from the process table: dead and collected by its parent. For a child of the in-process
 * sidecar, that means the sidecar has seen it exit; a test that next asks the sidecar about that
 * death waits for this, not for isAlive to turn false (a zombie is dead before the sidecar knows).
 */
export function isReaped(pid: number): boolean {
  return procStatFields(pid) === undefined;
}

/** Waits (bounded) until none of `pids` is alive; answers the ones still alive at the bound, [] when all are gone. */
export async function survivors(pids: readonly number[], limitMs?: number): Promise<number[]> {
  await until(`pids ${pids.join(", ")} to exit`, () => pids.every((pid) => !isAlive(pid)), { limitMs }).catch(() => {});
  return pids.filter(isAlive);
}
