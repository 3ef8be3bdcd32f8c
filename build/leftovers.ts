// Finds processes still carrying a marker environment variable: how tests prove no child outlived
// the sidecar (children inherit the environment, and keep it after being re-parented to init).
import { procStatFields } from "../src/platform/proc-stat.ts";
import { processesWithEnvironmentEntry } from "../src/platform/tree-tag.ts";

/** PIDs of live processes whose environment holds NAME=VALUE (Linux /proc; empty elsewhere). */
export function processesWithMarker(name: string, value: string): number[] {
  return processesWithEnvironmentEntry(`${name}=${value}`).filter((pid) => !isZombie(pid));
}

/** Zombies are already dead; they only wait for their parent to reap them. */
function isZombie(pid: number): boolean {
  return procStatFields(pid)?.[0] === "Z"; // undefined: gone meanwhile
}

/** Waits up to `timeoutMs` for every marked process to be gone; returns the survivors. */
export async function waitForNoLeftovers(name: string, value: string, timeoutMs = 5_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let left = processesWithMarker(name, value);
  while (left.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = processesWithMarker(name, value);
  }
  return left;
}
