// A search's shares are claimed file by file through shared flags: a worker done with its own share
// takes unclaimed files of the others from the back, unless their owner holds them cached. The
// lister splits by size before the text pre-filter, so the files actually parsed can all land in
// one share; without this the other worker sat idle while it parsed them.
import { expect, test } from "bun:test";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import type { FileRef } from "../../src/syntax/file-search.ts";
import { SyntaxService } from "../../src/syntax/service.ts";
import { ShareClaims } from "../../src/syntax/share-claims.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const file = (path: string): FileRef => ({ path, size: 1, mtimeMs: 0 });

test("each file is claimed once: a worker's own share first from the front, then another's from the back", () => {
  const memory = ShareClaims.memory([1, 3]);
  const shares = [[file("b/1")], [file("a/3"), file("a/1"), file("a/2")]];
  const first = new ShareClaims(memory, shares, 0, () => true);
  const second = new ShareClaims(memory, shares, 1, () => true);
  expect(first.claim()).toEqual({ file: file("b/1"), taken: false });
  expect(second.claim()).toEqual({ file: file("a/1"), taken: false });
  expect(first.claim()).toEqual({ file: file("a/3"), taken: true });
  expect(second.claim()).toEqual({ file: file("a/2"), taken: false });
  expect(first.claim()).toBeUndefined();
  expect(second.claim()).toBeUndefined();
  expect(first.taken).toEqual([file("a/3")]);
  expect(second.taken).toEqual([]);
});

test("a file its owner holds cached is left to the owner; the files before it may still be taken", () => {
  const memory = ShareClaims.memory([0, 4]);
  const shares = [[], [file("a/1"), file("a/2"), file("a/3"), file("a/4")]];
  const taker = new ShareClaims(memory, shares, 0, (path) => path !== "a/3");
  const owner = new ShareClaims(memory, shares, 1, () => true);
  expect(owner.claim()).toEqual({ file: file("a/1"), taken: false });
  expect(taker.claim()).toEqual({ file: file("a/4"), taken: true });
  expect(taker.claim()).toEqual({ file: file("a/2"), taken: true }); // a/3 is held by its owner: passed over
  expect(taker.claim()).toBeUndefined(); // a/1 is the owner's already
  expect([owner.claim()?.file.path, owner.claim()]).toEqual(["a/3", undefined]);
  expect(taker.taken).toEqual([file("a/4"), file("a/2")]);
});

test("real workers: the one whose share holds no candidate takes the other's, and the answer is the one a single worker gives", async () => {
  await using dir = await tempDir();
  // Split largest first to the lighter worker: big.py alone in one share, every candidate in the other.
  const candidate = (k: number) => `def f${k}(x):\n    if isinstance(x, int):\n        return x\n    return ${k}\n`.repeat(400);
  // big.py is 990 KB: under the 1 MiB a search reads (a larger one is left out of the listing).
  const files: Record<string, string> = { "big.py": `print('no call here')\n`.repeat(45_000) };
  for (let k = 0; k < 12; k++) files[`c${String(k).padStart(2, "0")}.py`] = candidate(k);
  await dir.write(files);
  const search = { pattern: "isinstance($X, $T)", language: "python", maxRecords: 30 };
  const one = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, spawnWorker: bunPrimitives.spawnParseWorker, workers: 1, warmChars: 0 });
  const two = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, spawnWorker: bunPrimitives.spawnParseWorker, workers: 2, warmChars: 0 });
  try {
    const alone = await one.search(search);
    const shared = await two.search(search);
    expect(shared.stats.taken).toBeGreaterThan(0);
    expect(shared.stats).toMatchObject({ candidates: 12, parsed: 12 });
    const shape = (answer: typeof alone) => answer.outcomes.map((o) => ({ path: o.path, count: o.count, records: o.matches.map((m) => m.start) }));
    // The records are the first 30 in path order whichever worker searched which file.
    const records = (answer: typeof alone) => answer.outcomes.flatMap((o) => o.matches.map((m) => `${o.path}:${m.start.line}`)).slice(0, 30);
    expect(records(shared)).toEqual(records(alone));
    expect(shared.outcomes.reduce((n, o) => n + o.count, 0)).toBe(12 * 400);
    expect(shape(shared).map(({ path, count }) => ({ path, count }))).toEqual(shape(alone).map(({ path, count }) => ({ path, count })));
    // The files taken now live with the worker that took them: the next search parses nothing.
    await two.whenIdle();
    const again = await two.search({ ...search, pattern: "return $X" });
    expect(again.stats.parsed).toBe(0);
    expect(again.stats.taken).toBe(0);
  } finally {
    await one.close();
    await two.close();
  }
});

test("real workers, with a warm-up: files taken get their trees where they now live, so the next search parses none of them", async () => {
  await using dir = await tempDir();
  // As above, big.py alone in one share; the other holds the candidates of the first pattern and,
  // last in path order (where a taker starts), small files only the second pattern finds.
  const candidate = (k: number) => `def f${k}(x):\n    if isinstance(x, int):\n        return x\n    return ${k}\n`.repeat(400);
  const files: Record<string, string> = { "big.py": `print('no call here')\n`.repeat(45_000) };
  for (let k = 0; k < 12; k++) files[`c${String(k).padStart(2, "0")}.py`] = candidate(k);
  for (let k = 0; k < 12; k++) files[`n${String(k).padStart(2, "0")}.py`] = `def g${k}():\n    return ${k}\n`;
  await dir.write(files);
  // A warm-up whose budget reads nothing ahead: it parses only what searches have read.
  const two = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, spawnWorker: bunPrimitives.spawnParseWorker, workers: 2, warmChars: 1 });
  try {
    two.warmUp();
    await two.whenIdle();
    const first = await two.search({ pattern: "isinstance($X, $T)", language: "python" });
    expect(first.stats.taken).toBeGreaterThan(0);
    await two.whenIdle();
    // The small files were read, not parsed, by the worker that took them; it parses them ahead.
    const again = await two.search({ pattern: "return $X", language: "python" });
    expect(again.stats.candidates).toBe(24);
    expect(again.stats.parsed).toBe(0);
  } finally {
    await two.close();
  }
});
