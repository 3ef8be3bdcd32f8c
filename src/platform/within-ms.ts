// A promise's value, or "timeout" once a bound passed first: the one bounded wait every domain uses.

/** The promise's value, or "timeout" once `ms` passed first (the timer is cleared either way). */
export async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
