// Cancelling a search stops it, in parse workers and on the main thread alike.
import { describe, expect, test } from "bun:test";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { SyntaxService } from "../../src/syntax/service.ts";
import { tempDir } from "../helpers/temp-dir.ts";

describe("a cancelled search stops instead of answering", () => {
  test.each([
    ["parse workers", 2],
    ["main thread", 0],
  ])("%s", async (_where, workers) => {
    await using dir = await tempDir();
    // More files than a worker handles between looks at its cancel messages.
    await dir.write(Object.fromEntries(Array.from({ length: 200 }, (_, k) => [`f${k}.js`, `foo(${k});\n`])));
    const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, spawnWorker: bunPrimitives.spawnParseWorker, workers });
    try {
      await expect(syntax.search({ pattern: "foo($A)", language: "javascript", signal: AbortSignal.abort() })).rejects.toThrow("cancelled");
      // The service keeps working for the next call.
      expect((await syntax.search({ pattern: "foo($A)", language: "javascript" })).outcomes.length).toBe(200);
    } finally {
      await syntax.close();
    }
  }, 30_000);

  // The abort lands once the files are listed, as the jobs go out to the workers (1000 files take
  // a second or more to parse): the call settles then, without waiting for the workers to notice and answer.
  // Tied to that event, not to a sleep, it holds however the scheduler runs the test (nice -n 19).
  test("in parse workers, while they are busy", async () => {
    await using dir = await tempDir();
    await dir.write(Object.fromEntries(Array.from({ length: 1000 }, (_, k) => [`d${k % 40}/f${k}.js`, `foo(${k});\n`.repeat(20)])));
    const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, spawnWorker: bunPrimitives.spawnParseWorker, workers: 2 });
    try {
      await syntax.search({ pattern: "foo($A)", language: "javascript", path: "d0" }); // workers up, grammar loaded
      const controller = new AbortController();
      const search = syntax.search({
        pattern: "foo($A)",
        language: "javascript",
        signal: controller.signal,
        progress: ({ progress, total }) => {
          if (progress === 0 && total === 1000) controller.abort();
        },
      });
      const settled = search.then(
        () => "answered",
        (error: Error) => error.message,
      );
      expect(await settled).toBe("The search was cancelled.");
      // The workers drop the cancelled job and take the next one.
      expect((await syntax.search({ pattern: "foo($A)", language: "javascript", path: "d1" })).outcomes.length).toBe(25);
    } finally {
      await syntax.close();
    }
  }, 60_000);
});
