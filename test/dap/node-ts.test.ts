// debug over the sidecar's Node.js adapter for TypeScript: tsx runs the program, source maps give .ts lines.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, debugHarness, requireTool } from "./harness.ts";

// Lines 1–4 generate no JavaScript: every line after them sits elsewhere in what node runs.
const APP = `interface Point {
  x: number;
  y: number;
}

async function delay(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

async function norm(p: Point): Promise<number> {
  await delay(1);
  const squared: number = p.x * p.x + p.y * p.y;
  return Math.sqrt(squared);
}

async function main(): Promise<void> {
  const value = await norm({ x: 3, y: 4 });
  console.log("norm", value);
}

main();
`;

/** tsx as a user has it: on PATH (here the repository's devDependency, outside the test's workspace). */
const WITH_TSX = { PATH: `${join(import.meta.dir, "..", "..", "node_modules", ".bin")}:${process.env.PATH}` };

/** Runs `body` with PATH set to `path` (the sidecar a harness starts inherits it), then puts it back. */
async function withPath(path: string, body: () => Promise<void>): Promise<void> {
  const saved = process.env.PATH;
  process.env.PATH = path;
  try {
    await body();
  } finally {
    process.env.PATH = saved;
  }
}

describe("debug with node: TypeScript through tsx", () => {
  test("a breakpoint in a .ts line, the stack with its awaiting frames, steps in .ts lines, set_variable", async () => {
    requireTool("/usr/bin/node", "apt install nodejs");
    requireTool(join(import.meta.dir, "..", "..", "node_modules", ".bin", "tsx"), "npm install (tsx is a devDependency)");
    await using dir = await tempDir();
    await dir.write({ "package.json": '{"name": "app"}\n', "app.ts": APP });
    await withPath(WITH_TSX.PATH, async () => {
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
      const found = await h.ok({ operation: "adapters" });
      expect(found.text).toContain("TypeScript through tsx");
      await h.ok({ operation: "breakpoints", file: "app.ts", lines: [12] });
      const launched = await h.ok({ operation: "launch", program: "app.ts" });
      expect(launched.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { name: "norm", file: "app.ts", line: 12 } });

      const stack = await h.ok({ operation: "stack" });
      const names = stack.data.frames.map((frame: { name: string }) => frame.name);
      // The frame that awaits norm() is shown below an await label, at its .ts line.
      expect(names.slice(0, 3)).toEqual(["norm", "── await ──", "main"]);
      expect(stack.data.frames[2]).toMatchObject({ file: "app.ts", line: 17 });
      expect((await h.ok({ operation: "evaluate", expression: "p.x + p.y" })).data.result).toBe("7");

      const step = await h.ok({ operation: "step_over" });
      expect(step.data.frame).toMatchObject({ name: "norm", file: "app.ts", line: 13 });
      await h.ok({ operation: "set_variable", name: "squared", value: "144" });
      const done = await h.ok({ operation: "continue" });
      expect(done.data).toMatchObject({ state: "exited", exit_code: 0 });
      expect((await h.ok({ operation: "output" })).data.output).toContain("norm 12\n");
    });
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("an exception stops at its .ts line, caught ones when asked; a conditional breakpoint in a loop and a logpoint speak in .ts lines", async () => {
    requireTool("/usr/bin/node", "apt install nodejs");
    requireTool(join(import.meta.dir, "..", "..", "node_modules", ".bin", "tsx"), "npm install (tsx is a devDependency)");
    await using dir = await tempDir();
    // Type-only lines first, so every .ts line differs from the JavaScript line node runs.
    const FAIL = `type Input = string;\ninterface Parsed {\n  ok: boolean;\n}\n\nfunction parse(text: Input): Parsed {\n  try {\n    JSON.parse(text);\n  } catch {\n    console.log("caught");\n  }\n  throw new TypeError("bad input: " + text);\n}\nparse("{");\n`;
    const LOOP = `type Count = number;\n\nlet total: Count = 0;\nfor (let i: Count = 0; i < 10; i++) {\n  total += i;\n}\nconsole.log("total", total);\n`;
    await dir.write({ "package.json": '{"name": "app"}\n', "fail.ts": FAIL, "loop.ts": LOOP });
    await withPath(WITH_TSX.PATH, async () => {
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
      const thrown = await h.ok({ operation: "launch", program: "fail.ts" });
      expect(thrown.data).toMatchObject({ state: "stopped", reason: "exception", exception: "TypeError: bad input: {", frame: { name: "parse", file: "fail.ts", line: 12 } });
      const ended = await h.ok({ operation: "continue" });
      expect(ended.data).toMatchObject({ state: "exited", exit_code: 1 });
      await h.ok({ operation: "exceptions", filters: ["all"] });
      const caught = await h.ok({ operation: "restart" });
      expect(caught.data).toMatchObject({ state: "stopped", reason: "exception", frame: { name: "parse", file: "fail.ts", line: 8 } });
      expect(caught.data.exception).toContain("SyntaxError");
      await h.ok({ operation: "terminate" });
      await h.ok({ operation: "exceptions", filters: [] });

      await h.ok({ operation: "breakpoints", file: "loop.ts", lines: [{ line: 5, condition: "i === 7" }, { line: 7, log_message: "logged total={total}" }] });
      const stopped = await h.ok({ operation: "launch", program: "loop.ts" });
      expect(stopped.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { file: "loop.ts", line: 5 } });
      expect((await h.ok({ operation: "evaluate", expression: "i" })).data.result).toBe("7");
      expect((await h.ok({ operation: "evaluate", expression: "total" })).data.result).toBe("21");
      const done = await h.ok({ operation: "continue" });
      expect(done.data).toMatchObject({ state: "exited", exit_code: 0 });
      const output = (await h.ok({ operation: "output" })).data.output;
      expect(output).toContain("logged total=45");
      expect(output).toContain("total 45\n");
      // esbuild's own worker thread (tsx transforms with it) is not the program's: no note about it.
      expect(output).not.toContain("worker thread");
    });
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("an ES module in TypeScript (.mts) runs through tsx's loader: a top-level throw ends it under uncaught, and stops at its .ts line under all", async () => {
    requireTool("/usr/bin/node", "apt install nodejs");
    requireTool(join(import.meta.dir, "..", "..", "node_modules", ".bin", "tsx"), "npm install (tsx is a devDependency)");
    await using dir = await tempDir();
    await dir.write({ "package.json": '{"name": "app"}\n', "fail.mts": `type N = number;\nconst limit: N = 3;\nexport function check(n: N): N {\n  if (n > limit) throw new RangeError("too big: " + n);\n  return n;\n}\ncheck(5);\n` });
    await withPath(WITH_TSX.PATH, async () => {
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
      // node evaluates an ES module inside its loader's promise chain, so V8 counts the throw as
      // caught: "uncaught" does not stop (as for a .mjs program), and docs/debug.md says so.
      const ended = await h.ok({ operation: "launch", program: "fail.mts" });
      expect(ended.data).toMatchObject({ state: "exited", exit_code: 1 });
      expect(ended.data.output).toContain("RangeError: too big: 5");
      await h.ok({ operation: "exceptions", filters: ["all"] });
      const thrown = await h.ok({ operation: "restart" });
      expect(thrown.data).toMatchObject({ state: "stopped", reason: "exception", exception: "RangeError: too big: 5", frame: { name: "check", file: "fail.mts", line: 4 } });
    });
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a function breakpoint, a hit condition, step_in/step_out, scopes and variables, stdin, run_to and pause, in .ts lines", async () => {
    requireTool("/usr/bin/node", "apt install nodejs");
    requireTool(join(import.meta.dir, "..", "..", "node_modules", ".bin", "tsx"), "npm install (tsx is a devDependency)");
    await using dir = await tempDir();
    // Type-only lines first, so every .ts line differs from the JavaScript line node runs.
    const WORDS = `import { readFileSync } from "node:fs";
type Word = string;
interface Counted {
  word: Word;
}

function shout(word: Word): Word {
  const loud: Word = word.toUpperCase();
  return loud;
}

const words: Word[] = readFileSync(0, "utf8").trim().split(" ");
for (const word of words) {
  const counted: Counted = { word: shout(word) };
  console.log(counted.word);
}
console.log("done");
`;
    const SPIN = "type Tick = number;\nlet ticks: Tick = 0;\nwhile (true) {\n  ticks++;\n}\n";
    await dir.write({ "package.json": '{"name": "app"}\n', "words.ts": WORDS, "spin.ts": SPIN });
    await withPath(WITH_TSX.PATH, async () => {
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
      // tsx compiles this CommonJS program to one line that starts with esbuild's __name helper: the stop is in shout, not there.
      await h.ok({ operation: "function_breakpoints", functions: ["shout"] });
      const launched = await h.ok({ operation: "launch", program: "words.ts", stdin: "one two three" });
      expect(launched.data).toMatchObject({ state: "stopped", reason: "function breakpoint", frame: { name: "shout", file: "words.ts", line: 8 } });
      const stack = await h.ok({ operation: "stack" });
      const scopes = await h.ok({ operation: "scopes", frame_id: stack.data.frames[0].id });
      const local = scopes.data.scopes.find((scope: { name: string }) => scope.name === "Local");
      const locals = await h.ok({ operation: "variables", reference: local.reference });
      expect(locals.data.variables).toContainEqual(expect.objectContaining({ name: "word", value: '"one"' }));
      // V8 steps out to the caller's next position: the rest of line 14 has none, so the next line.
      const out = await h.ok({ operation: "step_out" });
      expect(out.data.frame).toMatchObject({ file: "words.ts", line: 15 });
      await h.ok({ operation: "function_breakpoints", functions: [] });
      await h.ok({ operation: "breakpoints", file: "words.ts", lines: [{ line: 14, hit_condition: "2" }] });
      const third = await h.ok({ operation: "continue" });
      expect(third.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { file: "words.ts", line: 14 } });
      expect((await h.ok({ operation: "evaluate", expression: "word" })).data.result).toBe('"three"');
      const into = await h.ok({ operation: "step_in" });
      expect(into.data.frame).toMatchObject({ name: "shout", file: "words.ts", line: 8 });
      await h.ok({ operation: "breakpoints", file: "words.ts", lines: [] });
      const ran = await h.ok({ operation: "run_to", file: "words.ts", line: 17 });
      expect(ran.data).toMatchObject({ state: "stopped", frame: { file: "words.ts", line: 17 } });
      expect((await h.ok({ operation: "output", offset: 0 })).data.output).toBe("ONE\nTWO\nTHREE\n");
      await h.ok({ operation: "terminate" });

      // Its own run with a short wait: launch answers "running" after it rather than after 60 s.
      await using busy = await debugHarness(dir.path, { stopWaitSeconds: 1 });
      const running = await busy.ok({ operation: "launch", program: "spin.ts" });
      expect(running.data.state).toBe("running");
      const paused = await busy.ok({ operation: "pause" });
      expect(paused.data).toMatchObject({ state: "stopped", reason: "pause", frame: { file: "spin.ts" } });
      expect([3, 4]).toContain(paused.data.frame.line);
      expect(Number((await busy.ok({ operation: "evaluate", expression: "ticks" })).data.result)).toBeGreaterThan(0);
    });
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("without tsx a TypeScript launch is refused with how to get it", async () => {
    requireTool("/usr/bin/node", "apt install nodejs");
    await using dir = await tempDir();
    await dir.write({ "package.json": "{}\n", "app.ts": APP });
    await withPath("/usr/bin:/bin", async () => {
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
      const refused = await h.call({ operation: "launch", program: "app.ts" });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain("no tsx was found to run it");
    });
  }, ADAPTER_TEST_TIMEOUT_MS);
});
