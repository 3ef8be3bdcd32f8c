// The bounded wait for a session's next stop: it ends at the stop, at the stop-wait bound, or when the call is cancelled.
import type { FamilyStop } from "./process-family.ts";

/**
 * The next stop of any process of the family, or a `timeout` outcome on `waiter` when `waitMs`
 * passes or the call is cancelled first (the program runs on either way).
 */
export async function boundedStop<M>(next: Promise<FamilyStop<M>>, waiter: M, waitMs: number, signal?: AbortSignal): Promise<FamilyStop<M>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const bound = new Promise<FamilyStop<M>>((resolve) => {
    timer = setTimeout(() => resolve({ member: waiter, outcome: { kind: "timeout" } }), waitMs);
    onAbort = () => resolve({ member: waiter, outcome: { kind: "timeout" } });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([next, bound]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}
