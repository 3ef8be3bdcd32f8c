// What a session learns when its program ends: the exit code (or signal), and whether all its output is in.
import type { DebugProtocol } from "@vscode/debugprotocol";
import { withinMs } from "../platform/within-ms.ts";
import type { RunningAdapter } from "./adapter-process.ts";
import type { AdapterEntry } from "./catalog.ts";
import { exitStatusAtDisconnect, stopSignal, type ExitFacts } from "./exit-words.ts";
import { OUTPUT_SETTLE_MS } from "./output-settle.ts";

/** How long disconnect may take before the adapter is simply killed. */
export const DISCONNECT_TIMEOUT_MS = 3_000;

export class ProgramEnd {
  readonly exit: ExitFacts = {};
  /** The signal of the last stop on one (lldb's "signal SIGSEGV"): an exit status equal to it was that signal. */
  private lastStopSignal: number | undefined;

  constructor(
    private readonly adapter: AdapterEntry,
    private readonly running: RunningAdapter,
  ) {}

  /** Every stop: one on a signal lets a later exit status be read as that signal. */
  noteStop(body: DebugProtocol.StoppedEvent["body"]): void {
    this.lastStopSignal = body.reason === "exception" ? stopSignal(body.description ?? body.text) : undefined;
  }

  noteExitCode(code: number): void {
    this.exit.exitCode = code;
    const signal = this.adapter.signalOfExitCode?.(code, this.lastStopSignal);
    if (signal) this.exit.signal = { number: signal.signal, certain: signal.certain };
  }

  /**
   * The program is gone. Where it wrote to the adapter's stdio (delve, debugpy), the adapter is
   * stopped too: once every writer has closed the pipes, all the output is in — a fact, where
   * waiting for quiet was a guess (delve's output came after `terminated` in 1 launch in 5).
   * A background child of the program that keeps the pipes open leaves that unknown.
   * Returns whether the output is known to be complete.
   */
  async finish(): Promise<boolean> {
    await this.learnExitStatus();
    if (this.adapter.programOutput !== "adapter-stdio") return false;
    await this.running.stop();
    return (await withinMs(this.running.outputEnded, OUTPUT_SETTLE_MS)) !== "timeout";
  }

  /**
   * delve 1.20 sends no `exited` event and names the exit status only when the client disconnects;
   * the program is gone, so the session disconnects now to learn it.
   */
  private async learnExitStatus(): Promise<void> {
    const pattern = this.adapter.exitStatusAtDisconnect;
    if (!pattern || this.exit.exitCode !== undefined || this.running.connection.closed) return;
    const code = await exitStatusAtDisconnect(this.running.connection, pattern, DISCONNECT_TIMEOUT_MS);
    if (code !== undefined) this.noteExitCode(code);
  }
}
