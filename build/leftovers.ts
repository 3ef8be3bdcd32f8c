// Finds processes still carrying a marker environment variable: how tests prove no child outlived
// the sidecar (children inherit the environment, and keep it after being re-parented to init).
import { readdirSync, readFileSync } from "node:fs";

/** PIDs of live processes whose environment holds NAME=VALUE (Linux /proc; empty elsewhere). */
export function processesWithMarker(name: string, value: string): number[] {
  if (process.platform !== "linux") return [];
  const needle = `${name}=${value}`;
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "latin1");
      if (environ.split("\0").includes(needle)) {
        const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
        if (!/\) Z /.test(stat)) found.push(Number(entry)); // zombies are already dead
      }
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
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
