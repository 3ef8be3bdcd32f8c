// Counts live objects on this process's heap (in-process runs put the sidecar in it), for leak tests.
import { heapStats } from "bun:jsc";

/** Live objects of each of `kinds` (JSC type names: "Promise", "Function", …) after a full collection. */
export function liveObjects(kinds: readonly string[]): Record<string, number> {
  Bun.gc(true);
  const counts = heapStats().objectTypeCounts as Record<string, number>;
  return Object.fromEntries(kinds.map((kind) => [kind, counts[kind] ?? 0]));
}
