// Shared pieces of the worker tests: a roster config running the fixture scripts, tool calls, process checks.
import { existsSync, readFileSync } from "node:fs";
import { procStatFields } from "../../src/platform/proc-stat.ts";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type * as v from "valibot";
import type { vibeSettings } from "../../src/config/resources/vibe.ts";
import type { RunConfig } from "../../src/config/schema.ts";

export const FIXTURES = join(import.meta.dir, "fixtures");
/** The roster command every test tier runs; the brief's first line picks the fixture behaviour. */
export const WORKER_COMMAND = ["sh", join(FIXTURES, "worker.sh")];
/** Bound on polling for something a worker does (a pid file, a progress line) on a loaded machine. */
export const POLL_LIMIT_MS = 30_000;
const POLL_STEP_MS = 50;

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

export interface CallResult {
  text: string;
  data: Record<string, any>;
  isError: boolean;
}

/** Clients that have listed the tools: the SDK then checks every structuredContent against its outputSchema. */
const listed = new WeakSet<Client>();

export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  onprogress?: (message: string) => void,
): Promise<CallResult> {
  if (!listed.has(client)) {
    await client.listTools();
    listed.add(client);
  }
  const result = await client.callTool({ name, arguments: args }, undefined, {
    timeout: 120_000,
    ...(onprogress ? { onprogress: (p) => onprogress(p.message ?? "") } : {}),
  });
  const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
  // An error's facts are in structuredContent.error.details (docs/harness.md, "Errors a program can read").
  const error = (result.structuredContent as { error?: { details?: Record<string, any> } } | undefined)?.error;
  const data = result.isError ? (error?.details ?? {}) : result.structuredContent;
  return { text, data: data as Record<string, any>, isError: result.isError === true };
}

/** Calls the tool and fails the test with its text when it answered isError. */
export async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.text}`);
  return result.data;
}

export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + POLL_LIMIT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Gave up after ${POLL_LIMIT_MS} ms waiting for ${what}.`);
    await Bun.sleep(POLL_STEP_MS);
  }
}

/** The pids the spawns-child fixture recorded: its own and its SIGTERM-ignoring grandchild's. */
export async function childPids(workdir: string, id: string): Promise<number[]> {
  const file = join(workdir, `pids-${id}`);
  await until(`${file}`, () => existsSync(file) || undefined);
  return readFileSync(file, "utf8").trim().split(/\s+/).map(Number);
}

/** Alive means present and not a zombie (a zombie is dead, merely not yet reaped by its new parent). */
export function isAlive(pid: number): boolean {
  const state = procStatFields(pid)?.[0];
  return state !== undefined && state !== "Z";
}

/** Processes die a moment after their group is signalled; poll rather than assume. */
export async function allGone(pids: number[]): Promise<boolean> {
  await until(`pids ${pids.join(", ")} to exit`, () => pids.every((pid) => !isAlive(pid)) || undefined).catch(() => {});
  return pids.every((pid) => !isAlive(pid));
}
