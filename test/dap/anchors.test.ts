// What the best debug servers offer, against the real adapters: set_variable, conditional and hit-count
// breakpoints, logpoints, function and exception breakpoints, stdin, restart, run_to, adapter by program.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { tempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, debugHarness, requireTool } from "./harness.ts";

function requireDebugpy(): void {
  requireTool("/usr/bin/python3", "apt install python3-debugpy");
}

function requireDelve(): void {
  requireTool("/usr/bin/dlv", "apt install delve golang-go");
}

function gcc(dir: string, source: string, output: string): void {
  requireTool("/usr/bin/gcc", "apt install gcc");
  const built = spawnSync("gcc", ["-g", "-O0", "-o", output, source], { cwd: dir, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`gcc failed: ${built.stderr}`);
}

const LOOP_GO = 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfor i := 0; i < 10; i++ {\n\t\tfmt.Println("i", i)\n\t}\n}\n';

describe("set_variable changes what the program sees, and says so only after reading it back", () => {
  test("Go: a loop variable delve's evaluate cannot assign is set, and the loop goes on from it", async () => {
    requireDelve();
    await using dir = await tempDir();
    await dir.write({ "go.mod": "module example.com/v\n\ngo 1.19\n", "main.go": LOOP_GO });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    await h.ok({ operation: "breakpoints", file: "main.go", lines: [7] });
    await h.ok({ operation: "launch", program: "." });
    const refused = await h.call({ operation: "evaluate", expression: "i = 5" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("To change a variable, call set_variable with name i and value.");
    const set = await h.ok({ operation: "set_variable", name: "i", value: "8" });
    expect(set.text).toBe("i = 8 (int) in Locals, read back after the change.");
    await h.ok({ operation: "breakpoints", file: "main.go", lines: [] });
    const done = await h.ok({ operation: "continue" });
    expect(done.data.output).toBe("i 8\ni 9\n");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("Python: a module global set from inside a function is the one the program reads", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "g.py": "counter = 1\n\ndef bump():\n    local = 2\n    return local + counter\n\nprint(bump())\n" });
    await using h = await debugHarness(dir.path);
    await h.ok({ operation: "breakpoints", file: "g.py", lines: [5] });
    await h.ok({ operation: "launch", program: "g.py" });
    const statement = await h.ok({ operation: "evaluate", expression: "counter = 10" });
    expect(statement.text).toContain("counter is a global of this frame's module");
    const set = await h.ok({ operation: "set_variable", name: "counter", value: "30" });
    expect(set.text).toContain("counter = 30 (int) in Globals, read back after the change.");
    await h.ok({ operation: "breakpoints", file: "g.py", lines: [] });
    const done = await h.ok({ operation: "continue" });
    expect(done.data.output).toBe("32\n");
  }, ADAPTER_TEST_TIMEOUT_MS);
});

describe("breakpoints with conditions, hit counts and log messages; functions; exceptions", () => {
  const LOOP_PY = "total = 0\nfor i in range(10):\n    total += i\n    print('step', i)\nprint('total', total)\n";

  test("debugpy: a condition, a hit count and a logpoint each do what they say", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "loop.py": LOOP_PY });
    await using h = await debugHarness(dir.path);
    const set = await h.ok({ operation: "breakpoints", file: "loop.py", lines: [{ line: 3, condition: "i == 7" }, { line: 5, log_message: "total is {total}" }] });
    expect(set.text).toContain("loop.py:3 not verified [if i == 7]");
    const stopped = await h.ok({ operation: "launch", program: "loop.py" });
    expect(stopped.data).toMatchObject({ state: "stopped", frame: { line: 3 } });
    expect((await h.ok({ operation: "evaluate", expression: "i" })).data.result).toBe("7");
    await h.ok({ operation: "breakpoints", file: "loop.py", lines: [{ line: 4, hit_condition: "2" }, { line: 5, log_message: "total is {total}" }] });
    const second = await h.ok({ operation: "continue" });
    expect(second.data.frame).toMatchObject({ line: 4 });
    expect((await h.ok({ operation: "evaluate", expression: "i" })).data.result).toBe("8"); // its 2nd hit since it was set
    await h.ok({ operation: "breakpoints", file: "loop.py", lines: [{ line: 5, log_message: "total is {total}" }] });
    const done = await h.ok({ operation: "continue" });
    expect(done.data.state).toBe("exited");
    expect(done.data.output).toContain("total is 45");
    expect(done.data.output).toContain("total 45\n");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a function breakpoint by name stops in it; what an adapter cannot do is refused by name", async () => {
    requireDelve();
    await using dir = await tempDir();
    await dir.write({
      "go.mod": "module example.com/f\n\ngo 1.19\n",
      "main.go": 'package main\n\nimport "fmt"\n\nfunc square(n int) int {\n\treturn n * n\n}\n\nfunc main() {\n\tfmt.Println(square(3))\n}\n',
    });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    await h.ok({ operation: "function_breakpoints", functions: ["main.square"] });
    await h.ok({ operation: "breakpoints", file: "main.go", lines: [{ line: 10, hit_condition: "2" }] });
    const stopped = await h.ok({ operation: "launch", program: "." });
    expect(stopped.text).toContain("breakpoint main.go:10 not verified [hits 2] (not set: delve does not support hit conditions)");
    expect(stopped.text).toContain("breakpoint function main.square verified");
    expect(stopped.data).toMatchObject({ state: "stopped", frame: { name: "main.square" } });
    const status = await h.ok({ operation: "status" });
    expect(status.text).toContain("delve does not support: hit conditions");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("debugpy: exception filters chosen by the agent stop on a caught KeyError; an unknown one is named", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "caught.py": "d = {}\ntry:\n    d['missing']\nexcept KeyError:\n    print('handled')\nprint('end')\n" });
    await using h = await debugHarness(dir.path);
    const chosen = await h.ok({ operation: "exceptions", filters: ["raised", "uncaught", "nonsense"] });
    expect(chosen.data.pending).toBe(true);
    const stopped = await h.ok({ operation: "launch", program: "caught.py" });
    expect(stopped.data).toMatchObject({ state: "stopped", reason: "exception", frame: { line: 3 } });
    expect(stopped.data.exception).toContain("KeyError");
    expect(stopped.text).toContain('debugpy has no exception filter "nonsense"; its filters: raised, uncaught, userUnhandled.');
    const off = await h.ok({ operation: "exceptions", filters: ["user_uncaught"] });
    expect(off.data.filters).toEqual(["userUnhandled"]);
    const done = await h.ok({ operation: "continue" });
    expect(done.data.state).toBe("exited");
  }, ADAPTER_TEST_TIMEOUT_MS);
});

describe("stdin for a launched program", () => {
  test("debugpy: text, and a workspace file; shell redirection in args is refused with a sentence", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "read.py": "import sys\ndata = sys.stdin.read()\nprint('read', len(data), repr(data[:12]))\n", "in.txt": "from a file\n" });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 30 });
    const text = await h.ok({ operation: "launch", program: "read.py", stdin: "hello\nworld\n" });
    expect(text.data.output).toBe("read 12 'hello\\nworld\\n'\n");
    const file = await h.ok({ operation: "launch", program: "read.py", stdin_file: "in.txt" });
    expect(file.data.output).toBe("read 12 'from a file\\n'\n");
    const shell = await h.call({ operation: "launch", program: "read.py", args: ["<", "in.txt"] });
    expect(shell.isError).toBe(true);
    expect(shell.text).toContain('"<" would reach it as a literal argument');
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("lldb: a C program reading stdin gets the text, and end of input without it, instead of waiting for ever", async () => {
    requireTool("/usr/bin/lldb-vscode-16", "apt install lldb-16");
    await using dir = await tempDir();
    await dir.write({ "rd.c": '#include <stdio.h>\nint main(void) {\n  char buf[64];\n  int n = 0;\n  while (fgets(buf, sizeof buf, stdin)) n++;\n  printf("lines %d\\n", n);\n  return 0;\n}\n' });
    gcc(dir.path, "rd.c", "rd");
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 30 });
    const fed = await h.ok({ operation: "launch", program: "rd", stdin: "a\nb\nc\n" });
    expect(fed.data).toMatchObject({ state: "exited", exit_code: 0, output: "lines 3\n" });
    const empty = await h.ok({ operation: "launch", program: "rd" });
    expect(empty.data).toMatchObject({ state: "exited", output: "lines 0\n" });
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("delve: a Go program reads the given text", async () => {
    requireDelve();
    await using dir = await tempDir();
    await dir.write({
      "go.mod": "module example.com/r\n\ngo 1.19\n",
      "main.go": 'package main\n\nimport (\n\t"fmt"\n\t"io"\n\t"os"\n)\n\nfunc main() {\n\tdata, _ := io.ReadAll(os.Stdin)\n\tfmt.Printf("read %q\\n", data)\n}\n',
    });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    const fed = await h.ok({ operation: "launch", program: ".", stdin: "to go\n" });
    expect(fed.data).toMatchObject({ state: "exited", output: 'read "to go\\n"\n' });
  }, ADAPTER_TEST_TIMEOUT_MS);
});

describe("restart, run_to", () => {
  test("run_to stops at the line through a temporary breakpoint; restart launches again with the breakpoints", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "walk.py": "print('start')\nfor i in range(3):\n    x = i * 2\n    y = x + 1\nprint('done')\n" });
    await using h = await debugHarness(dir.path);
    await h.ok({ operation: "breakpoints", file: "walk.py", lines: [2] });
    await h.ok({ operation: "launch", program: "walk.py" });
    const ran = await h.ok({ operation: "run_to", file: "walk.py", line: 4 });
    expect(ran.text).toContain("Ran to walk.py:4.");
    expect(ran.data).toMatchObject({ reached: true, frame: { line: 4 } });
    // The temporary breakpoint is gone: continuing runs to the end.
    await h.ok({ operation: "breakpoints", file: "walk.py", lines: [] });
    const done = await h.ok({ operation: "continue" });
    expect(done.data.state).toBe("exited");
    await h.ok({ operation: "breakpoints", file: "walk.py", lines: [5] });
    const again = await h.ok({ operation: "restart" });
    expect(again.text).toStartWith("Restarted walk.py (debugpy).");
    expect(again.data).toMatchObject({ state: "stopped", frame: { line: 5 } });
  }, ADAPTER_TEST_TIMEOUT_MS);
});

describe("the program decides the adapter; project markers only set the working directory", () => {
  test("a C binary built by a Makefile, a script folder with no pyproject; a shell script is refused with the reason", async () => {
    requireDebugpy();
    requireTool("/usr/bin/lldb-vscode-16", "apt install lldb-16");
    await using dir = await tempDir();
    await dir.write({
      "Makefile": "hello: hello.c\n\tgcc -g -o hello hello.c\n",
      "hello.c": '#include <stdio.h>\nint main(void) { printf("hello\\n"); return 0; }\n',
      "scripts/tool.py": "import os\nprint(os.getcwd())\n",
      "tools/run.sh": "echo 1\n",
    });
    gcc(dir.path, "hello.c", "hello");
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 30 });
    const c = await h.ok({ operation: "launch", program: "hello" });
    expect(c.data).toMatchObject({ state: "exited", output: "hello\n" });
    expect(c.text).toContain("hello (lldb)");
    const py = await h.ok({ operation: "launch", program: "scripts/tool.py" });
    expect(py.data).toMatchObject({ state: "exited", output: `${dir.path}\n` });
    const sh = await h.call({ operation: "launch", program: "tools/run.sh" });
    expect(sh.isError).toBe(true);
    expect(sh.text).toContain("No debug adapter here takes tools/run.sh");
  }, ADAPTER_TEST_TIMEOUT_MS);
});
