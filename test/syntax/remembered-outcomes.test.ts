// A search repeated over unchanged files is answered from what it found the first time: nothing is
// parsed or matched again; a file changed since, a rewrite, and a file with too many matches are searched anew.
import { describe, expect, test } from "bun:test";
import { statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { FileSearcher, type FileRef } from "../../src/syntax/file-search.ts";
import { GrammarLoader } from "../../src/syntax/grammars.ts";
import { ParseCache } from "../../src/syntax/parse-cache.ts";
import { MAX_REMEMBERED_MATCHES } from "../../src/syntax/remembered-outcomes.ts";
import { SyntaxService } from "../../src/syntax/service.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const FILES = { "a.py": "isinstance(a, int)\nisinstance(a2, float)\n", "b.py": "if isinstance(b, str):\n    pass\n", "c.py": "x = isinstance\n", "d.py": "print(1)\n" };

function refs(root: string): FileRef[] {
  return Object.keys(FILES).map((name) => {
    const info = statSync(join(root, name));
    return { path: join(root, name), size: info.size, mtimeMs: info.mtimeMs };
  });
}

describe("a repeated search", () => {
  const loader = new GrammarLoader(bunPrimitives.grammars);
  const searcher = (cache = new ParseCache()) => new FileSearcher((id) => loader.parser(id), cache, { deferTrees: true });

  test("is answered from the first one's outcomes, the same answer, parsing and matching nothing", async () => {
    await using dir = await tempDir();
    await dir.write(FILES);
    const search = searcher();
    const job = { root: dir.path, language: "python", pattern: "isinstance($X, $T)", files: refs(dir.path) };
    const first = await search.run(job);
    expect(first.stats).toMatchObject({ candidates: 3, parsed: 3, remembered: 0 });
    const again = await search.run(job);
    expect(again.stats).toMatchObject({ candidates: 3, parsed: 0, cached: 0, remembered: 3 });
    expect(again.outcomes).toEqual(first.outcomes);
  });

  test("remembers every record past the answer's budget, so a later search wanting more parses nothing", async () => {
    await using dir = await tempDir();
    await dir.write(FILES);
    const search = searcher();
    const job = { root: dir.path, language: "python", pattern: "isinstance($X, $T)", files: refs(dir.path) };
    const cut = await search.run({ ...job, maxRecords: 1 });
    expect(cut.outcomes.map((o) => [o.count, o.matches.length])).toEqual([[2, 1], [1, 0]]);
    const whole = await search.run(job);
    expect(whole.stats).toMatchObject({ remembered: 3, parsed: 0 });
    expect(whole.outcomes.map((o) => [o.count, o.matches.length])).toEqual([[2, 2], [1, 1]]);
    expect(whole.outcomes[0]!.matches[0]).toEqual(cut.outcomes[0]!.matches[0]!);
    expect(whole.outcomes[1]!.matches[0]!.text).toBe("isinstance(b, str)");
  });

  test("a file with more matches than it keeps is searched again", async () => {
    await using dir = await tempDir();
    await dir.write({ "many.py": "isinstance(a, int)\n".repeat(MAX_REMEMBERED_MATCHES + 1), "few.py": "isinstance(a, int)\n" });
    const files = ["few.py", "many.py"].map((name) => {
      const info = statSync(join(dir.path, name));
      return { path: join(dir.path, name), size: info.size, mtimeMs: info.mtimeMs };
    });
    const search = searcher();
    const job = { root: dir.path, language: "python", pattern: "isinstance($X, $T)", files, maxRecords: 10 };
    await search.run(job);
    const again = await search.run(job);
    expect(again.stats).toMatchObject({ remembered: 1, parsed: 1 });
    expect(again.outcomes.map((o) => [o.count, o.matches.length])).toEqual([[1, 1], [MAX_REMEMBERED_MATCHES + 1, 9]]);
  });

  test("searches a file changed since, and rewrites are never remembered", async () => {
    await using dir = await tempDir();
    await dir.write(FILES);
    const search = searcher();
    const job = { root: dir.path, language: "python", pattern: "isinstance($X, $T)", files: refs(dir.path) };
    await search.run(job);
    writeFileSync(join(dir.path, "b.py"), "isinstance(b, str) and isinstance(c, bytes)\n");
    utimesSync(join(dir.path, "b.py"), new Date(), new Date(Date.now() + 5000));
    const changed = await search.run({ ...job, files: refs(dir.path) });
    expect(changed.stats).toMatchObject({ candidates: 3, parsed: 1, remembered: 2 });
    expect(changed.outcomes.find((o) => o.path.endsWith("b.py"))!.count).toBe(2);
    const rewrite = { ...job, files: refs(dir.path), rewrite: "isinstance($X, ($T,))" };
    await search.run(rewrite);
    expect((await search.run(rewrite)).stats.remembered).toBe(0);
  });
});

test("through the service: a search repeated at once parses nothing, and a write through the run is searched anew", async () => {
  await using dir = await tempDir();
  await dir.write(FILES);
  const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, spawnWorker: bunPrimitives.spawnParseWorker, workers: 2 });
  try {
    const first = await syntax.search({ pattern: "isinstance($X, $T)", language: "python" });
    const again = await syntax.search({ pattern: "isinstance($X, $T)", language: "python" });
    expect(again.stats).toMatchObject({ candidates: 3, parsed: 0, remembered: 3 });
    expect(again.outcomes).toEqual(first.outcomes);
    await syntax.afterWrite([join(dir.path, "a.py")]);
    const afterWrite = await syntax.search({ pattern: "isinstance($X, $T)", language: "python" });
    expect(afterWrite.stats).toMatchObject({ candidates: 3, remembered: 2 });
    expect(afterWrite.stats.parsed + afterWrite.stats.cached).toBe(1);
  } finally {
    await syntax.close();
  }
}, 30_000);
