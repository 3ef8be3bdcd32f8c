// A sidecar belongs to the harness run that started it: once that process is gone (crashed,
// SIGKILLed), nobody will ever send the SIGTERM, and the sidecar with its language servers and
// kernels would run on for nobody. So `serve` watches its parent and shuts down when it goes.
import { HOST } from "./os.ts";

/** How often the parent is checked; the run starts shutting down within about this long. */
export const PARENT_CHECK_MS = 500;

/**
 * Calls `gone` once `parent` (this process's parent pid, read at start) has exited; returns a
 * stop. On POSIX an orphan is adopted at once (by init or a subreaper), so a changed parent pid is
 * the sign, and it cannot be fooled by a reused pid. Windows keeps the old parent pid, so there it
 * is probed. Nothing is watched when the parent is already init (started detached on purpose).
 */
export function watchParent(parent: number, gone: () => void): () => void {
  if (HOST.family === "posix" && parent <= 1) return () => {};
  const timer = setInterval(() => {
    if (!parentGone(parent)) return;
    clearInterval(timer);
    gone();
  }, PARENT_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

function parentGone(parent: number): boolean {
  if (HOST.family === "posix") return process.ppid !== parent;
  try {
    process.kill(parent, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
