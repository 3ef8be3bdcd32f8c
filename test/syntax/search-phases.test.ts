// A search says where its time went (src/syntax/search-phases.ts): the main thread's steps and the
// workers' own, so bench/ast-grep-phases.ts can break a first search down. Checked by what each
// phase must hold, never by how long it took.
import { expect, test } from "bun:test";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { SyntaxService } from "../../src/syntax/service.ts";
import { tempDir } from "../helpers/temp-dir.ts";

test("a cold search spends parse time in the workers, a repeat over kept trees none, and every phase is counted", async () => {
  await using dir = await tempDir();
  const files: Record<string, string> = {};
  for (let k = 0; k < 20; k++) files[`m${k}.py`] = `def f${k}(x):\n    if isinstance(x, int):\n        return x\n    return ${k}\n`.repeat(40);
  files["other.py"] = "print('no call here')\n";
  await dir.write(files);
  const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, spawnWorker: bunPrimitives.spawnParseWorker, workers: 2 });
  try {
    const first = await syntax.search({ pattern: "isinstance($X, $T)", language: "python" });
    expect(first.stats).toMatchObject({ candidates: 20, parsed: 20 });
    const phases = first.phases!;
    for (const value of [phases.start, phases.plan, phases.jobs, ...Object.values(phases.work)]) expect(value).toBeGreaterThanOrEqual(0);
    expect(phases.work.parse).toBeGreaterThan(0);
    expect(phases.work.read).toBeGreaterThan(0);
    expect(phases.work.match).toBeGreaterThan(0);
    // The repeat is answered from what the first search found: nothing parsed.
    const again = await syntax.search({ pattern: "isinstance($X, $T)", language: "python" });
    expect(again.stats.parsed).toBe(0);
    expect(again.phases!.work.parse).toBe(0);
  } finally {
    await syntax.close();
  }
});
