// The kernel factory of one run: one Python and one JavaScript kernel, started on first use.
import { ToolFailure } from "../answer/failure.ts";
import type { KernelSettings } from "../config/resources/kernels.ts";
import type { ProgramTrust } from "../platform/executables.ts";
import { DEFAULT_INACTIVITY_SECONDS } from "../config/resources/kernels.ts";
import type { ToolCaller } from "./bridge-client.ts";
import { CellQueue } from "./cell-queue.ts";
import { KernelProcess, KernelStartError, type CellOutcome } from "./kernel-process.ts";
import { launchPlan, type KernelLanguage } from "./launch.ts";
import type { NotebookRecord } from "./notebook-record.ts";

export interface CellRequest {
  language: KernelLanguage;
  code: string;
  reset: boolean;
  signal: AbortSignal;
  /** Told once when the cell has to wait for earlier cells of the same kernel. */
  onWait?: (message: string) => void;
  /** Told when the cell got its turn and its kernel is starting, and when the cell starts to run. */
  onPhase?: (phase: "starting" | "running") => void;
}

export interface CellReport {
  outcome: CellOutcome;
  language: KernelLanguage;
  /** "/usr/bin/python3 (Python 3.11.2)" or "sidecar (Bun 1.2.3)". */
  interpreter: string;
  where: string;
  /** Things the caller must know beyond the cell: a reset, a kernel lost since the last call. */
  notes: string[];
}

/** A kernel as the operator page shows it. */
interface KernelGlance {
  language: KernelLanguage;
  state: "running a cell" | "idle" | "starting" | "stopped";
  pid?: number;
  /** Cells run in this kernel so far. */
  executionCount: number;
  /** "/usr/bin/python3 (Python 3.11.2)"; "" until it started. */
  interpreter: string;
  /** Cells queued behind the running one. */
  waiting: number;
}

interface Slot {
  kernel?: Promise<KernelProcess>;
  /** One cell at a time; the rest wait here in arrival order. */
  queue: CellQueue;
  /** Why the previous kernel is gone, told once on the next call. */
  lost?: string;
}

export class KernelFactory {
  private readonly slots = new Map<KernelLanguage, Slot>();
  private readonly stopping = new WeakSet<KernelProcess>();
  /** Each slot promise's kernel once it started, so the page reads it without awaiting. */
  private readonly started = new WeakMap<Promise<KernelProcess>, KernelProcess>();
  private closed = false;

  constructor(
    private readonly settings: KernelSettings,
    private readonly workdir: string,
    /** Which programs may start a kernel: untrusted, none the checkout put on PATH. */
    private readonly trust: ProgramTrust,
    private readonly selfCommand: readonly string[],
    private readonly callTool: ToolCaller,
    /** Where each cell is written down as a notebook, when the run has a stateDir. */
    private readonly record?: NotebookRecord,
  ) {}

  get inactivityMs(): number {
    return (this.settings.inactivitySeconds ?? DEFAULT_INACTIVITY_SECONDS) * 1000;
  }

  async execute(request: CellRequest): Promise<CellReport> {
    if (this.closed) throw new ToolFailure("The run is shutting down; no new cells are started.", { code: "cancelled" });
    const { language } = request;
    const slot = this.slot(language);
    let release: () => void;
    // A full queue or a cancelled wait is refused with its code (CellQueueRefusal).
    release = await slot.queue.turn(request.signal, (ahead) => {
      const seconds = Math.round((Date.now() - (slot.queue.runningSince ?? Date.now())) / 1000);
      request.onWait?.(`Waiting for the ${language} kernel: another cell has been running for ${seconds} s and ${ahead - 1} more wait before this one; cells run one at a time, in order.`);
    });
    try {
      if (this.closed) throw new ToolFailure("The run is shutting down; no new cells are started.", { code: "cancelled" });
      const notes: string[] = [];
      if (request.reset && slot.kernel) {
        await this.discard(slot);
        notes.push(`Reset: the previous ${language} kernel and everything it held were discarded; this cell ran in a fresh one.`);
        this.record?.note(language, "reset: the cells below ran in a fresh kernel.");
      }
      if (slot.lost) {
        notes.push(slot.lost);
        this.record?.note(language, slot.lost);
        slot.lost = undefined;
      }
      request.onPhase?.("starting");
      const kernel = await this.kernel(language, slot);
      request.onPhase?.("running");
      const outcome = await kernel.run(request.code, {
        inactivityMs: this.inactivityMs,
        signal: request.signal,
        callTool: (name, args, signal) => this.callTool(name, args, signal, language),
      });
      if (outcome.ending.kind === "cancelled" && outcome.ending.stopped === "killed") {
        // The answer that says so is thrown away with the cancelled call: the next call must say it.
        slot.lost = `The previous ${language} kernel was killed when a cancelled call's cell would not stop, so its state (variables, imports, loaded data) was lost; this cell ran in a fresh kernel.`;
      }
      this.record?.cell(language, request.code, outcome, outcome.ending.kind === "finished" ? outcome.ending.status : outcome.ending.kind);
      return { outcome, language, interpreter: kernel.interpreter, where: kernel.plan.where, notes };
    } finally {
      release();
    }
  }

  /** Each language's kernel as it is now, without waiting for one that is starting (the operator page reads this). */
  kernels(): KernelGlance[] {
    return [...this.slots].map(([language, slot]) => {
      const kernel = slot.kernel && this.started.get(slot.kernel);
      const state = !slot.kernel ? "stopped" : !kernel ? "starting" : !kernel.alive ? "stopped" : slot.queue.runningSince !== undefined ? "running a cell" : "idle";
      return {
        language,
        state,
        ...(kernel?.alive && kernel.pid !== undefined ? { pid: kernel.pid } : {}),
        executionCount: kernel?.executionCount ?? 0,
        interpreter: kernel?.interpreter ?? "",
        waiting: slot.queue.waiting,
      };
    });
  }

  /** Stops every kernel and its process group; later calls are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.slots.values()].map((slot) => this.discard(slot)));
  }

  private slot(language: KernelLanguage): Slot {
    let slot = this.slots.get(language);
    if (!slot) this.slots.set(language, (slot = { queue: new CellQueue() }));
    return slot;
  }

  private async kernel(language: KernelLanguage, slot: Slot): Promise<KernelProcess> {
    const existing = slot.kernel && (await slot.kernel.catch(() => undefined));
    if (existing?.alive) return existing;
    const plan = launchPlan(language, this.settings, this.trust, this.selfCommand);
    if (typeof plan === "string") throw new ToolFailure(`Could not start the ${language} kernel: ${plan}.`, { code: "server_unavailable" });
    const kernel = new KernelProcess(plan, this.workdir);
    const ready = kernel.started().then(() => kernel);
    slot.kernel = ready;
    ready.then((started) => this.started.set(ready, started), () => {});
    kernel.onExit((exit) => {
      if (slot.kernel === ready) slot.kernel = undefined;
      // A death during a cell is told by that cell's answer; one between calls is told by the next.
      if (!this.stopping.has(kernel) && slot.queue.runningSince === undefined && kernel.interpreter) {
        slot.lost = `The previous ${language} kernel ${exit} between calls, so its state (variables, imports, loaded data) was lost; this cell ran in a fresh kernel.`;
      }
    });
    try {
      return await ready;
    } catch (error) {
      slot.kernel = undefined;
      if (error instanceof KernelStartError) throw new ToolFailure(error.message, { code: "server_unavailable" });
      throw error;
    }
  }

  private async discard(slot: Slot): Promise<void> {
    const kernel = slot.kernel && (await slot.kernel.catch(() => undefined));
    slot.kernel = undefined;
    if (!kernel) return;
    this.stopping.add(kernel);
    await kernel.stop();
  }
}
