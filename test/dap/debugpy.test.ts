// debug over real debugpy: breakpoints, inspection, stepping, output, exceptions, pause, attach, .venv.
import { describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { freePort } from "../helpers/free-port.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, debugHarness, requireDebugpy, untilListening } from "./harness.ts";

const APP = `import sys

def square(n):
    result = n * n
    return result

def main():
    total = 0
    for i in range(3):
        total += square(i)
    print("total", total)
    print("warn", file=sys.stderr)
    return total

main()
`;

describe("debug with debugpy", () => {
  test("breakpoint, stack, scopes, variables, evaluate, steps, continue to exit with output", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "[project]\nname='x'\n", "app.py": APP });
    await using h = await debugHarness(dir.path);

    const bp = await h.ok({ operation: "breakpoints", file: "app.py", lines: [10] });
    expect(bp.data.pending).toBe(true);
    const launched = await h.ok({ operation: "launch", program: "app.py" });
    expect(launched.data.state).toBe("stopped");
    expect(launched.data.reason).toBe("breakpoint");
    expect(launched.data.frame).toMatchObject({ file: "app.py", line: 10, source: "total += square(i)" });
    expect(launched.data.breakpoints[`${dir.path}/app.py`][0]).toMatchObject({ line: 10, verified: true });

    const stack = await h.ok({ operation: "stack" });
    expect(stack.data.frames[0]).toMatchObject({ name: "main", line: 10 });
    expect(stack.data.frames[1]).toMatchObject({ name: "<module>", line: 15 });
    const scopes = await h.ok({ operation: "scopes", frame_id: stack.data.frames[0].id });
    const locals = scopes.data.scopes.find((s: { name: string }) => s.name === "Locals");
    const vars = await h.ok({ operation: "variables", reference: locals.reference });
    expect(vars.data.variables.map((x: { name: string }) => x.name)).toEqual(["i", "total"]);
    expect(vars.text).not.toContain("special variables");
    const evaluated = await h.ok({ operation: "evaluate", expression: "total + 100" });
    expect(evaluated.data.result).toBe("100");
    const statement = await h.ok({ operation: "evaluate", expression: "probe = 42" });
    expect(statement.text).toBe("(no value: it ran as a statement)");
    expect((await h.ok({ operation: "evaluate", expression: "probe" })).data.result).toBe("42");

    const stepIn = await h.ok({ operation: "step_in" });
    expect(stepIn.data.frame).toMatchObject({ name: "square", line: 4 });
    const stepOver = await h.ok({ operation: "step_over" });
    expect(stepOver.data.frame).toMatchObject({ name: "square", line: 5 });
    const stale = await h.call({ operation: "scopes", frame_id: stack.data.frames[0].id });
    expect(stale.isError).toBe(true);
    expect(stale.text).toContain("the program moved on — call stack again");
    const stepOut = await h.ok({ operation: "step_out" });
    expect(stepOut.data.frame).toMatchObject({ name: "main", line: 10 });

    await h.ok({ operation: "breakpoints", file: "app.py", lines: [] });
    const done = await h.ok({ operation: "continue" });
    expect(done.data.state).toBe("exited");
    expect(done.data.exit_code).toBe(0);
    const output = await h.ok({ operation: "output" });
    expect(output.data.output).toContain("total 5\n");
    expect(output.data.output).toContain("warn\n");
    const again = await h.call({ operation: "step_over" });
    expect(again.isError).toBe(true);
    expect(again.text).toContain("exited with code 0");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("an uncaught exception stops with its text, and a second launch is refused", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "requirements.txt": "", "boom.py": "def f():\n    raise ValueError('bad input 42')\n\nf()\n" });
    await using h = await debugHarness(dir.path);
    const launched = await h.ok({ operation: "launch", program: "boom.py" });
    expect(launched.data).toMatchObject({ state: "stopped", reason: "exception" });
    expect(launched.data.exception).toContain("bad input 42");
    expect(launched.data.frame).toMatchObject({ file: "boom.py", line: 2 });
    const second = await h.call({ operation: "launch", program: "boom.py" });
    expect(second.isError).toBe(true);
    expect(second.text).toContain("already running: boom.py (debugpy), stopped at boom.py:2");
    // The refusal and status word the TTL left the same way.
    expect(second.text).toMatch(/\d+ min \d+ s of its TTL left/);
    expect((await h.ok({ operation: "status" })).text).toMatch(/\d+ min \d+ s of TTL left/);
    await h.ok({ operation: "terminate" });
    const third = await h.ok({ operation: "launch", program: "boom.py" });
    expect(third.data.state).toBe("stopped");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a program that starts another Python process runs to its end", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "setup.py": "", "parent.py": "import subprocess, sys\nsubprocess.run([sys.executable, '-c', 'print(\"from the child\")'], check=True)\nprint('parent done')\n" });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 20 });
    const launched = await h.ok({ operation: "launch", program: "parent.py" });
    expect(launched.data.state).toBe("exited");
    expect(launched.data.output).toContain("from the child");
    expect(launched.data.output).toContain("parent done");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("pause stops a busy loop that did not stop in time", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "setup.py": "", "spin.py": "n = 0\nwhile True:\n    n += 1\n" });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 1 });
    const launched = await h.ok({ operation: "launch", program: "spin.py" });
    expect(launched.data).toMatchObject({ state: "running" });
    expect(launched.data.waited_ms).toBeGreaterThan(0);
    const paused = await h.ok({ operation: "pause" });
    expect(paused.data).toMatchObject({ state: "stopped", reason: "pause" });
    expect(paused.data.frame.file).toBe("spin.py");
    const n = await h.ok({ operation: "evaluate", expression: "n > 0" });
    expect(n.data.result).toBe("True");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("attach to a debuggee listening with debugpy --listen", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "served.py": "import time\nfor i in range(600):\n    x = i\n    time.sleep(0.1)\n" });
    const port = await freePort();
    const debuggee = spawn("/usr/bin/python3", ["-m", "debugpy", "--listen", `127.0.0.1:${port}`, "--wait-for-client", "served.py"], {
      cwd: dir.path,
      stdio: "ignore",
    });
    try {
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 30 });
      await h.ok({ operation: "breakpoints", file: "served.py", lines: [3] });
      await untilListening(port);
      const attached = await h.ok({ operation: "attach", port });
      expect(attached.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { file: "served.py", line: 3 } });
      const ended = await h.ok({ operation: "terminate" });
      expect(ended.text).toContain(`detached from the program (pid ${debuggee.pid}), which is running`);
    } finally {
      debuggee.kill("SIGKILL");
    }
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("the project's .venv is preferred over python3 on PATH when the workspace is trusted", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "which.py": "import sys\nprint(sys.prefix)\n" });
    const venv = spawnSync("/usr/bin/python3", ["-m", "venv", "--system-site-packages", "--without-pip", ".venv"], { cwd: dir.path });
    if (venv.status !== 0) throw new Error(`python3 -m venv failed (install with: apt install python3-venv): ${venv.stderr}`);
    await using h = await debugHarness(dir.path, {}, { trust: "workspace" });
    const adapters = await h.ok({ operation: "adapters" });
    const debugpy = adapters.data.adapters.find((a: { adapter: string }) => a.adapter === "debugpy");
    expect(debugpy).toMatchObject({ usable: true });
    expect(debugpy.detail).toContain(".venv/bin/python");
    const done = await h.ok({ operation: "launch", program: "which.py" });
    expect(done.data.state).toBe("exited");
    expect((await h.ok({ operation: "output" })).data.output).toContain(`${dir.path}/.venv`);
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("variables are capped at 50 children and values at 400 characters, each cap saying so", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "big.py": "items = list(range(120))\nlong = 'x' * 1000\nprint(len(items))\n" });
    await using h = await debugHarness(dir.path);
    await h.ok({ operation: "breakpoints", file: "big.py", lines: [3] });
    await h.ok({ operation: "launch", program: "big.py" });
    const frame = (await h.ok({ operation: "stack" })).data.frames[0];
    const scopes = (await h.ok({ operation: "scopes", frame_id: frame.id })).data.scopes;
    const globals = await h.ok({ operation: "variables", reference: scopes[0].reference });
    const long = globals.data.variables.find((x: { name: string }) => x.name === "long");
    expect(long.value).toEndWith("… (602 more characters)");
    const items = globals.data.variables.find((x: { name: string }) => x.name === "items");
    const children = await h.ok({ operation: "variables", reference: items.reference });
    expect(children.data.variables).toHaveLength(50);
    const total = children.data.total;
    expect(children.data.note).toBe(`50 of ${total} shown (1–50); pass offset 50 for the next`);
    expect(children.text).toContain(children.data.note);
    const next = await h.ok({ operation: "variables", reference: items.reference, offset: 50 });
    expect(next.data.variables[0].name).toBe("050");
    const last = await h.ok({ operation: "variables", reference: items.reference, offset: 100 });
    expect(last.data.variables).toHaveLength(total - 100);
    expect(last.data.note).toBe(`${total - 100} of ${total} shown (101–${total})`);
    const past = await h.call({ operation: "variables", reference: items.reference, offset: total });
    expect(past.text).toContain(`offset ${total} is past the end: there are ${total} row(s)`);
    // debugpy lists 100 items and a "more" entry for the rest, which expands like any other.
    const more = last.data.variables.find((x: { name: string }) => x.name === "more");
    const rest = await h.ok({ operation: "variables", reference: more.reference });
    expect(rest.data.variables.map((x: { name: string }) => x.name)).toContain("119");
  }, ADAPTER_TEST_TIMEOUT_MS);
});
