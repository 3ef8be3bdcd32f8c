// debug over real delve (dlv dap over TCP): breakpoints, stack, variables, steps, output, pause, attach.
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readlinkSync } from "node:fs";
import { freePort } from "../helpers/free-port.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, alive, debugHarness, gone, killSession, requireTool, untilListening, untilOutput } from "./harness.ts";

const MAIN = `package main

import (
	"fmt"
	"os"; "time"
)

func square(n int) int {
	result := n * n
	return result
}

func main() {
	total := 0
	for i := 0; i < 3; i++ {
		total += square(i)
	}
	fmt.Println("total", total)
	fmt.Fprintln(os.Stderr, "warn")
	if len(os.Args) > 1 {
		spin()
	}
}

func spin() {
	n := 0
	for {
		n++
		time.Sleep(time.Millisecond) // a pause then lands in the runtime, below the project's frame
	}
}
`;

function requireDelve(): void {
  requireTool("/usr/bin/dlv", "apt install delve golang-go");
  requireTool("/usr/bin/go", "apt install golang-go");
}

const PROJECT = { "go.mod": "module example.com/app\n\ngo 1.19\n", "main.go": MAIN };

describe("debug with delve", () => {
  test("breakpoint, stack, variables, evaluate, steps, continue to exit with output", async () => {
    requireDelve();
    await using dir = await tempDir();
    await dir.write(PROJECT);
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    await h.ok({ operation: "breakpoints", file: "main.go", lines: [16] });
    const launched = await h.ok({ operation: "launch", program: "." });
    expect(launched.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { file: "main.go", line: 16, source: "total += square(i)" } });

    expect(readdirSync(dir.path).sort()).toEqual(["go.mod", "main.go"]); // the debug binary is built outside the checkout
    const threads = await h.ok({ operation: "threads" });
    expect(threads.data.threads.map((t: { id: number }) => t.id)).toContain(launched.data.thread.id);
    const stack = await h.ok({ operation: "stack" });
    expect(stack.data.frames[0]).toMatchObject({ name: "main.main", line: 16 });
    const scopes = await h.ok({ operation: "scopes", frame_id: stack.data.frames[0].id });
    const locals = scopes.data.scopes.find((s: { name: string }) => s.name === "Locals");
    const vars = await h.ok({ operation: "variables", reference: locals.reference });
    expect(vars.data.variables).toContainEqual(expect.objectContaining({ name: "total", value: "0" }));
    expect((await h.ok({ operation: "evaluate", expression: "total + 100" })).data.result).toBe("100");

    const stepIn = await h.ok({ operation: "step_in" });
    expect(stepIn.data.frame).toMatchObject({ name: "main.square", file: "main.go" });
    const stepOut = await h.ok({ operation: "step_out" });
    expect(stepOut.data.frame).toMatchObject({ name: "main.main", line: 16 });

    await h.ok({ operation: "breakpoints", file: "main.go", lines: [] });
    const done = await h.ok({ operation: "continue" });
    expect(done.data.state).toBe("exited");
    const output = await h.ok({ operation: "output" });
    expect(output.data.output).toContain("total 5\n");
    expect(output.data.output).toContain("warn\n");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("pause stops a busy loop in a goroutine of user code", async () => {
    requireDelve();
    await using dir = await tempDir();
    await dir.write(PROJECT);
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 3 });
    const started = await h.ok({ operation: "launch", program: ".", args: ["spin"] });
    expect(started.data.state).toBe("running");
    await untilOutput(h, started.data.output, "total 5"); // it spins only after printing
    const paused = await h.ok({ operation: "pause" });
    expect(paused.data).toMatchObject({ state: "stopped", reason: "pause" });
    expect(paused.data.frame).toMatchObject({ file: "main.go", name: "main.spin" });
    // Without a frame_id, evaluate runs in the frame the report showed, not the runtime's top frame.
    const n = await h.ok({ operation: "evaluate", expression: "n > 0" });
    expect(n.data.result).toBe("true");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a panic stops at the project's frame, not the runtime's, and evaluate runs there", async () => {
    requireDelve();
    await using dir = await tempDir();
    await dir.write({ "go.mod": "module example.com/p\n\ngo 1.19\n", "main.go": "package main\n\nfunc main() {\n\tvalues := []int{1, 2}\n\ti := 5\n\t_ = values[i]\n}\n" });
    await using h = await debugHarness(dir.path);
    const launched = await h.ok({ operation: "launch", program: "." });
    expect(launched.data).toMatchObject({ state: "stopped", reason: "exception", frame: { file: "main.go", line: 6, name: "main.main" } });
    expect((await h.ok({ operation: "evaluate", expression: "i" })).data.result).toBe("5");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a program that reads stdin gets end of input, not a wait for ever", async () => {
    requireDelve();
    await using dir = await tempDir();
    await dir.write({
      "go.mod": "module example.com/r\n\ngo 1.19\n",
      "main.go": 'package main\n\nimport (\n\t"fmt"\n\t"io"\n\t"os"\n)\n\nfunc main() {\n\tdata, err := io.ReadAll(os.Stdin)\n\tfmt.Println("read", len(data), err)\n}\n',
    });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 20 });
    const launched = await h.ok({ operation: "launch", program: "." });
    expect(launched.data.state).toBe("exited");
    expect(launched.data.output).toContain("read 0 <nil>");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("launch names every breakpoint the adapter could not place", async () => {
    requireDelve();
    await using dir = await tempDir();
    await dir.write(PROJECT);
    await using h = await debugHarness(dir.path);
    await h.ok({ operation: "breakpoints", file: "main.go", lines: [9, 1] }); // line 1 is `package main`: code, but no statement
    const launched = await h.ok({ operation: "launch", program: "." });
    expect(launched.text).toContain("breakpoint main.go:9 verified");
    expect(launched.text).toMatch(/breakpoint main\.go:1 not verified \(.+\)/);
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("attach to dlv --headless in remote mode", async () => {
    requireDelve();
    await using dir = await tempDir();
    await dir.write(PROJECT);
    const port = await freePort();
    const server = spawn("dlv", ["debug", "--headless", "--listen", `127.0.0.1:${port}`, "--accept-multiclient", "--api-version=2", "--", "spin"], {
      cwd: dir.path,
      stdio: "ignore",
      detached: true,
    });
    try {
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
      await h.ok({ operation: "breakpoints", file: "main.go", lines: [28] });
      await untilListening(port);
      const attached = await h.ok({ operation: "attach", port });
      expect(attached.data).toMatchObject({ state: "stopped", frame: { file: "main.go", line: 28 } });
      await h.ok({ operation: "terminate" });
    } finally {
      killSession(server.pid);
    }
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("dlv killed mid-session takes the program with it (it runs in a group of its own)", async () => {
    requireDelve();
    await using dir = await tempDir();
    await dir.write(PROJECT);
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 1 });
    await h.ok({ operation: "launch", program: ".", args: ["spin"] });
    const { adapter_pid, debuggee_pid } = (await h.ok({ operation: "status" })).data;
    expect(typeof debuggee_pid).toBe("number");
    expect(alive(debuggee_pid)).toBe(true);
    const built = readlinkSync(`/proc/${debuggee_pid}/exe`); // the program dlv built into the temp dir
    process.kill(adapter_pid, "SIGKILL");
    expect(await gone(debuggee_pid)).toBe(true);
    const after = await h.call({ operation: "threads" });
    expect(after.text).toContain("the adapter died mid-session");
    expect(existsSync(built)).toBe(false); // dlv deletes it only when it ends normally
  }, ADAPTER_TEST_TIMEOUT_MS);
});
