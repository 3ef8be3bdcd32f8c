// One live kernel process: start-up handshake, running a cell, bridged calls, interrupt and kill.
import type { ChildProcess } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { trustedEnv } from "../platform/executables.ts";
import { hasExited, lowerGroupPriority, signalGroup, spawnGroup, stopGroup } from "../process/group.ts";
import { CellOutput } from "./cell-output.ts";
import { InactivityBudget } from "./inactivity.ts";
import type { LaunchPlan } from "./launch.ts";
import {
  encodeMessage,
  LineSplitter,
  MAX_PROTOCOL_LINE_CHARS,
  parseKernelMessage,
  type KernelMessage,
  type SidecarMessage,
  type ToolResultMessage,
} from "./protocol.ts";

/** A kernel gets this long to say it is ready (a loaded CI machine, an enclosure's exec). */
const KERNEL_START_TIMEOUT_MS = 60_000;
/** After SIGINT, how long a cell gets to stop by itself before its process group is killed. */
const INTERRUPT_GRACE_MS = 3_000;
/** How long to wait for raw fd output written before a cell ended to arrive. */
const RAW_SYNC_TIMEOUT_MS = 5_000;
/** How much of the kernel's raw stderr is kept for explaining a failed start or a death. */
const RAW_TAIL_CHARS = 4_000;
/** Output background work writes between cells, kept (its tail) for the next cell's answer. */
const BETWEEN_CELLS_CHARS = 8_000;
const SYNC_MARK = /\x00sidecar-sync-(\d+)\x00/g;

/** How a cell ended, from the sidecar's side. */
export type CellEnding =
  | { kind: "finished"; status: "ok" | "error" | "interrupted" }
  | { kind: "timed_out"; stopped: "interrupted" | "killed"; idleSeconds: number }
  | { kind: "cancelled"; stopped: "interrupted" | "killed" }
  | { kind: "died"; exit: string };

export interface CellOutcome {
  count: number;
  elapsedMs: number;
  output: CellOutput;
  ending: CellEnding;
}

export type ToolAnswer = { ok: true; result: unknown } | { ok: false; denied: boolean; message: string };

interface CellOptions {
  inactivityMs: number;
  signal: AbortSignal;
  callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolAnswer>;
}

export class KernelStartError extends Error {}

interface RunningCell {
  output: CellOutput;
  budget: InactivityBudget;
  inactivityMs: number;
  /** Aborted when the cell ends, so a bridged call still pending is dropped. */
  ended: AbortController;
  callTool: CellOptions["callTool"];
  /** Set once the cell was told to stop, and why. */
  stopping?: "timed_out" | "cancelled";
  /** The kernel said done, but raw output it wrote before that (marked `flush`) is still in transit. */
  awaiting?: { mark: number; ending: CellEnding; timer: ReturnType<typeof setTimeout> };
  finish(ending: CellEnding): void;
}

export class KernelProcess {
  /** "/usr/bin/python3 (Python 3.11.2)", known once the kernel is ready. */
  interpreter = "";
  private readonly child: ChildProcess;
  private cell: RunningCell | undefined;
  private count = 0;
  private rawTail = "";
  private betweenCells = "";
  /** Characters of between-cells output dropped to keep only its tail; the next answer says so. */
  private betweenCellsCut = 0;
  private rawPending = "";
  /**
   * The highest sync mark seen on the raw streams: every cell up to that count has all its raw
   * output in. A number, not a set of marks: marks are cell counts, and a set grew by one per cell.
   */
  private syncedThrough = 0;
  private readonly exitListeners = new Set<(exit: string) => void>();
  private exitText: string | undefined;
  private readonly ready: Promise<void>;

  constructor(
    readonly plan: LaunchPlan,
    cwd: string,
  ) {
    const [command, ...args] = plan.argv;
    this.child = spawnGroup(command!, args, {
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...trustedEnv(process.env, plan.trust), MPLBACKEND: "Agg", PYTHONIOENCODING: "utf-8", SIDECAR_KERNEL: plan.language },
      // The eval call waits for the start-up; the cells, which may compute for minutes, run below the sidecar.
      lowerPriority: "when started",
    });
    this.child.stdin!.on("error", () => {}); // a dead kernel is reported by its exit, not by EPIPE
    const lines = new LineSplitter((chars) =>
      this.raw(`[sidecar: a kernel message of ${chars} characters was dropped; messages are limited to ${MAX_PROTOCOL_LINE_CHARS} characters.]\n`),
    );
    let resolveReady!: () => void;
    let rejectReady!: (error: Error) => void;
    this.ready = new Promise((resolve, reject) => {
      resolveReady = resolve;
      rejectReady = reject;
    });
    this.child.stdout!.on("data", (chunk: Buffer) => {
      for (const line of lines.push(chunk)) {
        const message = parseKernelMessage(line);
        if (message?.type === "ready") {
          lowerGroupPriority(this.child, message.pid); // before the first cell is sent
          this.interpreter = `${message.interpreter} (${message.version})`;
          resolveReady();
        } else if (message) this.receive(message);
        else this.raw(`${line}\n`);
      }
    });
    const stderrText = new StringDecoder("utf8"); // a character split across two reads stays whole
    this.child.stderr!.on("data", (chunk: Buffer) => this.raw(stderrText.write(chunk)));
    this.child.on("error", (error) => this.exited(`could not be started: ${error.message}`));
    this.child.on("exit", (code, signal) => this.exited(signal ? `was killed by ${signal}` : `exited with status ${code}`));
    this.onExit((exit) => rejectReady(new KernelStartError(this.startFailure(exit))));
    const timer = setTimeout(() => rejectReady(new KernelStartError(`${this.describe()} did not become ready within ${KERNEL_START_TIMEOUT_MS / 1000} s.`)), KERNEL_START_TIMEOUT_MS);
    this.ready.then(
      () => clearTimeout(timer),
      () => {
        clearTimeout(timer);
        void stopGroup(this.child);
      },
    );
  }

  /** Resolves once the kernel said it is ready; rejects with a sentence when it could not start. */
  started(): Promise<void> {
    return this.ready;
  }

  get alive(): boolean {
    return this.exitText === undefined && !hasExited(this.child);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Cells run so far: the next cell's In[n] is one more. */
  get executionCount(): number {
    return this.count;
  }

  /** Called once when the process ends, with "exited with status 1" or "was killed by SIGKILL". */
  onExit(listener: (exit: string) => void): void {
    if (this.exitText !== undefined) listener(this.exitText);
    else this.exitListeners.add(listener);
  }

  run(code: string, options: CellOptions): Promise<CellOutcome> {
    if (this.cell) throw new Error("a cell is already running in this kernel");
    if (options.signal.aborted) {
      // Cancelled before it began: nothing is sent, so there is nothing to interrupt.
      return Promise.resolve({ count: this.count, elapsedMs: 0, output: new CellOutput(), ending: { kind: "cancelled", stopped: "interrupted" } });
    }
    const count = ++this.count;
    if (!this.alive) {
      // It died between the factory's check and now: the same answer as a death during the cell.
      const ending: CellEnding = { kind: "died", exit: this.exitText ?? "exited" };
      return Promise.resolve({ count, elapsedMs: 0, output: new CellOutput(), ending });
    }
    const started = performance.now();
    return new Promise<CellOutcome>((resolve) => {
      const onAbort = () => this.stopCell("cancelled");
      const output = new CellOutput();
      const cell: RunningCell = {
        output,
        budget: new InactivityBudget(options.inactivityMs, () => this.stopCell("timed_out")),
        inactivityMs: options.inactivityMs,
        ended: new AbortController(),
        callTool: options.callTool,
        finish: (ending) => {
          if (this.cell !== cell) return;
          this.cell = undefined;
          this.takeBetweenCells(cell.output);
          // A pending wait for the sync mark would hold the cell, its output and its request until it fired.
          clearTimeout(cell.awaiting?.timer);
          cell.budget.stop();
          cell.ended.abort();
          options.signal.removeEventListener("abort", onAbort);
          resolve({ count, elapsedMs: performance.now() - started, output: cell.output, ending });
        },
      };
      this.cell = cell;
      options.signal.addEventListener("abort", onAbort, { once: true });
      this.send({ type: "execute", id: count, count, code });
    });
  }

  /** Stops the whole process group (SIGTERM, grace, SIGKILL). */
  async stop(): Promise<void> {
    await stopGroup(this.child);
  }

  private send(message: SidecarMessage): void {
    if (this.alive) this.child.stdin!.write(encodeMessage(message));
  }

  private receive(message: KernelMessage): void {
    const cell = this.cell;
    if (message.type === "tool_call") {
      if (cell) this.bridge(cell, message);
      else this.send({ type: "tool_result", id: message.id, ok: false, denied: false, message: "tool() can only be called while a cell runs." });
      return;
    }
    if (message.type === "stream" && (message.between || !cell)) {
      this.keepBetweenCells(message.text);
      return;
    }
    if (!cell) return;
    cell.budget.touch();
    switch (message.type) {
      case "stream":
        cell.output.stream(message.name, message.text);
        break;
      case "display":
        cell.output.display(message.data, message.result === true);
        break;
      case "error":
        cell.output.error(message.ename, message.evalue, message.traceback);
        break;
      case "done": {
        const ending = endingFor(cell, message.status);
        const mark = Number(message.flush);
        if (message.flush && mark > this.syncedThrough) {
          const timer = setTimeout(() => cell.finish(ending), RAW_SYNC_TIMEOUT_MS);
          timer.unref?.();
          cell.awaiting = { mark, ending, timer };
        } else cell.finish(ending);
        break;
      }
    }
  }

  /** Forwards a bridged call; the cell's inactivity budget waits while the harness works on it. */
  private bridge(cell: RunningCell, call: Extract<KernelMessage, { type: "tool_call" }>): void {
    cell.budget.suspend();
    cell
      .callTool(call.name, call.args, cell.ended.signal)
      .catch((error: unknown): ToolAnswer => ({ ok: false, denied: false, message: (error as Error).message }))
      .then((answer) => {
        this.send({ type: "tool_result", id: call.id, ...answer } as ToolResultMessage);
        cell.budget.resume();
      });
  }

  /** SIGINT first, so the kernel (and its state) can survive; the group is killed if that fails. */
  private stopCell(reason: "timed_out" | "cancelled"): void {
    const cell = this.cell;
    if (!cell || cell.stopping) return;
    cell.stopping = reason;
    cell.budget.stop();
    signalGroup(this.child, "SIGINT");
    setTimeout(() => {
      if (this.cell === cell) void stopGroup(this.child);
    }, INTERRUPT_GRACE_MS).unref?.();
  }

  /** Output that bypassed the protocol (fd-level writes of the JS kernel, an exec prefix's errors). */
  private raw(text: string): void {
    let data = this.rawPending + text;
    this.rawPending = "";
    for (const match of data.matchAll(SYNC_MARK)) this.syncedThrough = Math.max(this.syncedThrough, Number(match[1]));
    data = data.replace(SYNC_MARK, "");
    const cut = data.lastIndexOf("\x00sidecar-sync");
    if (cut !== -1 && cut > data.length - 32) {
      this.rawPending = data.slice(cut);
      data = data.slice(0, cut);
    }
    this.rawTail = (this.rawTail + data).slice(-RAW_TAIL_CHARS);
    const cell = this.cell;
    if (cell && data) {
      cell.budget.touch();
      cell.output.stream("stderr", data);
    } else if (data && this.interpreter) this.keepBetweenCells(data);
    if (cell?.awaiting && cell.awaiting.mark <= this.syncedThrough) cell.finish(cell.awaiting.ending);
  }

  /**
   * What background work wrote before this cell began heads its answer. It is taken when the cell
   * ends, not when it starts: output written between cells may reach the sidecar after the next
   * cell has begun (the kernel tags it), and it still belongs before the cell's own.
   */
  private takeBetweenCells(output: CellOutput): void {
    if (!this.betweenCells) return;
    const cut = this.betweenCellsCut > 0 ? `, its last ${BETWEEN_CELLS_CHARS} characters; ${this.betweenCellsCut} before them were dropped` : "";
    output.lead("stderr", `(written by background work since the last cell${cut})\n${this.betweenCells}`);
    this.betweenCells = "";
    this.betweenCellsCut = 0;
  }

  private keepBetweenCells(text: string): void {
    const all = this.betweenCells + text;
    this.betweenCellsCut += Math.max(0, all.length - BETWEEN_CELLS_CHARS);
    this.betweenCells = all.slice(-BETWEEN_CELLS_CHARS);
  }

  private exited(exit: string): void {
    if (this.exitText !== undefined) return;
    this.exitText = exit;
    // The leader is gone, but children it started (a `!sleep 300 &`) still share its group.
    signalGroup(this.child, "SIGKILL");
    const cell = this.cell;
    // Whatever the kernel wrote on its way out already reached the cell's output as raw stderr.
    if (cell?.stopping === "timed_out") cell.finish({ kind: "timed_out", stopped: "killed", idleSeconds: cell.inactivityMs / 1000 });
    else if (cell?.stopping === "cancelled") cell.finish({ kind: "cancelled", stopped: "killed" });
    else cell?.finish({ kind: "died", exit });
    for (const listener of this.exitListeners) listener(exit);
    this.exitListeners.clear();
  }

  private describe(): string {
    return `The ${this.plan.language} kernel ${this.plan.where} (${this.plan.argv[0]})`;
  }

  private startFailure(exit: string): string {
    const tail = this.rawTail.trim();
    const said = tail ? ` It said: ${tail.slice(-1200)}` : "";
    if (this.plan.enclosure) {
      return (
        `Could not start the ${this.plan.language} kernel in the enclosure ${this.plan.enclosure}: the exec prefix ${exit}.${said} ` +
        "The enclosure is probably not running; the sidecar does not start enclosures and does not fall back to the host. Start it and call eval again."
      );
    }
    const fix =
      this.plan.language === "python"
        ? "Check the interpreter (resources.kernels.python in the run config, or run `sidecar doctor`)."
        : "The sidecar binary could not run its JavaScript kernel mode; run `sidecar doctor`.";
    return `${this.describe()} ${exit} before it was ready.${said} ${fix}`;
  }
}

function endingFor(cell: RunningCell, status: "ok" | "error" | "interrupted"): CellEnding {
  if (cell.stopping === "timed_out") return { kind: "timed_out", stopped: "interrupted", idleSeconds: cell.inactivityMs / 1000 };
  if (cell.stopping === "cancelled") return { kind: "cancelled", stopped: "interrupted" };
  return { kind: "finished", status };
}
