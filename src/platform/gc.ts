// Asking the runtime to collect garbage now, where one exists (Bun.gc); elsewhere a no-op.

type GcRuntime = { Bun?: { gc(force: boolean): void; shrink?: () => void } };

/**
 * A hint after a burst of short-lived allocations (a cell flooding output): a busy server's
 * collector may otherwise let hundreds of MB of dead chunks pile up before it runs. `full` collects
 * synchronously and also has the allocator hand free pages back to the system (tens of ms on a
 * heap of a few hundred MB), so it is kept for moments with nothing in flight.
 */
export function collectGarbage(full = false): void {
  (globalThis as GcRuntime).Bun?.gc(full);
}

/**
 * A full collection that also gives back what one leaves behind: the engine's compiled code (built
 * again from bytecode when next called, so the first calls after are slower) and the allocator's
 * cached free pages. Bun.shrink does all three once the thread is idle (within milliseconds); it is
 * deprecated in the typings but kept by the runtime, so it is looked up, and a plain full
 * collection stands in without it. For long idle only.
 */
export function shrinkFootprint(): void {
  const bun = (globalThis as GcRuntime).Bun;
  if (typeof bun?.shrink === "function") bun.shrink();
  else bun?.gc(true);
}
