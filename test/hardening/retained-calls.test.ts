// A finished call leaves nothing alive behind it. Every call's signal is derived from the run's, and
// a derived signal that still has an abort listener lives as long as the run's does (that is the
// spec); a listener left on it kept each ast_grep call's file list for the whole run (1,141
// searches grew the sidecar by 200 MB). The ledger below sees every abort listener added and
// removed through the JS API, which is how the sidecar's own code listens.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call } from "../syntax/call.ts";

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
