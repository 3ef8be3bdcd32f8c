// Asking the runtime to collect garbage now, where one exists (Bun.gc); elsewhere a no-op.

type GcRuntime = { Bun?: { gc(force: boolean): void } };

/**
 * A hint after a burst of short-lived allocations (a cell flooding output): a busy server's
 * collector may otherwise let hundreds of MB of dead chunks pile up before it runs. `full` collects
 * synchronously and also has the allocator hand free pages back to the system (tens of ms on a
 * heap of a few hundred MB), so it is kept for moments with nothing in flight.
 */
export function collectGarbage(full = false): void {
  (globalThis as GcRuntime).Bun?.gc(full);
}
