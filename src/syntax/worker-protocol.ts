// Messages between the parse pool and its workers (structured-clone data only).
import type { FileOutcome, JobStats, SearchJob } from "./file-search.ts";

export type ToWorker =
  | { type: "hello"; runtimeWasm: Uint8Array; cacheChars: number }
  | { type: "grammar"; id: string; bytes: Uint8Array }
  | { type: "job"; id: number; job: SearchJob }
  | { type: "invalidate"; paths: string[] }
  | { type: "cancel"; id: number }
  /** The run is idle: collect garbage fully, between jobs. */
  | { type: "collect" };

export type FromWorker =
  | { type: "ready" }
  | { type: "result"; id: number; outcomes: FileOutcome[]; stats: JobStats }
  | { type: "failed"; id: number; message: string; patternError: boolean };
