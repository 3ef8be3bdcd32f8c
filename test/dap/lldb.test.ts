// debug over real lldb-vscode/lldb-dap: a gcc-built C program — breakpoints, frames, steps, output, crash, pause.
import { describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { freePort } from "../helpers/free-port.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, debugHarness, killSession, requireTool, untilListening, untilOutput } from "./harness.ts";

const MAIN = `#include <stdio.h>
#include <stdlib.h>

int square(int n) {
  int result = n * n;
  return result;
}

int main(int argc, char **argv) {
  int total = 0;
  for (int i = 0; i < 3; i++) {
    total += square(i);
  }
  printf("total %d\\n", total);
  fflush(stdout);
  fprintf(stderr, "warn\\n");
  if (argc > 1 && argv[1][0] == 'c') {
    int *nothing = 0;
    return *nothing;
  }
  if (argc > 1 && argv[1][0] == 's') {
    volatile long n = 0;
    for (;;) n++;
  }
  return 3;
}
`;

async function buildProgram(dir: TempDir): Promise<void> {
  requireTool("/usr/bin/gcc", "apt install gcc");
  requireTool("/usr/bin/lldb-vscode-16", "apt install lldb-16");
  await dir.write({ "CMakeLists.txt": "project(app C)\nadd_executable(app main.c)\n", "main.c": MAIN });
  const gcc = spawnSync("gcc", ["-g", "-O0", "-o", "app", "main.c"], { cwd: dir.path, encoding: "utf8" });
  if (gcc.status !== 0) throw new Error(`gcc failed: ${gcc.stderr}`);
}

describe("debug with lldb", () => {
  test("breakpoint, stack, variables, evaluate, steps, continue to exit with output", async () => {
    await using dir = await tempDir();
    await buildProgram(dir);
    await using h = await debugHarness(dir.path);
    await h.ok({ operation: "breakpoints", file: "main.c", lines: [12] });
    const launched = await h.ok({ operation: "launch", program: "app" });
    expect(launched.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { file: "main.c", line: 12, source: "total += square(i);" } });

    const stack = await h.ok({ operation: "stack" });
    expect(stack.data.frames[0]).toMatchObject({ name: "main", line: 12 });
    const scopes = await h.ok({ operation: "scopes", frame_id: stack.data.frames[0].id });
    const locals = scopes.data.scopes.find((s: { name: string }) => s.name === "Locals");
    const vars = await h.ok({ operation: "variables", reference: locals.reference });
    expect(vars.data.variables).toContainEqual(expect.objectContaining({ name: "total", value: "0" }));
    expect((await h.ok({ operation: "evaluate", expression: "total + 100" })).data.result).toBe("100");

    const stepIn = await h.ok({ operation: "step_in" });
    expect(stepIn.data.frame).toMatchObject({ name: "square", file: "main.c", line: 5 });
    const stepOut = await h.ok({ operation: "step_out" });
    expect(stepOut.data.frame).toMatchObject({ name: "main", line: 12 });

    const moved = await h.ok({ operation: "breakpoints", file: "main.c", lines: [8] }); // a blank line
    expect(moved.text).toContain("main.c:8 is blank: the breakpoint goes on line 9, the next line with code.");
    expect(moved.data.breakpoints[0]).toMatchObject({ line: 9, verified: true, actual_line: 10 });
    expect(moved.text).toContain("main.c:9 verified, moved to line 10");
    await h.ok({ operation: "breakpoints", file: "main.c", lines: [] });
    const done = await h.ok({ operation: "continue" });
    expect(done.data).toMatchObject({ state: "exited", exit_code: 3 });
    const output = await h.ok({ operation: "output" });
    expect(output.data.output).toContain("total 5\n");
    expect(output.data.output).toContain("warn\n");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a crash stops with the exception text at the faulting line", async () => {
    await using dir = await tempDir();
    await buildProgram(dir);
    await using h = await debugHarness(dir.path);
    const crashed = await h.ok({ operation: "launch", program: "app", args: ["crash"] });
    expect(crashed.data).toMatchObject({ state: "stopped", reason: "exception", frame: { file: "main.c", line: 19 } });
    expect(crashed.data.exception).toMatch(/SIGSEGV|EXC_BAD_ACCESS|invalid address/i);
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("pause stops a busy loop", async () => {
    await using dir = await tempDir();
    await buildProgram(dir);
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 1 });
    const started = await h.ok({ operation: "launch", program: "app", args: ["spin"] });
    expect(started.data.state).toBe("running");
    await untilOutput(h, started.data.output, "total 5"); // it spins only after printing
    const paused = await h.ok({ operation: "pause" });
    expect(paused.data).toMatchObject({ state: "stopped", reason: "pause", frame: { file: "main.c", name: "main", line: 23 } });
    expect(paused.data.exception).toBeUndefined();
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("attach through lldb-server gdbserver", async () => {
    await using dir = await tempDir();
    await buildProgram(dir);
    requireTool("/usr/bin/lldb-server-16", "apt install lldb-16");
    const port = await freePort();
    const server = spawn("/usr/bin/lldb-server-16", ["gdbserver", `127.0.0.1:${port}`, "./app"], { cwd: dir.path, stdio: "ignore", detached: true });
    try {
      await using h = await debugHarness(dir.path);
      await h.ok({ operation: "breakpoints", file: "main.c", lines: [12] });
      await untilListening(port);
      const attached = await h.ok({ operation: "attach", port });
      expect(attached.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { file: "main.c", line: 12 } });
      const vars = await h.ok({ operation: "evaluate", expression: "i" });
      expect(vars.data.result).toBe("0");
      await h.ok({ operation: "terminate" });
    } finally {
      killSession(server.pid);
    }
  }, ADAPTER_TEST_TIMEOUT_MS);
});
