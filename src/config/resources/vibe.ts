// Settings of the worker roster resource (vibe_*): how each tier starts a worker, and the run's limits.
import * as v from "valibot";
import { configObject, nonEmptyString } from "./shared.ts";

export const WORKER_TIERS = ["fast", "good"] as const;
export type WorkerTier = (typeof WORKER_TIERS)[number];

export const DEFAULT_TIME_LIMIT_SECONDS = 30 * 60;
export const DEFAULT_CONCURRENCY = 2;
export const DEFAULT_MAX_SPAWNS = 50;
/** A week: far beyond any worker, and well inside what a timer can hold (about 24 days). */
export const MAX_TIME_LIMIT_SECONDS = 7 * 24 * 60 * 60;

const positiveInteger = (what: string) =>
  v.pipe(
    v.number(`expected ${what} as a number`),
    v.integer(`expected ${what} as a whole number`),
    v.minValue(1, `expected ${what} of at least 1`),
  );

/** How one tier (fast or good) starts a worker. */
export const workerTierSettings = configObject({
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
  /** Workers of this tier running at once; more are queued. */
  concurrency: v.optional(positiveInteger("the concurrency cap"), DEFAULT_CONCURRENCY),
});
export type WorkerTierSettings = v.InferOutput<typeof workerTierSettings>;

export const vibeSettings = v.pipe(
  configObject({
    fast: v.optional(workerTierSettings),
    good: v.optional(workerTierSettings),
    /** Workers the whole run may spawn; vibe_spawn past it is refused. Re-runs (vibe_send) do not count. */
    maxSpawns: v.optional(positiveInteger("the spawn cap"), DEFAULT_MAX_SPAWNS),
    /** Vibe mode at start; the harness switches it with POST /harness/vibe. */
    mode: v.optional(v.picklist(["on", "off"], 'expected "on" or "off"'), "on"),
  }),
  v.check((s) => s.fast !== undefined || s.good !== undefined, "expected at least one worker tier: fast or good"),
);
export type VibeSettings = v.InferOutput<typeof vibeSettings>;
