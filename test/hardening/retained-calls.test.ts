// A finished call leaves nothing alive behind it. Every call's signal is derived from the run's, and
// a derived signal that still has an abort listener lives as long as the run's does (that is the
// spec); a listener left on it kept each ast_grep call's file list for the whole run (1,141
// searches grew the sidecar by 200 MB). The ledger below sees every abort listener added and
// removed through the JS API, which is how the sidecar's own code listens. The heap tests count
// what any other leak leaves, per tool and over a debug session: a Promise.race against a promise that lives as long as the language
// server kept every lsp request's promises and closures (9 900 promises after a minute of load).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { stoppedPythonLoop } from "../dap/harness.ts";
import { liveObjects } from "../helpers/live-objects.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { LSP_CONFIG, requireBinary, TS_PROJECT } from "../lsp/fixtures.ts";
import { call } from "../helpers/call.ts";

const CALLS = 60;

/** Abort listeners added and not yet removed (a `once` listener that fired counts as removed). */
const outstanding = new Set<string>();
const ids = new WeakMap<object, number>();
let nextId = 0;
const idOf = (o: object) => ids.get(o) ?? (ids.set(o, ++nextId), nextId);
const original = { add: AbortSignal.prototype.addEventListener, remove: AbortSignal.prototype.removeEventListener };

beforeAll(() => {
  AbortSignal.prototype.addEventListener = function (this: AbortSignal, type: string, listener: unknown, options?: unknown) {
    if (type === "abort" && listener && !this.aborted) outstanding.add(`${idOf(this)}:${idOf(listener as object)}`);
    return original.add.call(this, type, listener as EventListener, options as AddEventListenerOptions);
  } as typeof AbortSignal.prototype.addEventListener;
  AbortSignal.prototype.removeEventListener = function (this: AbortSignal, type: string, listener: unknown, options?: unknown) {
    if (type === "abort" && listener) outstanding.delete(`${idOf(this)}:${idOf(listener as object)}`);
    return original.remove.call(this, type, listener as EventListener, options as EventListenerOptions);
  } as typeof AbortSignal.prototype.removeEventListener;
});

afterAll(() => {
  AbortSignal.prototype.addEventListener = original.add;
  AbortSignal.prototype.removeEventListener = original.remove;
});

describe("calls that finished", () => {
  test("ast_grep, ast_edit, resolve and eval calls leave no abort listener behind", async () => {
    await using dir = await tempDir();
    await dir.write(Object.fromEntries(Array.from({ length: 40 }, (_, k) => [`src/m${k}.ts`, `export async function f${k}(s: { close(): Promise<void> }) {\n  await s.close();\n}\n`])));
    await using t = await startTestRun(dir.path, { resources: { parser: {}, kernels: { python: "/usr/bin/python3" } } });
    const client = await t.client();
    // Kernels and workers started once may listen for the whole run; only what calls add is counted.
    expect((await call(client, "ast_grep", { pattern: "await $X.close()", language: "typescript" })).data.total).toBe(40);
    for (const language of ["python", "javascript"]) await call(client, "eval", { code: "0", description: "starts the kernel before counting", language });
    const before = outstanding.size;
    for (let k = 0; k < CALLS; k++) {
      expect((await call(client, "ast_grep", { pattern: "await $X.close()", language: "typescript" })).isError).toBe(false);
      const staged = await call(client, "ast_edit", { pattern: "await $X.close()", rewrite: "await $X.close() /* c */", language: "typescript", path: "src/m0.ts" });
      await call(client, "resolve", { edit_id: staged.data.edit_id, action: "discard" });
      const cell = await call(client, "eval", { code: `${k} + 1`, description: "a cell between searches", language: k % 2 ? "python" : "javascript" });
      expect(cell.text).toContain(String(k + 1));
    }
    expect(outstanding.size - before).toBe(0);
  }, 120_000);
});

/**
 * Objects a leaked pending operation keeps: its promises, the closures waiting on them and their
 * scopes, and the maps and sets such code registers in. Compiled code, strings and plain records
 * come and go with the JIT and with what the run keeps by design (a resolved edit's id and state).
 */
const LEAK_KINDS = ["Promise", "Function", "JSLexicalEnvironment", "Map", "Set"];

describe("calls that finished, counted on the heap", () => {
  /** Calls per kind. Growth below a quarter of them is noise; a leak keeps at least one object per call. */
  const REPEATS = 300;

  /** What each kind of call left alive over `repeats` calls, per object kind, where that reached a quarter of them. */
  async function grownPerKind(kinds: Record<string, () => Promise<unknown>>, repeats = REPEATS): Promise<Record<string, Record<string, number>>> {
    const grown: Record<string, Record<string, number>> = {};
    for (const [name, once] of Object.entries(kinds)) {
      for (let k = 0; k < 20; k++) await once(); // starts what the kind needs, warms the JIT
      const before = liveObjects(LEAK_KINDS);
      for (let k = 0; k < repeats; k++) await once();
      const after = liveObjects(LEAK_KINDS);
      grown[name] = Object.fromEntries(LEAK_KINDS.map((kind) => [kind, after[kind]! - before[kind]!]).filter(([, n]) => (n as number) >= repeats / 4));
    }
    return grown;
  }

  const nothingFor = (kinds: object) => Object.fromEntries(Object.keys(kinds).map((name) => [name, {}]));

  test("no tool keeps promises, closures or registrations per call", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write({ ...TS_PROJECT, ...Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`src/m${k}.ts`, `export async function f${k}(s: { close(): Promise<void> }) {\n  await s.close();\n}\n`])) });
    await using t = await startTestRun(dir.path, { resources: { parser: {}, kernels: { python: "/usr/bin/python3" }, ...LSP_CONFIG.resources } });
    const c = await t.client();
    const kinds: Record<string, () => Promise<unknown>> = {
      "tools/list": () => c.request({ method: "tools/list" }, ListToolsResultSchema),
      ast_grep: () => call(c, "ast_grep", { pattern: "await $X.close()", language: "typescript" }),
      "ast_edit + resolve": async () => {
        const staged = await call(c, "ast_edit", { pattern: "await $X.close()", rewrite: "await $X.close() /* c */", language: "typescript", path: "src/m0.ts" });
        await call(c, "resolve", { edit_id: staged.data.edit_id, action: "discard" });
      },
      "eval python": () => call(c, "eval", { code: "1 + 1", description: "a cell counted for leaks", language: "python" }),
      "eval javascript": () => call(c, "eval", { code: "1 + 1", description: "a cell counted for leaks", language: "javascript" }),
      "lsp hover": () => call(c, "lsp", { action: "hover", file: "src/shapes.ts", line: 14, symbol: "totalArea" }),
      "lsp diagnostics": () => call(c, "lsp", { action: "diagnostics", file: "src/shapes.ts" }),
    };
    expect(await grownPerKind(kinds)).toEqual(nothingFor(kinds));
  }, 240_000);

  test("a debug session driven for hundreds of steps keeps nothing per step", async () => {
    await using h = await stoppedPythonLoop();
    // Each continue runs one iteration of the loop and stops at the breakpoint again.
    const kinds: Record<string, () => Promise<unknown>> = {
      "continue to the breakpoint": () => h.ok({ operation: "continue" }),
      "stack + evaluate": async () => {
        await h.ok({ operation: "stack" });
        await h.ok({ operation: "evaluate", expression: "x + 1" });
      },
    };
    // 100 each: a step waits for the program to come round to the breakpoint again.
    expect(await grownPerKind(kinds, 100)).toEqual(nothingFor(kinds));
  }, 240_000);
});
