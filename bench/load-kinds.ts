// The calls the load bench mixes, as data: each kind's surfaces, weight and how it is called.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";

/** A call that takes longer than this is counted as an error (the SDK's own default is 60 s). */
export const CALL_TIMEOUT_MS = 120_000;

export interface Kind {
  name: string;
  surfaces: readonly string[];
  weight: number;
  /** Python and JavaScript cells append `session * 1e6 + sequence` to a ledger in their kernel. */
  call(client: Client, session: number, sequence: number): Promise<object>;
}

/** The kinds over a workdir holding this repository's sources (the fixture). */
export function loadKinds(workdir: string): Kind[] {
  // A fixture line that moved away would send line 0 and measure only refusals: fail at once instead.
  const fixtureLine = (file: string, needle: string) => {
    const line = readFileSync(join(workdir, file), "utf8").split("\n").findIndex((l) => l.includes(needle)) + 1;
    if (line === 0) throw new Error(`bench/load-kinds.ts: ${file} no longer holds ${JSON.stringify(needle)}; point the fixture at a line that exists`);
    return line;
  };
  const hoverFile = "src/tool/budget.ts";
  const hoverLine = fixtureLine(hoverFile, "export function capList");
  const definitionFile = "src/run/start.ts";
  const definitionLine = fixtureLine(definitionFile, "const resources = connectResources(");
  const evalCall = (language: "python" | "javascript") => (client: Client, session: number, sequence: number) => {
    const code = language === "python" ? `_seen.append(${session * 1e6 + sequence}); len(_seen)` : `globalThis.seen.push(${session * 1e6 + sequence}); seen.length`;
    return client.callTool({ name: "eval", arguments: { code, description: "load bench cell counting its calls", language } }, undefined, {
      timeout: CALL_TIMEOUT_MS,
      resetTimeoutOnProgress: true,
      onprogress: () => {},
    });
  };
  return [
    // Raw tools/list: the SDK's listTools() also compiles an output-schema validator per tool on the
    // client, which on this shared machine costs more CPU than the server's answer.
    { name: "tools/list", surfaces: ["default", "plan"], weight: 4, call: async (c) => (await c.request({ method: "tools/list" }, ListToolsResultSchema), {}) },
    { name: "eval python", surfaces: ["default"], weight: 1, call: evalCall("python") },
    { name: "eval javascript", surfaces: ["default"], weight: 1, call: evalCall("javascript") },
    {
      name: "ast_grep",
      surfaces: ["default", "plan"],
      weight: 1,
      call: (c) => c.callTool({ name: "ast_grep", arguments: { pattern: "await $X.close()", language: "typescript" } }, undefined, { timeout: CALL_TIMEOUT_MS }),
    },
    {
      name: "lsp hover",
      surfaces: ["default", "plan"],
      weight: 1,
      call: (c) => c.callTool({ name: "lsp", arguments: { action: "hover", file: hoverFile, line: hoverLine, symbol: "capList" } }, undefined, { timeout: CALL_TIMEOUT_MS }),
    },
    {
      name: "lsp definition",
      surfaces: ["default", "plan"],
      weight: 1,
      call: (c) =>
        c.callTool({ name: "lsp", arguments: { action: "definition", file: definitionFile, line: definitionLine, symbol: "connectResources" } }, undefined, {
          timeout: CALL_TIMEOUT_MS,
        }),
    },
  ];
}

/** What one client process saw in a round; merged by the load bench. */
export interface Tally {
  latencies: Record<string, number[]>;
  errors: Record<string, string[]>;
  calls: number;
  /** Cells answered ok per language, to check against the kernels' ledgers. */
  answered: { python: number; javascript: number };
  /** How late a 10 ms timer fired in the client process (ms): its own event-loop stalls, which every session's latency includes. */
  clientLagMs: number[];
  /** tools/list latencies of the calls no stall of this process (over 5 ms) overlapped. */
  listUnstalledMs: number[];
}
