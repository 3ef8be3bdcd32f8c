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
  });
});
