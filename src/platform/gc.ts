// Asking the runtime to collect garbage now, where one exists (Bun.gc); elsewhere a no-op.

type GcRuntime = { Bun?: { gc(force: boolean): void } };

/**
 * A hint after a burst of short-lived allocations (a cell flooding output): a busy server's
 * collector may otherwise let hundreds of MB of dead chunks pile up before it runs.
 */
export function collectGarbage(): void {
  (globalThis as GcRuntime).Bun?.gc(false);
}
