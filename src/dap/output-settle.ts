// Waiting, bounded, for the program's output to catch up with a stop or an exit before reporting it.
import type { OutputRing } from "./output-ring.ts";

/**
 * Output travels apart from the stop: delve's and debugpy's programs write to a pipe the sidecar
 * reads, lldb's and an attached debugpy's arrive as events. A stopped program writes nothing more,
 * so once the output has been quiet this long, what it printed before the stop is in.
 */
export const OUTPUT_QUIET_MS = 10;
/** At exit, output from buffers flushed on the way out can trail the `terminated` event by longer. */
export const EXIT_OUTPUT_QUIET_MS = 60;
/** The most a report waits for output to go quiet; past it the report says output may still be arriving. */
export const OUTPUT_SETTLE_MS = 1_000;

/**
 * Resolves true once no output has arrived for `quietMs` (counting from now when `alwaysWait`,
 * since output may be in flight that has not started to arrive), false when the bound ran out
 * while output was still coming.
 */
export async function outputSettled(ring: OutputRing, quietMs: number, alwaysWait: boolean, boundMs = OUTPUT_SETTLE_MS): Promise<boolean> {
  const began = Date.now();
  const deadline = began + boundMs;
  const floor = alwaysWait ? began : 0;
  for (;;) {
    const since = Date.now() - Math.max(ring.lastAppendAt, floor);
    if (since >= quietMs) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(quietMs - since, deadline - Date.now()) + 1));
  }
}
