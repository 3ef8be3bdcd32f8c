// Children must not outlive a sidecar that was SIGKILLed (no chance to clean up): beside each
// child group runs a tiny watcher whose stdin is a pipe that only the sidecar holds open. The kernel
// closes it when the sidecar dies, however it dies; the watcher's read then ends and it kills the
// group. Blocking on the pipe costs nothing while the sidecar lives. (A watcher that polled the
// sidecar's pid every 0.5 s forked grep and sleep each time: 2 % of a core per child, at idle.)
import { spawn, type ChildProcess } from "node:child_process";
import { HOST } from "./os.ts";
import { killTaggedShell } from "./tree-tag.ts";

// `read` returns at end of file, which is the sidecar's death (it never writes). Then the group, then
// what escaped it (daemons that called setsid) by the tree's tag. dash's kill takes no `--`.
const watchScript = (tag: string | undefined) =>
  ["read -r _", `kill -KILL "-$1" 2>/dev/null`, ...(tag ? [killTaggedShell(tag)] : [])].join("; ");

/**
 * Watchers of children still running. Holding them keeps each pipe's write end open: were the
 * ChildProcess collected and its pipe closed, the watcher would kill a healthy child.
 */
const watching = new Set<ChildProcess>();

/**
 * The system's shell and tools, by path: a watcher starts beside every child, and a `sh` or `grep`
 * found on the sidecar's PATH could be one a checkout put there (platform/executables.ts).
 */
const WATCHER_SHELL = "/bin/sh";
const WATCHER_ENV = { PATH: "/usr/bin:/bin" };

/**
 * Starts the watcher for `child`'s process group and stops it when the child exits. POSIX only:
 * Windows ends a console process tree with its parent's job instead.
 */
export function watchForOrphaning(child: ChildProcess, tag?: string): void {
  if (HOST.family !== "posix" || child.pid === undefined) return;
  const watcher = spawn(WATCHER_SHELL, ["-c", watchScript(tag), "sidecar-orphan-watch", String(child.pid)], {
    stdio: ["pipe", "ignore", "ignore"],
    env: WATCHER_ENV,
    detached: true,
  });
  watcher.on("error", () => {}); // no sh: the polite shutdown path still stops the child
  watcher.stdin?.on("error", () => {}); // the watcher gone first (killed below): nothing to tell it
  watcher.unref();
  watching.add(watcher);
  child.once("exit", () => {
    watching.delete(watcher);
    try {
      watcher.kill("SIGKILL");
    } catch {
      // already gone
    }
  });
}
