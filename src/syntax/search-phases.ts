// Where a search's time went (bench/ast-grep-phases.ts reads it): the main thread's steps, and,
// summed over the workers, each job's own. Milliseconds of wall time in the thread that did the
// step; the workers run side by side, so their sum can pass the search's wall time.

/** A job's steps in a worker: the grammar's load and the pattern's compile, reading files, the text pre-filter, parsing, and matching with its records. */
export interface JobPhases {
  load: number;
  read: number;
  prefilter: number;
  parse: number;
  match: number;
}

/** A whole search: workers started, the plan (a worker's walk, compile and split), the jobs until the last answer; and the jobs' own steps, summed. */
export interface SearchPhases {
  start: number;
  plan: number;
  jobs: number;
  work: JobPhases;
}

export function noJobPhases(): JobPhases {
  return { load: 0, read: 0, prefilter: 0, parse: 0, match: 0 };
}

export function addJobPhases(into: JobPhases, from: JobPhases): void {
  into.load += from.load;
  into.read += from.read;
  into.prefilter += from.prefilter;
  into.parse += from.parse;
  into.match += from.match;
}
