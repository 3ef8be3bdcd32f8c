// Messages between the parse pool and its workers (structured-clone data only).
import type { FileOutcome, JobStats, SearchJob } from "./file-search.ts";
import type { PackedFiles } from "./packed-files.ts";
import type { Query } from "./rules/compiled.ts";
import type { RuleConfig } from "./rules/spec.ts";
import type { SearchScope } from "./walk.ts";

/**
 * A search job with its file list packed for the trip. `sharing`, for a search split between
 * workers: every worker's share, this job's index among them, and the flags they are claimed
 * through (ShareClaims), so a worker done with its own share takes files of the others.
 */
type PackedJob = Omit<SearchJob, "files"> & { files: PackedFiles; sharing?: { claims: SharedArrayBuffer; shares: PackedFiles[]; index: number } };

export type ToWorker =
  /** Modules compiled once by the pool: every worker shares their machine code. */
  /**
   * `posted` counts, at `slot`, the messages the pool posted this worker (a restarted one starts at
   * 0): one the worker has not heard yet is waiting, and a parse ahead of need gives way to it.
   */
  | { type: "hello"; runtime: WebAssembly.Module; cacheChars: number; homes: SharedArrayBuffer; workers: number; posted: SharedArrayBuffer; slot: number }
  | { type: "grammar"; id: string; module: WebAssembly.Module }
  /**
   * Compile the pattern, then list a directory scope's files and split them between the workers
   * (the walk, its stats and the split stay off the main thread); the compiled pattern goes with
   * every job of the search.
   */
  | { type: "list"; id: number; scope: SearchScope; root: string; language: string; pattern: string; rule?: RuleConfig }
  /** List a directory's files of every language with a grammar; the pattern is compiled after, per language present. */
  | { type: "list-all"; id: number; scope: SearchScope; root: string }
  /**
   * Compile the pattern for each language (their grammars were sent before), then split the files
   * listed (by list-all, sent back as they came) of each language where it parses.
   */
  | { type: "compile"; id: number; languages: string[]; pattern: string; rule?: RuleConfig; files: PackedFiles }
  | { type: "job"; id: number; job: PackedJob }
  /**
   * The run is ready: list a directory's files of its `languages` commonest languages (those searched
   * only when named left out) and split them between the workers, for each to parse ahead (prime).
   */
  | { type: "warm-list"; id: number; scope: SearchScope; root: string; languages: number }
  /** Parse these files and keep their trees while the cache holds less than `budgetChars`, whenever nothing else is queued. */
  | { type: "prime"; root: string; files: PackedFiles; budgetChars: number }
  | { type: "invalidate"; paths: string[] }
  | { type: "cancel"; id: number }
  /** The run is idle: collect garbage fully, once the trees a search freed are kept again and the warm-up is done. */
  | { type: "collect" }
  /** Answer once all work given before is done, the keeping of freed trees included (which this does not interrupt). */
  | { type: "settle"; id: number };

/**
 * Messages a parse ahead of need does not stop for, and so not counted in `posted`: each waits for
 * what was given before it, that parse included. Stopping drops the parse begun (half a second of a
 * large C++ file), and the run's idle reclaim posts `collect` whenever an agent reads an answer.
 */
export const UNCOUNTED_MESSAGES: ReadonlySet<ToWorker["type"]> = new Set(["collect", "settle"]);

export type FromWorker =
  | { type: "ready" }
  /** One share of the files per worker (by index), how many files there are in all, and how many no worker holds cached. */
  | { type: "listed"; id: number; shares: PackedFiles[]; takeable: number; files: number; oversized: number; pattern: Query }
  /** Every file with a grammar, and how many of each language, for the compile that follows. */
  | { type: "listed-all"; id: number; files: PackedFiles; present: Record<string, number>; oversized: number; unnamed: Array<{ language: string; files: number }> }
  /**
   * Per language, the compiled pattern, its files' shares (one per worker) and how many of its files
   * no worker holds cached; or why the pattern does not parse there.
   */
  | { type: "compiled"; id: number; patterns: Record<string, Query>; shares: Record<string, PackedFiles[]>; takeable: Record<string, number>; failures: Record<string, string> }
  /** The languages chosen, and their files' shares (one per worker). */
  | { type: "warm-listed"; id: number; languages: string[]; shares: PackedFiles[] }
  | { type: "result"; id: number; outcomes: FileOutcome[]; stats: JobStats; pattern: Query }
  | { type: "failed"; id: number; message: string; patternError: boolean }
  | { type: "settled"; id: number };
