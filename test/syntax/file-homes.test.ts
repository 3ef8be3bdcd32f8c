// Files are split between parse workers by whichever worker lists the search, through homes every
// thread shares: a file searched again goes back to the worker holding its tree, whoever listed it.
import { describe, expect, test } from "bun:test";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { FileHomes, MOST_PARSE_WORKERS } from "../../src/syntax/file-homes.ts";
import type { FileRef } from "../../src/syntax/file-search.ts";
import { defaultParseWorkers, SyntaxService } from "../../src/syntax/service.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const file = (path: string, size: number): FileRef => ({ path, size, mtimeMs: 1 });
const paths = (shares: FileRef[][]) => shares.map((share) => share.map((f) => f.path).sort());

describe("file homes", () => {
  test("new files go largest first to the lightest worker", () => {
    const homes = new FileHomes(FileHomes.memory(), 2);
    const shares = homes.split([file("a", 10), file("b", 60), file("c", 30), file("d", 25)]);
    // b (60) to 0; c (30) to 1; d (25) to 1 (55 < 60); a (10) to 1 (55 < 60) → 60 against 65.
    expect(paths(shares)).toEqual([["b"], ["a", "c", "d"]]);
  });

  test("a file keeps its home in a later split, made by another thread's view of the same memory", () => {
    const memory = FileHomes.memory();
    const first = paths(new FileHomes(memory, 2).split([file("a", 10), file("b", 60), file("c", 30)]));
    // Sizes changed, a new file came: the known ones stay where their trees are; the new one balances.
    const second = paths(new FileHomes(memory, 2).split([file("a", 500), file("b", 1), file("c", 1), file("e", 5)]));
    expect(first).toEqual([["b"], ["a", "c"]]);
    expect(second).toEqual([["b", "e"], ["a", "c"]]);
  });

  test("a split counts the files no home holds cached, which a worker done with its share may take", () => {
    const homes = new FileHomes(FileHomes.memory(), 2);
    const files = [file("a", 10), file("b", 60), file("c", 30)];
    expect(homes.splitCounting(files).takeable).toBe(3);
    const [first] = homes.split(files);
    homes.markHeld("b", 0); // b's home (0) cached it
    homes.markHeld("c", 0); // not c's home: nothing changes
    expect(first!.map((f) => f.path)).toEqual(["b"]);
    expect(homes.splitCounting(files).takeable).toBe(2);
    homes.rehome("a", 0); // taken by 0, which caches it now
    expect(homes.splitCounting(files)).toEqual({ shares: [[file("a", 10), file("b", 60)], [file("c", 30)]], takeable: 1 });
  });

  test("the last worker's home survives the held mark; more workers than the table holds are refused, and the default stays within it", () => {
    const homes = new FileHomes(FileHomes.memory(), MOST_PARSE_WORKERS);
    const last = MOST_PARSE_WORKERS - 1;
    homes.rehome("a", last);
    homes.markHeld("a", last);
    expect(homes.homeOf("a")).toBe(last);
    expect(homes.isHeld("a")).toBe(true);
    expect(homes.split([file("a", 1)])[last]!.map((f) => f.path)).toEqual(["a"]);
    expect(() => new FileHomes(FileHomes.memory(), MOST_PARSE_WORKERS + 1)).toThrow(RangeError);
    expect([defaultParseWorkers(2), defaultParseWorkers(64), defaultParseWorkers(192)]).toEqual([2, 64, MOST_PARSE_WORKERS]);
  });

  test("every file lands in exactly one share", () => {
    const files = Array.from({ length: 5_000 }, (_, k) => file(`src/dir${k % 37}/file${k}.ts`, (k * 7919) % 10_000));
    const shares = new FileHomes(FileHomes.memory(), 3).split(files);
    expect(shares.flat().map((f) => f.path).sort()).toEqual(files.map((f) => f.path).sort());
    for (const share of shares) expect(share.length).toBeGreaterThan(1_000); // balanced, roughly, by bytes
  });
});

test("a search of every language, made again, finds every tree cached whichever worker listed it", async () => {
  await using dir = await tempDir();
  const files: Record<string, string> = {};
  for (let k = 0; k < 12; k++) {
    files[`py/m${k}.py`] = `def f${k}():\n    return log(${k})\n`;
    files[`ts/m${k}.ts`] = `export const f${k} = () => log(${k});\n`;
  }
  await dir.write(files);
  const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, spawnWorker: bunPrimitives.spawnParseWorker, workers: 2 });
  try {
    const first = await syntax.search({ pattern: "log($X)" });
    expect(first.stats).toMatchObject({ candidates: 24, parsed: 24, cached: 0 });
    expect(first.outcomes.reduce((n, o) => n + o.count, 0)).toBe(24);
    // Listings take turns between the two workers, so each search below is listed by another one.
    // New files come between them: a lister splitting without the homes the other one gave would
    // balance the old files afresh with them, and send some away from their trees.
    for (let round = 0; round < 2; round++) {
      await syntax.whenIdle();
      const added: Record<string, string> = {};
      for (let k = 0; k < 3; k++) added[`py/new${round}_${k}.py`] = `x = log(${"1 + ".repeat(200 * (k + 1))}1)\n`;
      await dir.write(added);
      // A pattern not searched before, so the known files need their trees (a repeat is answered from what was found).
      const again = await syntax.search({ pattern: ["log($Y)", "log($Z)"][round]! });
      const known = 24 + 3 * round;
      expect(again.stats).toMatchObject({ candidates: known + 3, parsed: 3, cached: known });
    }
  } finally {
    await syntax.close();
  }
}, 30_000);
