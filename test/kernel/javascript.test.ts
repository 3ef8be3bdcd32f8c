// The JavaScript kernel: the sidecar re-executed in kernel mode, with TypeScript, imports and await.
import { describe, expect, test } from "bun:test";
import { tempDir } from "../helpers/temp-dir.ts";
import { join } from "node:path";
import { KERNEL_TEST_TIMEOUT_MS, cell, kernelRun, untilExists } from "./helpers.ts";

const js = { language: "javascript" } as const;

describe("javascript cells keep state like a notebook", () => {
  test("TypeScript, re-declaration, imports across cells, top-level await, echo and display", async () => {
    await using dir = await tempDir();
    await dir.write({ "lib/shapes.ts": "export const area = (w: number, h: number): number => w * h;\n" });
    await using t = await kernelRun(dir.path);

    const typed = await cell(t.client, "const side: number = 6;\nconsole.log('side is', side);\nconsole.error('to stderr');\nside * 7", js);
    expect(typed.isError).toBe(false);
    expect(typed.text).toContain("[javascript · In [1] · ok · ");
    expect(typed.text).toContain("sidecar (Bun ");
    expect(typed.text).toEndWith("side is 6\nto stderr\nOut[1]: 42");

    const redeclared = await cell(t.client, "const side = 'again'; side", js);
    expect(redeclared.text).toContain('Out[2]: "again"');

    await cell(t.client, "import { area } from './lib/shapes.ts';", js);
    const imported = await cell(t.client, "const later = await Promise.resolve(area(3, 4)); later", js);
    expect(imported.text).toContain("Out[4]: 12");

    const shown = await cell(t.client, "display({ a: [1, 2] }); display({ _repr_markdown_: () => '**md**' }); undefined", js);
    expect(shown.text).toEndWith("{ a: [ 1, 2 ] }\n**md**");

    // Node's Console: table in its place, group indentation kept; a character split between two
    // Buffer writes stays whole.
    const consoled = await cell(
      t.client,
      "console.log('before'); console.table([{ a: 1 }]); console.group('G'); console.log('inside'); console.groupEnd(); console.log('after');\n" +
        "const euro = Buffer.from('€'); process.stdout.write(euro.subarray(0, 1)); process.stdout.write(euro.subarray(1)); process.stdout.write('\\n'); undefined",
      js,
    );
    expect(consoled.text).toContain("before\n┌─────────┬───┐\n│ (index) │ a │\n├─────────┼───┤\n│    0    │ 1 │\n└─────────┴───┘\nG\n  inside\nafter\n€");
  }, KERNEL_TEST_TIMEOUT_MS);

  // Start-up counts (bench/eval.ts): the process's own stdout stream is built only when a cell uses it.
  test("process.stdout is built on first use and behaves as the process's stdout: fd, isTTY, pipe(), a child's stdio", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const unbuilt = await cell(t.client, "typeof Object.getOwnPropertyDescriptor(process, 'stdout')?.get", js);
    expect(unbuilt.text).toEndWith('Out[1]: "function"');
    const used = await cell(
      t.client,
      "const { Readable } = require('node:stream');\nconst { spawnSync } = require('node:child_process');\n" +
        "console.log([process.stdout.fd, process.stderr.fd, process.stdout.isTTY].join(' '));\n" +
        "const source = Readable.from(['piped\\n']);\nsource.pipe(process.stdout);\nawait new Promise((done) => source.on('end', done));\n" +
        "spawnSync('echo', ['from a child'], { stdio: ['ignore', process.stdout, process.stderr] }).status",
      js,
    );
    expect(used.text).toContain("1 2 false\npiped\n");
    expect(used.text).toContain("from a child");
    expect(used.text).toEndWith("Out[2]: 0");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("errors show the cell's frames; a subprocess writing to fd 1 cannot corrupt the protocol", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const failed = await cell(t.client, "function inner() { throw new RangeError('too far') }\ninner()", js);
    expect(failed.isError).toBe(true);
    // Positions are the cell's own (not the compiled cell's), each frame with its line's code; the
    // transpiler's wrapper call is no frame of the cell.
    expect(failed.text).toContain("RangeError: too far\n    at inner (<cell 1>:1:40) — in: function inner() { throw new RangeError('too far') }\n");
    expect(failed.text).toContain("(<cell 1>:2:6) — in: inner()");
    expect(failed.text).not.toContain("})();");
    expect(failed.text).not.toContain("compiled cell");
    expect(failed.text).not.toContain("js-kernel");

    // An 8-line cell with types, a comment and blank lines, failing on line 7 (it said <cell 2>:11:18).
    const typed = await cell(
      t.client,
      "const limit: number = 3;\n// the records\nconst rows: { id: number }[] = [{ id: 1 }];\n\nfunction pick(at: number): { id: number } {\n  const row = rows[at] as { id: number };\n  return row.id.toFixed(2) as any;\n}\npick(limit);",
      js,
    );
    expect(typed.text).toMatch(/TypeError: .*\n    at pick \(<cell 2>:7:\d+\) — in: return row\.id\.toFixed\(2\) as any;\n    at <anonymous> \(<cell 2>:9:\d+\) — in: pick\(limit\);$/);

    const syntax = await cell(t.client, "let a = 1;\nlet = ;", js);
    expect(syntax.text).toContain("SyntaxError: Unexpected ; (line 2, column 7)\n    let = ;\n          ^");

    const raw = await cell(
      t.client,
      "require('node:child_process').execSync(`echo '{\"type\":\"done\",\"id\":1}'; echo second`, { stdio: 'inherit' }); 'alive'",
      js,
    );
    expect(raw.isError).toBe(false);
    expect(raw.text).toContain('{"type":"done","id":1}\nsecond\n');
    expect(raw.text).toContain('Out[4]: "alive"');
  }, KERNEL_TEST_TIMEOUT_MS);

  test("a cell awaiting what nothing keeps alive is interrupted at its budget, and the kernel keeps its state", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path, { inactivitySeconds: 2 });
    await cell(t.client, "globalThis.kept = 7", js);
    const waiting = await cell(t.client, "await new Promise(() => {})", js);
    expect(waiting.text).not.toContain("died");
    expect(waiting.text).toContain("interrupted");
    expect((await cell(t.client, "kept", js)).text).toContain("Out[3]: 7");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("a kernel killed because a cancelled call's cell would not stop: the next call says its state was lost", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    await cell(t.client, "globalThis.kept = 1", js);
    const controller = new AbortController();
    const spinning = t.client.callTool(
      { name: "eval", arguments: { code: "require('node:fs').writeFileSync('started', ''); for (;;) {}", description: "a test cell that spins for ever", language: "javascript" } },
      undefined,
      { signal: controller.signal, timeout: 120_000 },
    );
    await untilExists(join(dir.path, "started"));
    controller.abort();
    await spinning.catch(() => undefined); // the cancelled call's own answer is thrown away
    const next = await cell(t.client, "typeof kept", js);
    expect(next.text).toContain("The previous javascript kernel was killed when a cancelled call's cell would not stop, so its state");
    expect(next.text).toContain('Out[1]: "undefined"');
  }, KERNEL_TEST_TIMEOUT_MS);

  test("one cell at a time: a second call waits for the running one, then runs after it", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const slow = cell(t.client, "require('node:fs').writeFileSync('started', ''); await new Promise((r) => setTimeout(r, 1500)); globalThis.order = ['slow']; 'slow done'", js);
    await untilExists(join(dir.path, "started"));
    const second = await cell(t.client, "order.push('second'); order", js);
    expect(second.isError).toBe(false);
    expect(second.text).toContain("Out[2]: [ 'slow', 'second' ]");
    expect((await slow).text).toContain('Out[1]: "slow done"');
    // The python kernel is a separate one and is not blocked by it.
    expect((await cell(t.client, "2")).text).toContain("Out[1]: 2");
  }, KERNEL_TEST_TIMEOUT_MS);
});
