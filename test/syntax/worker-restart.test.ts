// A parse worker that dies is replaced: the call it was serving tries once more on the new worker,
// and later calls run there, not on the main thread for the rest of the run.
import { describe, expect, test } from "bun:test";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { MAX_WORKER_RESTARTS } from "../../src/syntax/worker-slots.ts";
import { SyntaxService } from "../../src/syntax/service.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { recordingSpawner } from "./recording-spawner.ts";

describe("the pattern is compiled once per search", () => {
  test.each([
    ["a directory, by the worker that lists it", undefined],
    ["one file, by the worker that searches it", "f1.js"],
  ])("%s", async (_what, path) => {
    await using dir = await tempDir();
    await dir.write(Object.fromEntries(Array.from({ length: 40 }, (_, k) => [`f${k}.js`, `foo(${k});\n`])));
    const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, spawnWorker: bunPrimitives.spawnParseWorker, workers: 2 });
    try {
      const answer = await syntax.search({ pattern: "foo($A)", language: "javascript", path });
      expect(answer.outcomes).toHaveLength(path ? 1 : 40);
      expect(answer.pattern?.context).toBe("statement");
      expect(answer.stats.compiled).toBe(1);
    } finally {
      await syntax.close();
    }
  }, 30_000);
});

describe("a parse worker that dies is replaced", () => {
  test("the next search runs on a new worker, with no fallback note", async () => {
    await using dir = await tempDir();
    await dir.write(Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`f${k}.js`, `foo(${k});\n`])));
    const workers = recordingSpawner();
    const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, spawnWorker: workers.spawn, workers: 2 });
    try {
      expect((await syntax.search({ pattern: "foo($A)", language: "javascript" })).outcomes).toHaveLength(20);
      workers.spawned[0]!.terminate(); // the worker ends from outside, as a crash would end it
      const again = await syntax.search({ pattern: "foo($A)", language: "javascript" });
      expect(again.outcomes).toHaveLength(20);
      expect(workers.spawned).toHaveLength(3);
      expect(syntax.fallbackReason).toBeUndefined();
    } finally {
      await syntax.close();
    }
  }, 30_000);

  test("a search a death interrupts is tried once more; a second death is reported; past the restart limit the main thread parses", async () => {
    await using dir = await tempDir();
    await dir.write(Object.fromEntries(Array.from({ length: 120 }, (_, k) => [`d${k % 6}/f${k}.js`, `foo(${k});\n`.repeat(10)])));
    const workers = recordingSpawner();
    const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, spawnWorker: workers.spawn, workers: 1 });
    /** A search whose worker dies under it, once the files are listed and the job is on its way, `deaths` times. */
    const searchKilling = (deaths: number) =>
      syntax
        .search({
          pattern: "foo($A)",
          language: "javascript",
          progress: ({ progress }) => {
            if (progress === 0 && deaths-- > 0) workers.spawned.at(-1)!.terminate();
          },
        })
        .then(
          (answer) => answer.outcomes.length,
          (error: Error) => error.message,
        );
    try {
      await syntax.search({ pattern: "foo($A)", language: "javascript", path: "d0" }); // the worker is up
      expect(await searchKilling(1)).toBe(120);
      expect(workers.spawned).toHaveLength(2);
      expect(await searchKilling(2)).toBe(
        "a parse worker died while searching, twice (last: it exited); a new one took its place: call again, or narrow path if it happens again.",
      );
      expect(workers.spawned).toHaveLength(4);
      expect(syntax.fallbackReason).toBeUndefined();
      // Three restarts so far, the limit: the fourth death moves parsing to the main thread, where the call's retry runs.
      expect(MAX_WORKER_RESTARTS).toBe(3);
      expect(await searchKilling(1)).toBe(120);
      expect(workers.spawned).toHaveLength(4);
      expect(syntax.fallbackReason).toBe("parse workers died 4 times (last: it exited); parsing on the main thread from now on");
      expect((await syntax.search({ pattern: "foo($A)", language: "javascript", path: "d1" })).outcomes).toHaveLength(20);
    } finally {
      await syntax.close();
    }
  }, 60_000);
});
