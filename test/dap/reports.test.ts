// Reports that are true: output complete at a stop and paged by `output`, breakpoint lines checked
// against the file, steps from the shown frame, exits and signals named as they happened.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, debugHarness, requireTool, untilOutput } from "./harness.ts";

async function buildC(dir: TempDir, source: string): Promise<void> {
  requireTool("/usr/bin/gcc", "apt install gcc");
  requireTool("/usr/bin/lldb-vscode-16", "apt install lldb-16");
  await dir.write({ "CMakeLists.txt": "project(app C)\nadd_executable(app main.c)\n", "main.c": source });
  const gcc = spawnSync("gcc", ["-g", "-O0", "-o", "app", "main.c"], { cwd: dir.path, encoding: "utf8" });
  if (gcc.status !== 0) throw new Error(`gcc failed: ${gcc.stderr}`);
}

describe("a stop report's output is what the program printed before the stop", () => {
  test("50,000 lines, then a breakpoint: the report ends with the last line, and output pages through the rest", async () => {
    requireTool("/usr/bin/python3", "apt install python3-debugpy");
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "flood.py": "for i in range(50000):\n    print('line', i)\nx = 1\nprint('after')\n" });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 120 });
    await h.ok({ operation: "breakpoints", file: "flood.py", lines: [3] });
    const stopped = await h.ok({ operation: "launch", program: "flood.py" });
    expect(stopped.data).toMatchObject({ state: "stopped", frame: { line: 3 } });
    expect(stopped.data.output).toEndWith("line 49999\n");
    expect(stopped.data.output_incomplete).toBeUndefined();
    // The report keeps head and tail and names the middle by offsets, which output returns.
    const { from, to } = stopped.data.output_cut;
    expect(stopped.text).toContain(`output with offset ${from} returns them`);
    const middle = await h.ok({ operation: "output", offset: from });
    expect(middle.data.from).toBe(from);
    expect(middle.data.output.length).toBe(16_000);
    // Page by page, nothing is skipped: each page starts where the last ended, until none is left.
    let page = await h.ok({ operation: "output" });
    let pages = 1;
    while (page.data.more > 0) {
      const next = await h.ok({ operation: "output" });
      expect(next.data.from).toBe(page.data.to);
      page = next;
      pages++;
    }
    expect(pages).toBeGreaterThan(1);
    expect(page.data.output).toEndWith("line 49999\n");
    expect(page.data.to).toBe(to + 2_000);
    expect((await h.ok({ operation: "output" })).text).toBe("No new output.");
  }, ADAPTER_TEST_TIMEOUT_MS);
});

describe("breakpoint lines are checked against the file", () => {
  test("a comment moves to the next code line, past the end and a missing file are refused with a sentence", async () => {
    requireTool("/usr/bin/python3", "apt install python3-debugpy");
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "app.py": "def f(x):\n    # double it\n\n    y = x * 2\n    return y\n\nprint(f(4))\n" });
    await using h = await debugHarness(dir.path);
    const moved = await h.ok({ operation: "breakpoints", file: "app.py", lines: [2] });
    expect(moved.text).toContain("app.py:2 is a comment: the breakpoint goes on line 4, the next line with code.");
    expect(moved.data.breakpoints[0]).toMatchObject({ line: 4 });
    const blank = await h.ok({ operation: "breakpoints", file: "app.py", lines: [3, 5] });
    expect(blank.text).toContain("app.py:3 is blank: the breakpoint goes on line 4");
    const past = await h.call({ operation: "breakpoints", file: "app.py", lines: [200] });
    expect(past.isError).toBe(true);
    expect(past.text).toBe("app.py has 7 lines; line 200 is past its end. Nothing was set.");
    const missing = await h.call({ operation: "breakpoints", file: "nope.py", lines: [1] });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("There is no file nope.py in the workspace");
    // The moved breakpoint is hit where the answer said.
    await h.ok({ operation: "breakpoints", file: "app.py", lines: [2] });
    const launched = await h.ok({ operation: "launch", program: "app.py" });
    expect(launched.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { line: 4 } });
  }, ADAPTER_TEST_TIMEOUT_MS);
});

describe("steps start from the frame the report showed", () => {
  test("lldb: after a pause in usleep, step_over lands on the project's next line, not in libc", async () => {
    await using dir = await tempDir();
    await buildC(dir, '#include <stdio.h>\n#include <unistd.h>\n\nint main(void) {\n  printf("go\\n");\n  fflush(stdout);\n  for (long n = 0;; n++) {\n    usleep(50000);\n    n += 1;\n  }\n}\n');
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 2 });
    const started = await h.ok({ operation: "launch", program: "app" });
    await untilOutput(h, started.data.output, "go");
    const paused = await h.ok({ operation: "pause" });
    expect(paused.data).toMatchObject({ state: "stopped", reason: "pause", frame: { file: "main.c", name: "main", line: 8 } });
    const stepped = await h.ok({ operation: "step_over" });
    expect(stepped.text).toMatch(/First returned to the shown frame from \d+ frame\(s\) above it/);
    expect(stepped.data).toMatchObject({ state: "stopped", frame: { file: "main.c", name: "main", line: 9 } });
    const again = await h.ok({ operation: "step_over" });
    expect(again.data.frame).toMatchObject({ file: "main.c", line: 7 });
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("delve: after a pause in time.Sleep, step_over stays in the project's code", async () => {
    requireTool("/usr/bin/dlv", "apt install delve golang-go");
    await using dir = await tempDir();
    await dir.write({
      "go.mod": "module example.com/s\n\ngo 1.19\n",
      "main.go": 'package main\n\nimport (\n\t"fmt"\n\t"time"\n)\n\nfunc main() {\n\tfmt.Println("go")\n\tn := 0\n\tfor {\n\t\ttime.Sleep(50 * time.Millisecond)\n\t\tn++\n\t}\n}\n',
    });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 2 });
    const started = await h.ok({ operation: "launch", program: "." });
    await untilOutput(h, started.data.output, "go");
    const paused = await h.ok({ operation: "pause" });
    expect(paused.data).toMatchObject({ state: "stopped", frame: { file: "main.go", name: "main.main", line: 12 } });
    const stepped = await h.ok({ operation: "step_over" });
    expect(stepped.data).toMatchObject({ state: "stopped", frame: { file: "main.go", name: "main.main", line: 13 } });
  }, ADAPTER_TEST_TIMEOUT_MS);
});

describe("exits, signals, TTL and status are told as they are", () => {
  test("a Go program's exit code is given", async () => {
    requireTool("/usr/bin/dlv", "apt install delve golang-go");
    await using dir = await tempDir();
    await dir.write({ "go.mod": "module example.com/e\n\ngo 1.19\n", "main.go": 'package main\n\nimport "os"\n\nfunc main() {\n\tos.Exit(3)\n}\n' });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    const done = await h.ok({ operation: "launch", program: "." });
    expect(done.data).toMatchObject({ state: "exited", exit_code: 3 });
    expect(done.text).toContain("The program exited with code 3.");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a C program killed by SIGSEGV is reported as the signal, not as exit code 11", async () => {
    await using dir = await tempDir();
    await buildC(dir, "int main(void) {\n  int *p = 0;\n  *p = 1;\n  return 0;\n}\n");
    await using h = await debugHarness(dir.path);
    const crashed = await h.ok({ operation: "launch", program: "app" });
    expect(crashed.data).toMatchObject({ state: "stopped", reason: "exception" });
    const died = await h.ok({ operation: "continue" });
    expect(died.data).toMatchObject({ state: "exited", signal: "SIGSEGV", signal_certain: true });
    expect(died.text).toContain("The program was killed by SIGSEGV (signal 11");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("status with no session is an answer; a Python breakpoint is not replayed into a Go session", async () => {
    requireTool("/usr/bin/dlv", "apt install delve golang-go");
    await using dir = await tempDir();
    await dir.write({
      "go.mod": "module example.com/m\n\ngo 1.19\n",
      "main.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hi")\n}\n',
      "tool.py": "x = 1\nprint(x)\n",
    });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    const none = await h.call({ operation: "status" });
    expect(none.isError).toBe(false);
    expect(none.data.state).toBe("none");
    await h.ok({ operation: "breakpoints", file: "tool.py", lines: [2] });
    const launched = await h.ok({ operation: "launch", program: "." });
    expect(launched.data.state).toBe("exited");
    expect(Object.keys(launched.data.breakpoints)).toEqual([]);
    expect(launched.text).toContain("Breakpoints in 1 file(s) of another language were kept for a session that debugs them, not sent to delve.");
  }, ADAPTER_TEST_TIMEOUT_MS);
});
