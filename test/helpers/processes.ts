// Whether a process is alive, one answer for every test: a zombie is dead (it has exited and merely
// waits to be reaped), though `kill(pid, 0)` still finds it.
import { procStatFields } from "../../src/platform/proc-stat.ts";
import { until } from "./until.ts";

export function isAlive(pid: number): boolean {
  const state = procStatFields(pid)?.[0];
  return state !== undefined && state !== "Z";
}

/** Waits (bounded) until none of `pids` is alive; answers the ones still alive at the bound, [] when all are gone. */
export async function survivors(pids: readonly number[], limitMs?: number): Promise<number[]> {
  await until(`pids ${pids.join(", ")} to exit`, () => pids.every((pid) => !isAlive(pid)), { limitMs }).catch(() => {});
  return pids.filter(isAlive);
}
