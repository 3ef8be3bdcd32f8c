// Attaching to a child process the adapter announced (debugpy's debugpyAttach event or startDebugging request).
import { connectToDebugServer } from "./adapter-process.ts";
import { ExitWatch } from "./exit-watch.ts";
import { DebugSession } from "./session.ts";

/**
 * A second DAP session on the adapter's client port, for one child: debugpy hands over the
 * configuration (`subProcessId`, `connect`); the child waits until a client attaches and sends
 * configurationDone. It joins the main session's family: the same output, ids and breakpoints;
 * its exit status is read by an ExitWatch (debugpy tells none for a child).
 * A child that cannot be attached to is killed, not left waiting for a client for ever, and the
 * next report says so.
 */
export async function attachChildProcess(main: DebugSession, configuration: Record<string, unknown>): Promise<void> {
  const family = main.family;
  const pid = typeof configuration.subProcessId === "number" ? configuration.subProcessId : undefined;
  const connect = configuration.connect as { host?: string; port?: number } | undefined;
  if (family.closing || !main.live) return killChild(pid);
  if (!connect?.port) {
    family.note(`child process ${pid ?? "?"} was announced without a port to attach to, and was stopped`);
    return killChild(pid);
  }
  // Started beside the connection: it must hold the child before the attach lets it run.
  const exitWatch = pid !== undefined ? new ExitWatch(pid) : undefined;
  let running;
  try {
    running = await connectToDebugServer(connect.port, connect.host ?? "127.0.0.1");
  } catch (error) {
    family.note(`child process ${pid ?? "?"} could not be attached to (${error instanceof Error ? error.message : String(error)}), and was stopped`);
    exitWatch?.stop();
    return killChild(pid);
  }
  const child = new DebugSession({
    adapter: main.adapter,
    running,
    label: `child process ${pid ?? "?"} of ${main.label}`,
    root: main.root,
    workdir: main.workdir,
    stopWaitMs: main.stopWaitMs,
    output: main.output,
    child: { family, references: main.references, pid, ...(exitWatch ? { exitWatch } : {}) },
  });
  family.add(child);
  try {
    // The child runs no line of the program before configurationDone: watched from before that, no exit is missed.
    await exitWatch?.started();
    await child.startChild(configuration, main.book!);
  } catch (error) {
    if (!child.live) return; // it exited (or the session closed) while being attached to
    family.note(`child process ${pid ?? "?"} could not be debugged (${error instanceof Error ? error.message : String(error)}), and was stopped`);
    await child.close("attaching to it failed");
  }
}

function killChild(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}
