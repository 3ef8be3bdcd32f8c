// debug over the sidecar's own Node.js adapter and real Node 20: JavaScript programs, launched.
import { describe, expect, test } from "bun:test";
import { getPriority } from "node:os";
import { CHILD_NICE_STEPS } from "../../src/process/group.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, debugHarness, requireTool } from "./harness.ts";

const PROGRAM = `function square(n) {
  const result = n * n;
  return result;
}

let total = 0;
for (let i = 0; i < 5; i++) {
  total += square(i);
}
const limit = 3;
console.log("total", total, "limit", limit);
console.error("warn");
`;

const PROJECT = { "package.json": '{"name": "app"}\n', "main.js": PROGRAM };

function requireNode(): void {
  requireTool("/usr/bin/node", "apt install nodejs");
}

describe("debug with node: JavaScript", () => {
  test("breakpoint, stack, scopes, variables, evaluate, steps, continue to exit with output", async () => {
    requireNode();
    await using dir = await tempDir();
    await dir.write(PROJECT);
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    const found = await h.ok({ operation: "adapters" });
    expect(found.text).toMatch(/node.*usable|usable.*node/is);
    await h.ok({ operation: "breakpoints", file: "main.js", lines: [8] });
    const launched = await h.ok({ operation: "launch", program: "main.js" });
    expect(launched.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { file: "main.js", line: 8, source: "total += square(i);" } });

    const stack = await h.ok({ operation: "stack" });
    expect(stack.data.frames[0]).toMatchObject({ line: 8 });
    const scopes = await h.ok({ operation: "scopes", frame_id: stack.data.frames[0].id });
    const block = scopes.data.scopes.find((s: { name: string }) => s.name === "Block");
    const blockVars = await h.ok({ operation: "variables", reference: block.reference });
    expect(blockVars.data.variables).toContainEqual(expect.objectContaining({ name: "i", value: "0" }));
    expect((await h.ok({ operation: "evaluate", expression: "total + 100" })).data.result).toBe("100");

    const stepIn = await h.ok({ operation: "step_in" });
    expect(stepIn.data.frame).toMatchObject({ name: "square", file: "main.js", line: 2 });
    const stepOver = await h.ok({ operation: "step_over" });
    expect(stepOver.data.frame).toMatchObject({ name: "square", line: 3 });
    const stepOut = await h.ok({ operation: "step_out" });
    // V8 steps out to the caller's next position: the loop's update (line 7) once the assignment is done.
    expect(stepOut.data.frame.line).toBe(7);

    await h.ok({ operation: "breakpoints", file: "main.js", lines: [] });
    const done = await h.ok({ operation: "continue" });
    expect(done.data).toMatchObject({ state: "exited", exit_code: 0 });
    const output = await h.ok({ operation: "output" });
    expect(output.data.output).toContain("total 30 limit 3\n");
    expect(output.data.output).toContain("warn\n");
    expect(output.data.output).not.toContain("Debugger"); // node's own inspector lines are not the program's
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a conditional breakpoint in a loop, a hit condition, a logpoint, and set_variable changing what the program prints", async () => {
    requireNode();
    await using dir = await tempDir();
    await dir.write(PROJECT);
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    await h.ok({ operation: "breakpoints", file: "main.js", lines: [{ line: 8, condition: "i === 3" }, { line: 11, log_message: "done: {total} of {limit}" }] });
    await h.ok({ operation: "breakpoints", file: "main.js", lines: [{ line: 8, condition: "i === 3" }, { line: 11, log_message: "done: {total} of {limit}" }] });
    const launched = await h.ok({ operation: "launch", program: "main.js" });
    expect(launched.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { line: 8 } });
    expect((await h.ok({ operation: "evaluate", expression: "i" })).data.result).toBe("3");
    expect((await h.ok({ operation: "evaluate", expression: "total" })).data.result).toBe("5"); // 0 + 1 + 4

    const set = await h.ok({ operation: "set_variable", name: "total", value: "100" });
    expect(set.data).toMatchObject({ name: "total", value: "100" });
    const done = await h.ok({ operation: "continue" });
    expect(done.data).toMatchObject({ state: "exited", exit_code: 0 });
    const output = (await h.ok({ operation: "output" })).data.output;
    // 100 + 9 + 16: the program went on from the value set, and the logpoint logged without stopping.
    expect(output).toContain("done: 125 of 3\n");
    expect(output).toContain("total 125 limit 3\n");

    // A hit condition: the third call of square stops (n is 2), once.
    await h.ok({ operation: "breakpoints", file: "main.js", lines: [{ line: 2, hit_condition: "3" }] });
    const again = await h.ok({ operation: "restart" });
    expect(again.data).toMatchObject({ state: "stopped", frame: { name: "square", line: 2 } });
    expect((await h.ok({ operation: "evaluate", expression: "n" })).data.result).toBe("2");
    expect((await h.ok({ operation: "continue" })).data.state).toBe("exited");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("an uncaught exception stops with its text, then the program exits with node's code; caught ones stop when asked", async () => {
    requireNode();
    await using dir = await tempDir();
    await dir.write({
      "package.json": "{}\n",
      "fail.js": 'function parse(text) {\n  try {\n    JSON.parse(text);\n  } catch {\n    console.log("caught");\n  }\n  throw new TypeError("bad input: " + text);\n}\nparse("{");\n',
    });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    const launched = await h.ok({ operation: "launch", program: "fail.js" });
    expect(launched.data).toMatchObject({ state: "stopped", reason: "exception", exception: "TypeError: bad input: {", frame: { name: "parse", line: 7 } });
    const ended = await h.ok({ operation: "continue" });
    expect(ended.data).toMatchObject({ state: "exited", exit_code: 1 });
    expect((await h.ok({ operation: "output" })).data.output).toContain("TypeError: bad input: {");

    await h.ok({ operation: "exceptions", filters: ["all"] });
    const caught = await h.ok({ operation: "restart" });
    expect(caught.data).toMatchObject({ state: "stopped", reason: "exception", frame: { name: "parse", line: 3 } });
    expect(caught.data.exception).toContain("SyntaxError");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a function breakpoint stops at the function's first line; pause stops a busy program", async () => {
    requireNode();
    await using dir = await tempDir();
    await dir.write({ ...PROJECT, "spin.js": "let n = 0;\nfunction spin() {\n  for (;;) {\n    n++;\n  }\n}\nspin();\n" });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    await h.ok({ operation: "function_breakpoints", functions: ["square"] });
    const launched = await h.ok({ operation: "launch", program: "main.js" });
    expect(launched.data).toMatchObject({ state: "stopped", reason: "function breakpoint", frame: { name: "square", line: 2 } });
    await h.ok({ operation: "terminate" });

    await h.ok({ operation: "function_breakpoints", functions: [] });
    await using busy = await debugHarness(dir.path, { stopWaitSeconds: 1 });
    const running = await busy.ok({ operation: "launch", program: "spin.js" });
    expect(running.data.state).toBe("running");
    const paused = await busy.ok({ operation: "pause" });
    expect(paused.data).toMatchObject({ state: "stopped", reason: "pause", frame: { name: "spin", file: "spin.js" } });
    expect(Number((await busy.ok({ operation: "evaluate", expression: "n" })).data.result)).toBeGreaterThan(0);
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("stdin reaches the program, run_to stops at a line, and a program's own exit code is reported", async () => {
    requireNode();
    await using dir = await tempDir();
    await dir.write({
      "package.json": "{}\n",
      "echo.js": 'const text = require("node:fs").readFileSync(0, "utf8");\nconst words = text.split(" ");\nconst count = words.length;\nconsole.log("words", count);\nprocess.exit(count);\n',
    });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    await h.ok({ operation: "breakpoints", file: "echo.js", lines: [2] });
    const launched = await h.ok({ operation: "launch", program: "echo.js", stdin: "one two three" });
    expect(launched.data).toMatchObject({ state: "stopped", frame: { line: 2 } });
    // Started at our priority (its start-up is waited for), the adapter and the program go below it once launch answered.
    const { debuggee_pid, adapter_pid } = (await h.ok({ operation: "status" })).data;
    expect(getPriority(debuggee_pid)).toBeGreaterThanOrEqual(Math.min(19, getPriority() + CHILD_NICE_STEPS));
    expect(getPriority(adapter_pid)).toBeGreaterThanOrEqual(Math.min(19, getPriority() + CHILD_NICE_STEPS));
    expect((await h.ok({ operation: "evaluate", expression: "text" })).data.result).toBe('"one two three"');
    const reached = await h.ok({ operation: "run_to", file: "echo.js", line: 4 });
    expect(reached.data).toMatchObject({ state: "stopped", frame: { line: 4 } });
    const ended = await h.ok({ operation: "continue" });
    expect(ended.data).toMatchObject({ state: "exited", exit_code: 3, output: "words 3\n" });
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a worker thread the program starts is named in its output as not debugged", async () => {
    requireNode();
    await using dir = await tempDir();
    await dir.write({
      "package.json": "{}\n",
      "pool.js": 'const { Worker } = require("node:worker_threads");\nconst worker = new Worker("require(\\"node:worker_threads\\").parentPort.postMessage(42)", { eval: true });\nworker.on("message", (value) => console.log("from worker", value));\n',
    });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    const launched = await h.ok({ operation: "launch", program: "pool.js" });
    expect(launched.text).toContain("Child processes and worker threads are not debugged");
    expect(launched.data.state).toBe("exited");
    const output = (await h.ok({ operation: "output" })).data.output;
    expect(output).toContain("from worker 42\n");
    expect(output).toContain("[sidecar debugger] the program started a worker thread");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a child the program forks runs undebugged instead of waiting for a debugger", async () => {
    requireNode();
    await using dir = await tempDir();
    await dir.write({
      "package.json": "{}\n",
      "forker.js": 'const { fork } = require("node:child_process");\nif (process.argv[2] === "child") {\n  console.log("child ran");\n  process.exit(0);\n}\nfork(__filename, ["child"]).on("exit", (code) => console.log("child exited", code));\n',
    });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    const launched = await h.ok({ operation: "launch", program: "forker.js" });
    expect(launched.data).toMatchObject({ state: "exited", exit_code: 0 });
    const output = (await h.ok({ operation: "output" })).data.output;
    expect(output).toContain("child ran\n");
    expect(output).toContain("child exited 0\n");
  }, ADAPTER_TEST_TIMEOUT_MS);
});
