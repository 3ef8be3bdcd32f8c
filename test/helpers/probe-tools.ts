// Tools defined only for tests, one per tier, to exercise the registry and the MCP surface before
// (and independently of) the real tools. They never ship: the catalog does not list them.
import { expect } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import * as v from "valibot";
import { ToolFailure } from "../../src/answer/failure.ts";
import { defineTool } from "../../src/tool/define.ts";

export const echoTool = defineTool({
  name: "test_echo",
  tier: "read",
  description: "Echoes its text back (test tool).",
  input: v.strictObject({ text: v.string(), times: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))) }),
  output: v.object({ echoed: v.string() }),
  async run({ text, times }) {
    const echoed = text.repeat(times ?? 1);
    return { text: echoed, data: { echoed } };
  },
});

export const writeProbeTool = defineTool({
  name: "test_write",
  tier: "write",
  description: "Pretends to write (test tool).",
  input: v.strictObject({}),
  output: v.object({ wrote: v.boolean() }),
  async run() {
    return { text: "wrote", data: { wrote: true } };
  },
});

export const execProbeTool = defineTool({
  name: "test_exec",
  tier: "exec",
  description: "Fails the way a tool that ran and failed does (test tool).",
  input: v.strictObject({}),
  output: v.object({}),
  async run() {
    throw new ToolFailure("The probe failed on purpose. Call it with nothing else to do.");
  },
});

/** How many test_slow calls saw their AbortSignal fire; `next()` resolves at the next one. */
export const slowToolAborts = {
  count: 0,
  waiters: [] as (() => void)[],
  next(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  },
};

/** Waits until cancelled, sending progress every 20 ms. */
export const slowTool = defineTool({
  name: "test_slow",
  tier: "read",
  description: "Runs until cancelled, reporting progress (test tool).",
  input: v.strictObject({ ms: v.number() }),
  output: v.object({ finished: v.boolean() }),
  async run({ ms }, ctx) {
    const started = Date.now();
    let step = 0;
    while (Date.now() - started < ms) {
      if (ctx.signal.aborted) {
        slowToolAborts.count++;
        for (const wake of slowToolAborts.waiters.splice(0)) wake();
        throw new Error("aborted");
      }
      ctx.progress({ progress: ++step, message: `step ${step}` });
      await Bun.sleep(20);
    }
    return { text: "finished", data: { finished: true } };
  },
});

/** Works for `ms` without a word of progress. */
export const quietTool = defineTool({
  name: "test_quiet",
  tier: "read",
  description: "Waits without reporting progress (test tool).",
  input: v.strictObject({ ms: v.number() }),
  output: v.object({ finished: v.boolean() }),
  async run({ ms }) {
    await Bun.sleep(ms);
    return { text: "finished", data: { finished: true } };
  },
});

/**
 * What every transport must carry, checked through an SDK client connected to a run with the probe
 * tools: progress notifications during a call, and a cancellation that reaches the tool's signal.
 */
export async function expectProgressThenCancel(client: Client): Promise<void> {
  const progress: number[] = [];
  const finished = await client.callTool({ name: "test_slow", arguments: { ms: 500 } }, undefined, { onprogress: (p) => progress.push(p.progress) });
  expect(finished.structuredContent).toEqual({ finished: true });
  expect(progress.length).toBeGreaterThan(2);

  const before = slowToolAborts.count;
  const aborted = slowToolAborts.next();
  const controller = new AbortController();
  const running = Promise.withResolvers<void>();
  const call = client.callTool({ name: "test_slow", arguments: { ms: 10_000 } }, undefined, { signal: controller.signal, onprogress: () => running.resolve() });
  await running.promise; // the tool runs: its first progress arrived
  controller.abort("test cancels");
  await expect(call).rejects.toThrow();
  await aborted;
  expect(slowToolAborts.count).toBe(before + 1);
}

export const PROBE_TOOLS = [echoTool, writeProbeTool, execProbeTool, slowTool, quietTool];
