// The processes of a launched program, so that ending the session ends them too.
import { descendants, stillRunning, type ProcessMark } from "./descendants.ts";

export class DebuggeeProcesses {
  /** The pid the adapter named in its `process` event. */
  namedPid: number | undefined;
  /** The adapter's descendants after launch, when no `process` event named the debuggee. */
  private below: ProcessMark[] = [];

  named(pid: number | undefined): void {
    this.namedPid = pid ?? this.namedPid;
  }

  /**
   * delve names no debuggee pid, and the debuggee sits in a process group of its own: if dlv dies,
   * killing dlv's group would leave the program running. Its pid is read from /proc instead.
   */
  noteBelow(adapterPid: number): void {
    if (this.namedPid === undefined) this.below = descendants(adapterPid);
  }

  get pid(): number | undefined {
    return this.namedPid ?? this.below[0]?.pid;
  }

  kill(): void {
    if (this.namedPid !== undefined) return killQuietly(this.namedPid);
    for (const mark of this.below) if (stillRunning(mark)) killQuietly(mark.pid);
  }
}

/** Kills the debuggee and its group; adapters like lldb start it in a group of its own. */
function killQuietly(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
