// The tree-sitter runtime and each grammar are compiled once, on the main thread, and the compiled
// module is posted to every parse worker: workers then share its machine code, so a cold search pays
// for optimising a grammar's hot functions once, not once per worker (bench/ast-grep.ts).
import { describe, expect, test } from "bun:test";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { SyntaxService } from "../../src/syntax/service.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { until } from "../helpers/until.ts";
import { recordingSpawner } from "./recording-spawner.ts";

describe("parse workers share compiled WebAssembly modules", () => {
  test("every worker, a replacement included, gets the same runtime and grammar module", async () => {
    await using dir = await tempDir();
    await dir.write(Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`f${k}.js`, `foo(${k});\n`])));
    const workers = recordingSpawner();
    const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, spawnWorker: workers.spawn, workers: 2 });
    try {
      expect((await syntax.search({ pattern: "foo($A)", language: "javascript" })).outcomes).toHaveLength(20);
      workers.spawned[0]!.terminate(); // a crash: its replacement must not compile anew either
      expect((await syntax.search({ pattern: "foo($A)", language: "javascript" })).outcomes).toHaveLength(20);
      // The death is heard when the worker's close event comes, which may be after that search (the
      // survivor can answer it alone); a search made once the replacement is up sends it the grammar
      // as it becomes ready, without waiting for it.
      await until("the replacement worker", () => workers.spawned.length === 3);
      expect((await syntax.search({ pattern: "foo($A)", language: "javascript" })).outcomes).toHaveLength(20);
      expect(workers.spawned).toHaveLength(3);
      await until("the grammar posted to the replacement worker", () => workers.sent.some(({ worker, message }) => worker === 2 && message.type === "grammar"));

      const hellos = workers.sent.flatMap(({ message }) => (message.type === "hello" ? [message.runtime] : []));
      const grammars = workers.sent.flatMap(({ worker, message }) => (message.type === "grammar" ? [{ worker, module: message.module }] : []));
      expect(hellos).toHaveLength(3);
      for (const runtime of hellos) {
        expect(runtime).toBeInstanceOf(WebAssembly.Module);
        expect(runtime).toBe(hellos[0]!);
      }
      expect(new Set(grammars.map((g) => g.worker))).toEqual(new Set([0, 1, 2]));
      for (const { module } of grammars) {
        expect(module).toBeInstanceOf(WebAssembly.Module);
        expect(module).toBe(grammars[0]!.module);
      }
    } finally {
      await syntax.close();
    }
  }, 30_000);
});
