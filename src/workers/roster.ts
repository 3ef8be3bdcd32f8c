// The run's workers: spawn, re-run, kill, wait and list, with a queue per grade (fast, good) and the run's spawn cap.
import { WORKER_GRADES, type VibeSettings, type WorkerGrade } from "../config/resources/vibe.ts";
import { capList } from "../tool/budget.ts";
import { ToolFailure } from "../answer/failure.ts";
import type { ProgramTrust } from "../platform/executables.ts";
import { WorkerProcess } from "./worker-process.ts";
import { isFinal, type FinalState, type StartedBy, type WorkerRecord } from "./worker-record.ts";
import { WorkerStore, type GenerationFiles } from "./worker-store.ts";
import { prepareWorktree, removeWorktree } from "./worktree.ts";

/** Put between the brief and each vibe_send message, so a worker can tell them apart. */
const MESSAGE_SEPARATOR = "\n\n---\n\n";
/** How many known ids an "unknown worker" answer names. */
const KNOWN_IDS_SHOWN = 30;

interface LiveWorker {
  record: WorkerRecord;
  /** The current generation's process, while it runs. */
  process?: WorkerProcess;
  /** Order in the grade's queue: first queued, first started. */
  queuedAt: number;
  /** Called on every change (state, progress line), for vibe_wait. */
  listeners: Set<() => void>;
  /** vibe_send and vibe_kill of one worker run one after the other. */
  steering: Promise<unknown>;
}

interface SpawnRequest {
  brief: string;
  label: string;
  grade: WorkerGrade;
  startedBy: StartedBy;
}

export class WorkerRoster {
  private readonly workers = new Map<string, LiveWorker>();
  private readonly store: WorkerStore;
  private mode: "on" | "off";
  private closing: Promise<void> | undefined;
  private nextNumber = 1;
  private queueClock = 0;
  private adopted = false;

  constructor(
    private readonly settings: VibeSettings,
    private readonly workdir: string,
    stateDir: string | undefined,
    /** Which programs a worker (and git) may be: untrusted, none the checkout put on PATH. */
    private readonly trust: ProgramTrust,
  ) {
    this.store = new WorkerStore(stateDir, workdir);
    this.mode = settings.mode;
  }

  get isOn(): boolean {
    return this.mode === "on";
  }

  /** Switches vibe mode; answers whether it changed. Workers keep running either way. */
  setMode(mode: "on" | "off"): boolean {
    const changed = this.mode !== mode;
    this.mode = mode;
    return changed;
  }

  /** The grades the harness configured. */
  get grades(): WorkerGrade[] {
    return WORKER_GRADES.filter((grade) => this.settings[grade] !== undefined);
  }

  /** Where worker state is kept (briefs, results, logs, worktrees). */
  get stateRoot(): string {
    return this.store.root;
  }

  /** Where a generation's brief, result and logs are (or will be). */
  files(id: string, generation: number): GenerationFiles {
    return this.store.filesOf(id, generation);
  }

  /** Workers spawned in this run (those a previous sidecar left in the state directory included). */
  get spawned(): number {
    this.adoptPrevious();
    return this.workers.size;
  }

  get spawnCap(): number {
    return this.settings.maxSpawns;
  }

  list(): WorkerRecord[] {
    this.adoptPrevious();
    return [...this.workers.values()].map((w) => structuredClone(w.record));
  }

  get(id: string): WorkerRecord {
    return structuredClone(this.find(id).record);
  }

  spawn(request: SpawnRequest): WorkerRecord {
    this.adoptPrevious();
    this.refuseWhileClosing();
    if (!this.settings[request.grade]) {
      throw new ToolFailure(
        `This run has no "${request.grade}" worker tier; the harness configured ${this.grades.map((g) => `"${g}"`).join(" and ")}. Call vibe_spawn again with tier "${this.grades[0]}".`,
        { code: "invalid_arguments" },
      );
    }
    if (this.workers.size >= this.settings.maxSpawns) {
      throw new ToolFailure(
        `The run's spawn cap is reached: ${this.workers.size} of ${this.settings.maxSpawns} workers spawned. Do not retry vibe_spawn; steer an existing worker with vibe_send or do the work yourself.`,
        { code: "spawn_limit", spawned: this.workers.size, spawn_cap: this.settings.maxSpawns },
      );
    }
    const record: WorkerRecord = {
      id: `w${this.nextNumber++}`,
      label: request.label,
      grade: request.grade,
      brief: request.brief,
      state: "queued",
      generation: 1,
      createdAt: new Date().toISOString(),
      history: [],
      startedBy: request.startedBy,
    };
    const worker: LiveWorker = { record, queuedAt: this.queueClock++, listeners: new Set(), steering: Promise.resolve() };
    this.workers.set(record.id, worker);
    this.store.save(record);
    this.startQueued(record.grade);
    return structuredClone(record);
  }

  /**
   * Appends `message` to the brief and re-runs the worker as its next generation. A running worker
   * is stopped first and keeps its slot; a finished one queues like a new worker; a queued one
   * simply starts later with the longer brief. The re-run has the limits of `startedBy`, the
   * sender's surface, not the spawner's: a plan surface steering a default surface's worker gets a
   * read-only run.
   */
  send(id: string, message: string, startedBy: StartedBy): Promise<WorkerRecord> {
    this.refuseWhileClosing();
    const worker = this.find(id);
    if (!this.settings[worker.record.grade]) {
      throw new ToolFailure(
        `${id} is a "${worker.record.grade}" worker from an earlier sidecar, and this run has no such tier any more; spawn a new worker with vibe_spawn instead.`,
      );
    }
    return this.steer(worker, async () => {
      const { record } = worker;
      const running = worker.process;
      if (running) {
        worker.process = undefined; // its end is recorded in history, and frees no slot
        await running.stop("killed", "stopped by vibe_send to re-run with a new message");
      }
      record.brief = `${record.brief}${MESSAGE_SEPARATOR}${message}`;
      record.startedBy = startedBy;
      // A queued worker never ran this generation: it starts later with the longer brief, still as
      // its first run (before, its first run was "generation 2", with no record of a first).
      if (record.state !== "queued") record.generation += 1;
      if (this.closing) {
        this.finish(worker, "killed", "the sidecar shut down before the re-run started");
        this.refuseWhileClosing();
      }
      if (running) {
        this.launch(worker);
      } else if (record.state !== "queued") {
        this.requeue(worker);
      }
      this.changed(worker);
      return structuredClone(record);
    });
  }

  /** Stops the worker's whole process group; a queued worker is dropped from the queue. */
  kill(id: string): Promise<{ record: WorkerRecord; alreadyFinal?: FinalState }> {
    const worker = this.find(id);
    return this.steer(worker, async () => {
      const { state } = worker.record;
      if (isFinal(state)) return { record: structuredClone(worker.record), alreadyFinal: state };
      if (worker.process) await worker.process.stop("killed", "stopped by vibe_kill");
      else this.finish(worker, "killed", "killed by vibe_kill while queued; it never started");
      return { record: structuredClone(worker.record) };
    });
  }

  /** Resolves true once the worker is final, false when `timeoutMs` passes first; rejects on abort. */
  waitUntilFinal(id: string, timeoutMs: number, signal: AbortSignal, onChange: () => void = () => {}): Promise<boolean> {
    const worker = this.find(id);
    if (isFinal(worker.record.state)) return Promise.resolve(true);
    return new Promise<boolean>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        worker.listeners.delete(listener);
        signal.removeEventListener("abort", aborted);
      };
      const listener = () => {
        if (!isFinal(worker.record.state)) return onChange();
        cleanup();
        resolve(true);
      };
      const aborted = () => {
        cleanup();
        reject(signal.reason ?? new Error("The wait was cancelled."));
      };
      const timer = setTimeout(() => {
        cleanup();
        resolve(false);
      }, timeoutMs);
      worker.listeners.add(listener);
      signal.addEventListener("abort", aborted, { once: true });
      if (signal.aborted) aborted();
    });
  }

  /** Stops every worker (no orphans), records why, and removes a temporary state directory. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const all = [...this.workers.values()];
      for (const worker of all) if (worker.record.state === "queued") this.finish(worker, "killed", "the sidecar shut down before it started");
      await Promise.all(all.map((w) => w.process?.stop("killed", "the sidecar shut down")));
      await Promise.allSettled(all.map((w) => w.steering));
      if (this.store.temporary) {
        for (const worker of all) await removeWorktree(this.trust, this.store.worktreeDir(worker.record.id));
        this.store.removeIfTemporary();
      }
    })();
    return this.closing;
  }

  private find(id: string): LiveWorker {
    this.adoptPrevious();
    const worker = this.workers.get(id.trim());
    if (worker) return worker;
    const known = capList([...this.workers.values()].map((w) => `${w.record.id} (${w.record.label}, ${w.record.state})`), KNOWN_IDS_SHOWN);
    const listing = known.total
      ? `Known workers: ${known.items.join(", ")}${known.note ? ` (${known.note})` : ""}.`
      : "No worker has been spawned in this run yet; start one with vibe_spawn.";
    throw new ToolFailure(`There is no worker ${JSON.stringify(id)} in this run. ${listing}`, {
      code: "unknown_worker",
      known_workers: [...this.workers.keys()],
    });
  }

  private refuseWhileClosing(): void {
    if (this.closing) throw new ToolFailure("The sidecar is shutting down; workers can no longer be spawned or re-run.", { code: "cancelled" });
  }

  private steer<T>(worker: LiveWorker, step: () => Promise<T>): Promise<T> {
    const next = worker.steering.then(step);
    worker.steering = next.catch(() => {});
    return next;
  }

  private runningCount(grade: WorkerGrade): number {
    let count = 0;
    for (const w of this.workers.values()) if (w.record.grade === grade && w.record.state === "running") count++;
    return count;
  }

  /** Starts queued workers of `grade`, oldest first, while the grade has free slots. */
  private startQueued(grade: WorkerGrade): void {
    const cap = this.settings[grade]?.concurrency ?? 0;
    while (!this.closing && this.runningCount(grade) < cap) {
      const next = [...this.workers.values()]
        .filter((w) => w.record.grade === grade && w.record.state === "queued")
        .sort((a, b) => a.queuedAt - b.queuedAt)[0];
      if (!next) return;
      this.launch(next);
    }
  }

  private requeue(worker: LiveWorker): void {
    const { record } = worker;
    record.state = "queued";
    worker.queuedAt = this.queueClock++;
    delete record.startedAt;
    delete record.endedAt;
    delete record.lastProgress;
    this.store.save(record);
    this.startQueued(record.grade);
  }

  private launch(worker: LiveWorker): void {
    const { record } = worker;
    const grade = this.settings[record.grade]!;
    const worktree = this.store.worktreeDir(record.id);
    record.state = "running";
    record.startedAt = new Date().toISOString();
    record.cwd = grade.isolation === "worktree" ? worktree : this.workdir;
    delete record.endedAt;
    delete record.lastProgress;
    const run = new WorkerProcess({
      workerId: record.id,
      generation: record.generation,
      grade: record.grade,
      startedBy: record.startedBy,
      argv: grade.command,
      trust: this.trust,
      env: grade.env ?? {},
      cwd: grade.isolation === "worktree" ? () => prepareWorktree(this.trust, worktree) : async () => this.workdir,
      brief: record.brief,
      files: this.store.filesOf(record.id, record.generation),
      timeLimitMs: grade.timeLimitSeconds * 1000,
    });
    worker.process = run;
    run.onLine((line) => {
      record.lastProgress = line;
      this.changed(worker);
    });
    const { generation, startedAt } = record;
    void run.finished.then((outcome) => {
      record.history.push({ generation, startedAt, ...outcome });
      if (worker.process !== run) return this.store.save(record); // superseded by vibe_send
      worker.process = undefined;
      record.state = outcome.state;
      record.endedAt = outcome.endedAt;
      this.store.save(record);
      this.changed(worker);
      this.startQueued(record.grade);
    });
    this.store.save(record);
    this.changed(worker);
  }

  /** Ends a generation that never ran (killed while queued, or at shutdown). */
  private finish(worker: LiveWorker, state: FinalState, note: string): void {
    const { record } = worker;
    const endedAt = new Date().toISOString();
    record.history.push({
      generation: record.generation,
      ...(record.startedAt ? { startedAt: record.startedAt } : {}),
      state,
      endedAt,
      exitCode: null,
      signal: null,
      result: "",
      resultSource: "none",
      stderrTail: "",
      note,
    });
    record.state = state;
    record.endedAt = endedAt;
    this.store.save(record);
    this.changed(worker);
  }

  private changed(worker: LiveWorker): void {
    for (const listener of [...worker.listeners]) listener();
  }

  /**
   * Workers a previous sidecar of this run left in the state directory stay listed, never "not
   * found". Done on first use, not at construction, so `sidecar tools` reading the same config
   * never rewrites a live sidecar's state files.
   */
  private adoptPrevious(): void {
    if (this.adopted) return;
    this.adopted = true;
    const previous = this.store.loadAll().sort((a, b) => workerNumber(a.id) - workerNumber(b.id));
    for (const record of previous) {
      const worker: LiveWorker = { record, queuedAt: this.queueClock++, listeners: new Set(), steering: Promise.resolve() };
      this.workers.set(record.id, worker);
      if (!isFinal(record.state)) this.finish(worker, "killed", "the sidecar stopped before this worker finished");
      this.nextNumber = Math.max(this.nextNumber, workerNumber(record.id) + 1);
    }
  }
}

function workerNumber(id: string): number {
  return Number(/^w(\d+)$/.exec(id)?.[1] ?? 0);
}

/** Builds the roster for a run and registers its shutdown, so no worker outlives the sidecar. */
