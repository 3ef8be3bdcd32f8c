// Shared pieces of the worker tests: a roster config running the fixture scripts, and the pids they record.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type * as v from "valibot";
import type { vibeSettings } from "../../src/config/resources/vibe.ts";
import type { RunConfig } from "../../src/config/schema.ts";
import { until } from "../helpers/until.ts";

export const FIXTURES = join(import.meta.dir, "fixtures");
/** The roster command every test tier runs; the brief's first line picks the fixture behaviour. */
export const WORKER_COMMAND = ["sh", join(FIXTURES, "worker.sh")];

type VibeInput = v.InferInput<typeof vibeSettings>;
type TierInput = NonNullable<VibeInput["fast"]>;

/** A run config whose fast tier (and good tier, when given) runs the fixture dispatcher. */
export function vibeConfig(
  fast: Partial<TierInput> = {},
  rest: { good?: Partial<TierInput>; maxSpawns?: number; mode?: "on" | "off" } = {},
): RunConfig {
  const { good, ...limits } = rest;
  const vibe: VibeInput = {
    fast: { command: WORKER_COMMAND, ...fast },
    ...(good ? { good: { command: WORKER_COMMAND, ...good } } : {}),
    ...limits,
  };
  // The run config is validated again (defaults filled) by startTestRun.
  return { resources: { vibe } } as RunConfig;
}

/** The pids the spawns-child fixture recorded: its own and its SIGTERM-ignoring grandchild's. */
export async function childPids(workdir: string, id: string): Promise<number[]> {
  const file = join(workdir, `pids-${id}`);
  await until(`${file}`, () => existsSync(file));
  return readFileSync(file, "utf8").trim().split(/\s+/).map(Number);
}
