// Messages between the parse pool and its workers (structured-clone data only).
import type { FileOutcome, JobStats, SearchJob } from "./file-search.ts";
import type { PackedFiles } from "./packed-files.ts";
import type { Pattern } from "./pattern.ts";
import type { SearchScope } from "./walk.ts";

/** A search job with its file list packed for the trip. */
export type PackedJob = Omit<SearchJob, "files"> & { files: PackedFiles };

export type ToWorker =
  /** Modules compiled once by the pool: every worker shares their machine code. */
  | { type: "hello"; runtime: WebAssembly.Module; cacheChars: number }
  | { type: "grammar"; id: string; module: WebAssembly.Module }
  /**
   * Compile the pattern, then list a directory scope's files (the walk and its stats stay off the
   * main thread); the compiled pattern goes with every job of the search.
   */
  | { type: "list"; id: number; scope: SearchScope; root: string; language: string; pattern: string }
  /** List a directory's files of every language with a grammar; the pattern is compiled after, per language present. */
  | { type: "list-all"; id: number; scope: SearchScope; root: string }
  /** Compile the pattern for each language (their grammars were sent before). */
  | { type: "compile"; id: number; languages: string[]; pattern: string }
  | { type: "job"; id: number; job: PackedJob }
  | { type: "invalidate"; paths: string[] }
  | { type: "cancel"; id: number }
  /** The run is idle: collect garbage fully, between jobs. */
  | { type: "collect" }
  /** Answer once all work given before is done, the keeping of freed trees included (which this does not interrupt). */
  | { type: "settle"; id: number };

export type FromWorker =
  | { type: "ready" }
  | { type: "listed"; id: number; files: PackedFiles; oversized: number; unnamed?: Array<{ language: string; files: number }>; pattern?: Pattern }
  /** Per language, the compiled pattern or why the pattern does not parse there. */
  | { type: "compiled"; id: number; patterns: Record<string, Pattern>; failures: Record<string, string> }
  | { type: "result"; id: number; outcomes: FileOutcome[]; stats: JobStats; pattern: Pattern }
  | { type: "failed"; id: number; message: string; patternError: boolean }
  | { type: "settled"; id: number };
