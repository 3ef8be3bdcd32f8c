// Waits for something a test cannot be told about (a file, a process exit, a log line) by asking
// again until it holds, within a bound, and fails naming what it waited for.

/** Long enough for a child to start or exit on a loaded 2-core machine; short enough to fail before the test's own timeout. */
export const UNTIL_LIMIT_MS = 30_000;
const STEP_MS = 50;

/**
 * Resolves with the probe's first value that is neither undefined nor false; throws
 * "gave up after … waiting for <what>" past `limitMs`.
 */
export async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  { limitMs = UNTIL_LIMIT_MS, stepMs = STEP_MS }: { limitMs?: number; stepMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Gave up after ${limitMs} ms waiting for ${what}.`);
    await Bun.sleep(stepMs);
  }
}
