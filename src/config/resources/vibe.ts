// Settings of the worker roster resource (vibe_*): how each grade of worker starts, and the run's limits.
// A grade (fast or good) is what vibe_spawn's `tier` argument names; inside the sidecar "tier" means
// read, write and exec only.
import * as v from "valibot";
import { configObject, nonEmptyString } from "./shared.ts";

export const WORKER_GRADES = ["fast", "good"] as const;
export type WorkerGrade = (typeof WORKER_GRADES)[number];

const DEFAULT_TIME_LIMIT_SECONDS = 30 * 60;
const DEFAULT_CONCURRENCY = 2;
const DEFAULT_MAX_SPAWNS = 50;
/** A week: far beyond any worker, and well inside what a timer can hold (about 24 days). */
const MAX_TIME_LIMIT_SECONDS = 7 * 24 * 60 * 60;

const positiveInteger = (what: string) =>
  v.pipe(
    v.number(`expected ${what} as a number`),
    v.integer(`expected ${what} as a whole number`),
    v.minValue(1, `expected ${what} of at least 1`),
  );

/** How a worker of one grade (fast or good) starts. */
const workerGradeSettings = configObject({
  /** The worker's argv, e.g. ["my-agent", "--headless"]; it gets its brief on stdin. */
  command: v.pipe(
    v.array(nonEmptyString("a command word"), 'expected the command as an argv list, e.g. ["my-agent", "--headless"]'),
    v.minLength(1, "expected at least the program to run"),
  ),
  /** Added to the sidecar's own environment. */
  env: v.optional(
    v.record(
      v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name")),
      v.string("expected the variable's value as a string"),
    ),
  ),
  /** "workdir": every worker runs in the run's workdir; "worktree": each gets a fresh git worktree. */
  isolation: v.optional(v.picklist(["workdir", "worktree"], 'expected "workdir" or "worktree"'), "workdir"),
  /** A worker still running after this long is stopped (state timed_out). */
  timeLimitSeconds: v.optional(
    v.pipe(
      v.number("expected the time limit in seconds"),
      v.gtValue(0, "expected a time limit above 0 seconds"),
      v.maxValue(MAX_TIME_LIMIT_SECONDS, `expected a time limit of at most ${MAX_TIME_LIMIT_SECONDS} seconds (a week)`),
    ),
    DEFAULT_TIME_LIMIT_SECONDS,
  ),
  /** Workers of this grade running at once; more are queued. */
  concurrency: v.optional(positiveInteger("the concurrency cap"), DEFAULT_CONCURRENCY),
});

export const vibeSettings = v.pipe(
  configObject({
    fast: v.optional(workerGradeSettings),
    good: v.optional(workerGradeSettings),
    /** Workers the whole run may spawn; vibe_spawn past it is refused. Re-runs (vibe_send) do not count. */
    maxSpawns: v.optional(positiveInteger("the spawn cap"), DEFAULT_MAX_SPAWNS),
    /** Vibe mode at start; the harness switches it with POST /harness/vibe. */
    mode: v.optional(v.picklist(["on", "off"], 'expected "on" or "off"'), "on"),
  }),
  v.check((s) => s.fast !== undefined || s.good !== undefined, "expected at least one worker tier: fast or good"),
);
export type VibeSettings = v.InferOutput<typeof vibeSettings>;
