// How a debugged child process ended: its exit code or killing signal, read by a tracer, since only its parent may wait for it.
import type { ChildProcess } from "node:child_process";
import { readlinkSync } from "node:fs";
import { withinMs } from "../platform/within-ms.ts";
import { spawnGroup } from "../process/group.ts";
import type { ChildExit } from "./exit-words.ts";
import watcherSource from "./exit-watch.py" with { type: "text" };

/**
 * How long a child's end waits for its watcher's word. The tracer reads the status at the exit
 * event, before the process's sockets close, so it is normally there first; this bounds a stuck one.
 */
const EXIT_STATUS_WAIT_MS = 2_000;
/** How long a child's attach waits for its tracer to hold it (a Python start); past it the child runs unwatched rather than late. */
const EXIT_WATCH_START_MS = 3_000;

/**
 * debugpy sends no `exited` event for a child it attached to, and the sidecar is not the child's
 * parent, so no wait() can tell its status. A small tracer (exit-watch.py, run by the child's own
 * interpreter, which has ctypes) asks the kernel for the child's exit event and prints the status.
 * Where tracing is refused (Yama's ptrace_scope, a seccomp profile) the answer says the code is unknown.
 */
export class ExitWatch {
  private readonly done: Promise<ChildExit>;
  private readonly tracer: ChildProcess | undefined;
  private readonly holding: Promise<void>;

  constructor(pid: number) {
    let python: string;
    try {
      python = readlinkSync(`/proc/${pid}/exe`);
    } catch {
      this.done = Promise.resolve({ unknown: "it was gone before its exit could be watched" });
      this.holding = Promise.resolve();
      return;
    }
    const tracer = spawnGroup(python, ["-c", watcherSource, String(pid)], { stdio: ["ignore", "pipe", "ignore"] });
    this.tracer = tracer;
    let held = () => {};
    this.holding = new Promise<void>((resolve) => (held = resolve));
    this.done = new Promise<ChildExit>((resolve) => {
      let buffered = "";
      tracer.stdout!.setEncoding("utf8");
      tracer.stdout!.on("data", (chunk: string) => {
        buffered += chunk;
        for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 1);
          held(); // "watching", or already the last word
          const said = parseLine(line);
          if (said) resolve(said);
        }
      });
      tracer.once("error", (error) => resolve({ unknown: `its exit watcher did not start (${error.message})` }));
      tracer.once("exit", () => resolve({ unknown: "its exit watcher ended without telling" }));
    });
    void this.done.then(held);
  }

  /**
   * Resolves once the tracer holds the process (or has given up): the child must not run before,
   * or a short one ends unseen. Bounded by EXIT_WATCH_START_MS.
   */
  async started(): Promise<void> {
    await withinMs(this.holding, EXIT_WATCH_START_MS);
  }

  /** How it ended, or why that is unknown; bounded by `waitMs`. */
  async ended(waitMs = EXIT_STATUS_WAIT_MS): Promise<ChildExit> {
    const exit = await withinMs(this.done, waitMs);
    return exit === "timeout" ? { unknown: `its exit was not seen within ${waitMs} ms` } : exit;
  }

  /** Ends the tracer once it has told (or the bound passed); the kernel lets the process go with it. */
  stop(): void {
    void this.ended().then(() => this.tracer?.kill("SIGKILL"));
  }
}

/** One line of the watcher's: the final word, or undefined for "watching" (and anything unreadable). */
function parseLine(line: string): ChildExit | undefined {
  try {
    const said = JSON.parse(line) as { watching?: number; code?: number; signal?: number; unknown?: string };
    if (typeof said.code === "number") return { code: said.code };
    if (typeof said.signal === "number") return { signal: said.signal };
    if (typeof said.unknown === "string") return { unknown: said.unknown };
  } catch {
    // not the watcher's JSON: ignored
  }
  return undefined;
}
