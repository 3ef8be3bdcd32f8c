// A run with `warmMiB: 0` holds no parse worker until the first structural call; by default the
// workers start once the run serves and parse the workdir's commonest languages ahead.
import { expect, test } from "bun:test";
import { connectClient } from "../../build/spawn-sidecar.ts";
import { parseConfig, settle } from "../../src/config/load.ts";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { startRun } from "../../src/run/start.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call } from "../helpers/call.ts";

test("a run with warmMiB 0 starts no parse worker until an ast_* call arrives", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.ts": "console.log(1);\n", "b.py": "print(2)\n" });
  // Real workers, counted as they are spawned.
  const spawned: Worker[] = [];
  const runtime = {
    ...bunPrimitives,
    spawnParseWorker() {
      const worker = bunPrimitives.spawnParseWorker!();
      spawned.push(worker);
      return worker;
    },
  };
  const run = await startRun(settle(parseConfig({ workdir: dir.path, resources: { parser: { workers: 2, warmMiB: 0 } } })), runtime);
  try {
    const client = await connectClient(run.url, run.surfaces.default!, "lazy-workers-test");
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("ast_grep");
    await Bun.sleep(300); // anything started in the background after the ready line has begun by now
    expect(spawned).toHaveLength(0);
    const answer = await call(client, "ast_grep", { pattern: "console.log($A)", language: "typescript" });
    expect(answer.isError).toBe(false);
    expect(answer.data.total).toBe(1);
    expect(spawned).toHaveLength(2);
    await client.close();
  } finally {
    await run.close();
  }
}, 30_000);

test("by default the workers start once the run serves, and parse its commonest languages ahead: the first search parses nothing", async () => {
  await using dir = await tempDir();
  const files: Record<string, string> = {};
  for (let k = 0; k < 6; k++) files[`src/m${k}.ts`] = `export const f${k} = () => console.log(${k});\n`;
  for (let k = 0; k < 4; k++) files[`py/m${k}.py`] = `print(${k})\n`;
  files["notes.md"] = "# notes\n"; // a fourth language, past the three parsed ahead
  files["a.rb"] = "puts 1\n";
  files["b.rb"] = "puts 2\n";
  await dir.write(files);
  const run = await startRun(settle(parseConfig({ workdir: dir.path, resources: { parser: { workers: 2 } } })), bunPrimitives);
  try {
    const syntax = run.resources.syntax!;
    await syntax.whenIdle(); // the warm-up's parsing is done once the workers are idle
    const ts = await syntax.search({ pattern: "console.log($A)", language: "typescript" });
    expect(ts.stats).toMatchObject({ candidates: 6, parsed: 0, cached: 6 });
    const py = await syntax.search({ pattern: "print($A)", language: "python" });
    expect(py.stats).toMatchObject({ candidates: 4, parsed: 0, cached: 4 });
    const ruby = await syntax.search({ pattern: "puts($A)", language: "ruby" });
    expect(ruby.stats).toMatchObject({ candidates: 2, parsed: 0, cached: 2 });
    const markdown = await syntax.search({ pattern: "# $A", language: "markdown" });
    expect(markdown.stats.cached).toBe(0); // the fourth language was not parsed ahead
  } finally {
    await run.close();
  }
}, 30_000);

test("the warm-up stops at warmMiB of source per worker", async () => {
  await using dir = await tempDir();
  const files: Record<string, string> = {};
  // 8 files of 300 KiB: 2.4 MiB in all, over two workers' 1 MiB each.
  for (let k = 0; k < 8; k++) files[`m${k}.py`] = `x = "${"a".repeat(300 * 1024)}"\nprint(${k})\n`;
  await dir.write(files);
  const run = await startRun(settle(parseConfig({ workdir: dir.path, resources: { parser: { workers: 2, warmMiB: 1 } } })), bunPrimitives);
  try {
    const syntax = run.resources.syntax!;
    await syntax.whenIdle();
    const answer = await syntax.search({ pattern: "print($A)", language: "python" });
    expect(answer.stats.candidates).toBe(8);
    // Each worker keeps at most 1 MiB: three 300 KiB files, so at most six of the eight.
    expect(answer.stats.cached).toBeGreaterThan(0);
    expect(answer.stats.cached).toBeLessThanOrEqual(6);
  } finally {
    await run.close();
  }
}, 60_000);

test("the warm-up parses the commonest language's files first: larger files of another language do not spend its budget", async () => {
  await using dir = await tempDir();
  const files: Record<string, string> = {};
  // TypeScript is commonest (6 files of 100 KiB); Python has 2 larger files of 900 KiB. Each worker
  // gets three TypeScript files and one Python file, and may keep 1 MiB.
  for (let k = 0; k < 6; k++) files[`m${k}.ts`] = `export const s${k} = "${"a".repeat(100 * 1024)}";\nconsole.log(${k});\n`;
  for (let k = 0; k < 2; k++) files[`p${k}.py`] = `s = "${"a".repeat(900 * 1024)}"\nprint(${k})\n`;
  await dir.write(files);
  const run = await startRun(settle(parseConfig({ workdir: dir.path, resources: { parser: { workers: 2, warmMiB: 1 } } })), bunPrimitives);
  try {
    const syntax = run.resources.syntax!;
    await syntax.whenIdle();
    // Largest first, the Python file would take 900 KiB of each worker's budget and leave room for one TypeScript file.
    const answer = await syntax.search({ pattern: "console.log($A)", language: "typescript" });
    expect(answer.stats).toMatchObject({ candidates: 6, parsed: 0, cached: 6 });
  } finally {
    await run.close();
  }
}, 60_000);
