// Children must not outlive a sidecar that was SIGKILLed (no chance to clean up): beside each
// child group runs a tiny watcher that polls the sidecar's pid and kills the group once it is gone.
import { spawn, type ChildProcess } from "node:child_process";
import { HOST } from "./os.ts";
import { killTaggedShell } from "./tree-tag.ts";

/** How often the watcher checks that the sidecar is alive; children exit within about this long. */
export const PARENT_POLL_SECONDS = 0.5;

// A SIGKILLed sidecar whose own parent has not reaped it yet is a zombie that `kill -0` still
// reaches, hence the State check (where /proc exists). dash's kill takes no `--`.
// Then the group, then what escaped it (daemons that called setsid) by the tree's tag.
const watchScript = (tag: string | undefined) =>
  [
    `while kill -0 "$1" 2>/dev/null && ! grep -q "^State:.Z" "/proc/$1/status" 2>/dev/null; do sleep ${PARENT_POLL_SECONDS}; done`,
    `kill -KILL "-$2" 2>/dev/null`,
    ...(tag ? [killTaggedShell(tag)] : []),
  ].join("; ");

/**
 * Starts the watcher for `child`'s process group and stops it when the child exits. POSIX only:
 * Windows ends a console process tree with its parent's job instead.
 */
export function watchForOrphaning(child: ChildProcess, tag?: string, parentPid = process.pid): void {
  if (HOST.family !== "posix" || child.pid === undefined) return;
  const watcher = spawn("sh", ["-c", watchScript(tag), "sidecar-orphan-watch", String(parentPid), String(child.pid)], {
    stdio: "ignore",
    detached: true,
  });
  watcher.on("error", () => {}); // no sh: the polite shutdown path still stops the child
  watcher.unref();
  child.once("exit", () => {
    try {
      watcher.kill("SIGKILL");
    } catch {
      // already gone
    }
  });
}
