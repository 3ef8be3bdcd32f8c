// Shared pieces of the kernel tests: a run with kernels, calling eval, a fake harness bridge.
import { expect } from "bun:test";
import { existsSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RunConfig } from "../../src/config/schema.ts";
import type { KernelSettings } from "../../src/config/resources/kernels.ts";
import { call } from "../helpers/call.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { until } from "../helpers/until.ts";

/** Kernels start real interpreters (pandas, pip, venvs) on a loaded 2-core machine. */
export const KERNEL_TEST_TIMEOUT_MS = 120_000;

/** Debian's interpreter, which apt's pandas, matplotlib and IPython are installed for. */
export const SYSTEM_PYTHON = "/usr/bin/python3";

export function requireSystemPython(): void {
  if (!existsSync(SYSTEM_PYTHON)) {
    throw new Error(`${SYSTEM_PYTHON} is missing: apt-get install python3 python3-pandas python3-matplotlib python3-ipython python3-venv`);
  }
}

export interface CellResult {
  text: string;
  data: Record<string, unknown>;
  images: { data: string; mimeType: string }[];
  isError: boolean;
}

export async function kernelRun(workdir: string, kernels: KernelSettings = {}, extra: RunConfig = {}): Promise<TestRun & { client: Client }> {
  requireSystemPython();
  const run = await startTestRun(workdir, { ...extra, resources: { ...extra.resources, kernels: { python: SYSTEM_PYTHON, ...kernels } } });
  const client = await run.client();
  return Object.assign(run, { client });
}

export async function cell(
  client: Client,
  code: string,
  options: { language?: "python" | "javascript"; reset?: boolean; description?: string } = {},
): Promise<CellResult> {
  const result = await call(client, "eval", {
    code,
    description: options.description ?? "a test cell for the kernel",
    ...(options.language ? { language: options.language } : {}),
    ...(options.reset ? { reset: true } : {}),
  });
  return {
    text: result.text,
    data: result.data,
    images: result.content.filter((c) => c.type === "image").map((c) => ({ data: c.data!, mimeType: c.mimeType! })),
    isError: result.isError,
  };
}

/** Waits (bounded) until a cell has created the marker file that says it is running. */
export async function untilExists(path: string): Promise<void> {
  await until(`${path} to appear (the cell never started)`, () => existsSync(path));
}

export interface BridgeCall {
  tool: string;
  arguments: Record<string, unknown>;
  conversation: string | null;
  origin: { tool: string; language: string };
}

/** A stand-in for the harness's bridge endpoint: the real harness is not part of this repository. */
export function fakeHarness(answer: (call: BridgeCall) => Promise<Response> | Response) {
  const calls: BridgeCall[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const call = (await request.json()) as BridgeCall;
      calls.push(call);
      return answer(call);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/bridge`,
    calls,
    [Symbol.dispose]: () => void server.stop(true),
  };
}

export function pngSize(base64: string): { width: number; height: number } {
  const bytes = Buffer.from(base64, "base64");
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
