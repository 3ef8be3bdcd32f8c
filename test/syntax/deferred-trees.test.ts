// A parse worker frees a file's first tree once matched (keeping every tree of a cold search made
// its heap grow into fresh memory, a quarter to a third of the search's time) and parses the file
// again to keep it when idle, so the agent's next search over those files parses nothing.
import { describe, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { FileSearcher, type FileRef } from "../../src/syntax/file-search.ts";
import { GrammarLoader } from "../../src/syntax/grammars.ts";
import { ParseCache } from "../../src/syntax/parse-cache.ts";
import { SyntaxService } from "../../src/syntax/service.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const FILES = { "a.py": "isinstance(a, int)\n", "b.py": "if isinstance(b, str):\n    pass\n", "c.py": "x = isinstance\n", "d.py": "print(1)\n" };

function refs(root: string, names: string[] = Object.keys(FILES)): FileRef[] {
  return names.map((name) => {
    const info = statSync(join(root, name));
    return { path: join(root, name), size: info.size, mtimeMs: info.mtimeMs };
  });
}

describe("a searcher that defers trees", () => {
  const loader = new GrammarLoader(bunPrimitives.grammars);

  test("keeps no tree from a first parse, keeps one from the second, and matches the same both times", async () => {
    await using dir = await tempDir();
    await dir.write(FILES);
    const cache = new ParseCache();
    const searcher = new FileSearcher((id) => loader.parser(id), cache, { deferTrees: true });
    const job = { root: dir.path, language: "python", pattern: "isinstance($X, $T)", files: refs(dir.path) };
    const first = await searcher.run(job);
    expect(first.stats).toMatchObject({ candidates: 3, parsed: 3, cached: 0 });
    for (const name of ["a.py", "b.py", "c.py"]) expect(cache.peek(join(dir.path, name))?.tree).toBeUndefined();
    // Another search of the same files (the same one would be answered from what the first found).
    const other = { ...job, pattern: "isinstance($Y, $U)" };
    const second = await searcher.run(other);
    expect(second.stats).toMatchObject({ candidates: 3, parsed: 3, cached: 0, remembered: 0 });
    expect(second.outcomes.map((o) => o.count)).toEqual(first.outcomes.map((o) => o.count));
    expect((await searcher.run({ ...job, pattern: "isinstance($Z, $W)" })).stats).toMatchObject({ candidates: 3, parsed: 0, cached: 3 });
  });

  test("fillOne parses the freed files again, and passes over one written since", async () => {
    await using dir = await tempDir();
    await dir.write(FILES);
    const searcher = new FileSearcher((id) => loader.parser(id), new ParseCache(), { deferTrees: true });
    const job = { root: dir.path, language: "python", pattern: "isinstance($X, $T)", files: refs(dir.path) };
    const first = await searcher.run(job);
    searcher.invalidate([join(dir.path, "c.py")]);
    let filled = 0;
    while (await searcher.fillOne()) filled++;
    expect(filled).toBe(2); // a.py and b.py parsed again; c.py, written since, is not
    const second = await searcher.run({ ...job, pattern: "isinstance($Y, $U)" });
    expect(second.stats).toMatchObject({ candidates: 3, parsed: 1, cached: 2 });
    expect(second.outcomes.map((o) => o.count)).toEqual(first.outcomes.map((o) => o.count));
  });

  test("a fill gives way mid-parse when work waits, keeps the file for later, and the next parse is of its own text", async () => {
    await using dir = await tempDir();
    // Big enough that tree-sitter asks whether to go on many times within one parse.
    await dir.write({ "big.py": "if isinstance(a, int):\n    b = [a, a + 1]\n".repeat(5000), "small.py": "isinstance(s, str)\nisinstance(t, str)\n" });
    const cache = new ParseCache();
    const searcher = new FileSearcher((id) => loader.parser(id), cache, { deferTrees: true });
    const files = refs(dir.path, ["big.py", "small.py"]);
    const big = files.slice(0, 1);
    await searcher.run({ root: dir.path, language: "python", pattern: "isinstance($X, $T)", files: big });
    let asked = 0;
    // It stops at the 50th question, well into the file, yet says more is left: the freed tree is still to be kept.
    expect(await searcher.fillOne(() => ++asked >= 50)).toBe(true);
    expect(asked).toBe(50);
    expect(cache.peek(files[0]!.path)?.tree).toBeUndefined();
    // tree-sitter resumes an abandoned parse on its next call unless reset: this would parse big.py's
    // rest. The same pattern, compiled already, so the next parse is small.py's.
    const small = await searcher.run({ root: dir.path, language: "python", pattern: "isinstance($X, $T)", files: files.slice(1) });
    expect(small.outcomes.map((o) => o.count)).toEqual([2]);
    expect(small.outcomes[0]!.parseErrors ?? 0).toBe(0);
    // With nothing waiting it is kept, and the next search of it parses nothing.
    expect(await searcher.fillOne(() => false)).toBe(true);
    expect(cache.peek(files[0]!.path)?.tree).toBeDefined();
    const again = await searcher.run({ root: dir.path, language: "python", pattern: "isinstance($Y, int)", files: big });
    expect(again.stats).toMatchObject({ parsed: 0, cached: 1 });
    expect(again.outcomes.map((o) => o.count)).toEqual([5000]);
  });

  test("the warm-up gives a tree to a file a search read as text alone; its budget bounds only what it reads from disk", async () => {
    await using dir = await tempDir();
    await dir.write({ ...FILES, "e.py": "isinstance(e, bytes)\n" });
    const cache = new ParseCache();
    const searcher = new FileSearcher((id) => loader.parser(id), cache, { deferTrees: true });
    const read = refs(dir.path);
    // d.py alone holds print: a.py, b.py and c.py are read, found without the word, and kept as text.
    const first = await searcher.run({ root: dir.path, language: "python", pattern: "print($A)", files: read });
    expect(first.stats).toMatchObject({ candidates: 1, parsed: 1 });
    expect(cache.peek(join(dir.path, "a.py"))?.tree).toBeUndefined();
    const unread = { ...refs(dir.path, ["e.py"])[0]!, language: "python" };
    // A budget of one character: nothing more is read from disk, but what is held gets its tree.
    searcher.prime(dir.path, [...read.map((file) => ({ ...file, language: "python" })), unread], 1);
    while (await searcher.fillOne());
    expect(cache.peek(unread.path)).toBeUndefined();
    // The agent's next pattern: in three of the files read before, and in e.py, never read.
    const next = await searcher.run({ root: dir.path, language: "python", pattern: "isinstance($X, $T)", files: [...read, unread] });
    expect(next.stats).toMatchObject({ candidates: 4, parsed: 1, cached: 3 });
    // c.py holds the word but no call.
    expect(next.outcomes.map((o) => o.path.slice(dir.path.length + 1))).toEqual(["a.py", "b.py", "e.py"]);
  });

  test("a job that must parse the file whose parse ahead gave way to it goes on from where that parse stopped", async () => {
    await using dir = await tempDir();
    await dir.write({ "big.py": "if isinstance(a, int):\n    b = [a, a + 1]\n".repeat(5000), "small.py": "isinstance(s, str)\n" });
    const cache = new ParseCache();
    const searcher = new FileSearcher((id) => loader.parser(id), cache, { deferTrees: true });
    const files = refs(dir.path, ["big.py", "small.py"]);
    await searcher.run({ root: dir.path, language: "python", pattern: "isinstance($X, $T)", files });
    // The fill begins with big.py and stops well into it for a message.
    let asked = 0;
    expect(await searcher.fillOne(() => ++asked >= 50)).toBe(true);
    expect(asked).toBe(50);
    expect(cache.peek(files[0]!.path)?.tree).toBeUndefined();
    // A job with no need of big.py (no "str" in it) leaves its parse where it stopped.
    const other = await searcher.run({ root: dir.path, language: "python", pattern: "isinstance($Y, str)", files });
    expect(other.stats).toMatchObject({ candidates: 1, parsed: 1, resumed: 0 });
    // One that must parse it goes on from where that parse stopped (small.py's tree the last job kept).
    const next = await searcher.run({ root: dir.path, language: "python", pattern: "isinstance($Y, $U)", files });
    expect(next.stats).toMatchObject({ candidates: 2, parsed: 1, resumed: 1, cached: 1 });
    expect(next.outcomes.map((o) => [o.count, o.parseErrors ?? 0])).toEqual([[5000, 0], [1, 0]]);
    expect(await searcher.fillOne()).toBe(false); // nothing left half done
  });

  test("without the option, the first parse is kept", async () => {
    await using dir = await tempDir();
    await dir.write(FILES);
    const searcher = new FileSearcher((id) => loader.parser(id), new ParseCache());
    const job = { root: dir.path, language: "python", pattern: "isinstance($X, $T)", files: refs(dir.path) };
    await searcher.run(job);
    expect(await searcher.fillOne()).toBe(false);
    expect((await searcher.run({ ...job, pattern: "isinstance($Y, $U)" })).stats).toMatchObject({ parsed: 0, cached: 3 });
  });
});

test("parse workers fill in the trees they freed once idle: the next search parses nothing", async () => {
  await using dir = await tempDir();
  await dir.write(FILES);
  const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, spawnWorker: bunPrimitives.spawnParseWorker, workers: 2 });
  try {
    const first = await syntax.search({ pattern: "isinstance($X, $T)", language: "python" });
    expect(first.stats).toMatchObject({ candidates: 3, parsed: 3, cached: 0 });
    await syntax.whenIdle();
    const second = await syntax.search({ pattern: "isinstance($Y, $U)", language: "python" });
    expect(second.stats).toMatchObject({ candidates: 3, parsed: 0, cached: 3 });
    expect(second.outcomes.map((o) => o.count)).toEqual(first.outcomes.map((o) => o.count));
  } finally {
    await syntax.close();
  }
}, 30_000);
