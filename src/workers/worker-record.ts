// What the run knows about a worker: its brief, state, generation, and every finished generation.
import type { WorkerGrade } from "../config/resources/vibe.ts";
import type { Tier } from "../tool/tier.ts";

export const WORKER_STATES = ["queued", "running", "done", "failed", "killed", "timed_out"] as const;
type WorkerState = (typeof WORKER_STATES)[number];
export type FinalState = Exclude<WorkerState, "queued" | "running">;

export function isFinal(state: WorkerState): state is FinalState {
  return state !== "queued" && state !== "running";
}

/**
 * The surface whose call (vibe_spawn, or a later vibe_send) starts a worker's run, and its tiers: the
 * worker is told both (SIDECAR_WORKER_SURFACE, SIDECAR_WORKER_TIERS), so the harness can run the
 * worker agent with the same limits, and a read-only surface cannot start read-write work.
 */
export interface StartedBy {
  surface: string;
  tiers: readonly Tier[];
}

/** How one generation (one run of the worker's process) ended. */
export interface GenerationOutcome {
  generation: number;
  state: FinalState;
  /** ISO times; startedAt is absent for a generation that never left the queue. */
  startedAt?: string;
  endedAt: string;
  exitCode: number | null;
  signal: string | null;
  /** The worker's result: its result file, else the last bytes of its stdout (bounded, cut marked). */
  result: string;
  resultSource: "result file" | "stdout" | "none";
  /** The last bytes of stderr, kept for failures. */
  stderrTail: string;
  /** Why it ended when the worker did not end by itself ("time limit of 60 s reached", …). */
  note?: string;
}

export interface WorkerRecord {
  id: string;
  label: string;
  /** fast or good: which of the harness's worker commands runs it (vibe_spawn's `tier`). */
  grade: WorkerGrade;
  /** The original brief with every vibe_send message appended. */
  brief: string;
  state: WorkerState;
  generation: number;
  createdAt: string;
  /** Start of the current generation, absent while it is queued. */
  startedAt?: string;
  /** End of the current generation, once it is final. */
  endedAt?: string;
  /** Where it runs: the workdir, or its own git worktree. */
  cwd?: string;
  /** The last non-blank line it printed in the current generation. */
  lastProgress?: string;
  /** Every finished generation, oldest first: a re-run never loses an earlier result. */
  history: GenerationOutcome[];
  /** Who starts its current (or next) run; absent only in a record a sidecar before this field left. */
  startedBy?: StartedBy;
}

/** The newest finished generation's outcome, if any generation has finished. */
export function lastOutcome(record: WorkerRecord): GenerationOutcome | undefined {
  return record.history.at(-1);
}

/** Milliseconds the worker has spent in its current state's generation (queued time while queued). */
export function elapsedMs(record: WorkerRecord, now = Date.now()): number {
  const from = Date.parse(record.startedAt ?? record.createdAt);
  const to = record.endedAt && isFinal(record.state) ? Date.parse(record.endedAt) : now;
  return Math.max(0, to - from);
}
