// Session rules over a real adapter (debugpy, the quickest to start): TTL, a dying adapter, registration, detection.
import { describe, expect, test } from "bun:test";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, debugHarness, gone, PYTHON_LOOP, requireTool, stoppedPythonLoop } from "./harness.ts";

describe("debug sessions", () => {
  test("the TTL kills the adapter and the program, and the next call says the session expired", async () => {
    // Long enough for a launch on a loaded machine: the TTL counts from the launch call.
    await using h = await stoppedPythonLoop({ ttlSeconds: 20 });
    const status = await h.ok({ operation: "status" });
    const { adapter_pid, debuggee_pid } = status.data;
    expect(typeof adapter_pid).toBe("number");
    expect(typeof debuggee_pid).toBe("number");
    // Asked over and over: a call that arrives while the TTL is still stopping the processes is
    // told of the expiry too (it waits for the stop), never of a session that merely ended.
    let after = await h.call({ operation: "stack" });
    while (!after.isError) after = await h.call({ operation: "stack" });
    expect(after.text).toContain("expired after its 20 seconds TTL");
    expect(await gone(debuggee_pid)).toBe(true);
    expect(await gone(adapter_pid)).toBe(true);
    const relaunched = await h.ok({ operation: "launch", program: "loop.py" });
    expect(relaunched.data.state).toBe("stopped");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("an adapter killed mid-session ends the session with a reason, and launch works again", async () => {
    await using h = await stoppedPythonLoop();
    const { adapter_pid, debuggee_pid } = (await h.ok({ operation: "status" })).data;
    process.kill(adapter_pid, "SIGKILL");
    expect(await gone(adapter_pid)).toBe(true);
    const after = await h.call({ operation: "stack" });
    expect(after.isError).toBe(true);
    expect(after.text).toContain("the adapter died mid-session");
    expect(await gone(debuggee_pid)).toBe(true);
    const relaunched = await h.ok({ operation: "launch", program: "loop.py" });
    expect(relaunched.data).toMatchObject({ state: "stopped", frame: { line: 3 } });
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("adapters says which are usable and exactly why not", async () => {
    await using dir = await tempDir();
    await dir.write({ "pubspec.yaml": "name: x\n", "go.mod": "module x\n" });
    await using h = await debugHarness(dir.path);
    const { adapters } = (await h.ok({ operation: "adapters" })).data;
    const by = Object.fromEntries(adapters.map((a: { adapter: string }) => [a.adapter, a]));
    expect(by.dart).toMatchObject({ usable: false, detail: "`dart` is not on PATH" });
    expect(by.dart.hint).toContain("Dart SDK");
    expect(by.delve).toMatchObject({ usable: true });
    // A marker only chooses the program's working directory: debugpy serves a folder of scripts.
    expect(by.debugpy).toMatchObject({ usable: true });
    expect(by.debugpy.detail).toContain("no project marker (pyproject.toml, setup.py, setup.cfg, requirements.txt): programs run from the workdir");
    const refused = await h.call({ operation: "launch", program: "main.py", adapter: "debugpy" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("does not exist in the workspace");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a project below the workdir (a monorepo's py/) makes its adapter usable for adapters and attach", async () => {
    await using dir = await tempDir();
    await dir.write({ "py/requirements.txt": "", "py/app.py": "print(1)\n" });
    await using h = await debugHarness(dir.path);
    const { adapters } = (await h.ok({ operation: "adapters" })).data;
    const debugpy = adapters.find((a: { adapter: string }) => a.adapter === "debugpy");
    expect(debugpy).toMatchObject({ usable: true });
    expect(debugpy.detail).toContain("root marker requirements.txt");
    // Nothing listens on the port: the refusal is about the connection, not the missing marker.
    const attach = await h.call({ operation: "attach", port: 9, adapter: "debugpy" });
    expect(attach.isError).toBe(true);
    expect(attach.text).not.toContain("no root marker");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("an adapter command set in the run config replaces the catalog's, and a bad one says so", async () => {
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "go.mod": "module x\n" });
    await using h = await debugHarness(dir.path, {
      adapters: { debugpy: { command: ["/usr/bin/python3", "-m", "debugpy.adapter"] }, delve: { command: ["no-such-dlv", "dap"] } },
    });
    const { adapters } = (await h.ok({ operation: "adapters" })).data;
    const by = Object.fromEntries(adapters.map((a: { adapter: string }) => [a.adapter, a]));
    expect(by.debugpy).toMatchObject({ usable: true });
    expect(by.debugpy.detail).toContain("/usr/bin/python3 (configured)");
    expect(by.delve).toMatchObject({ usable: false, detail: "the configured command no-such-dlv is not executable" });
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("debug is registered only with the resource, a workdir and a conversation id", async () => {
    await using dir = await tempDir();
    await using without = await startTestRun(dir.path, { resources: { debugAdapters: {} } });
    expect((await (await without.client()).listTools()).tools.map((t) => t.name)).not.toContain("debug");
    await using withIt = await startTestRun(dir.path, { conversation: "c", resources: { debugAdapters: {} } });
    expect((await (await withIt.client()).listTools()).tools.map((t) => t.name)).toContain("debug");
    expect((await (await withIt.client("plan")).listTools()).tools.map((t) => t.name)).not.toContain("debug");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("operations name their missing arguments", async () => {
    await using dir = await tempDir();
    await using h = await debugHarness(dir.path);
    const missing = await h.call({ operation: "breakpoints", file: "a.py" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("breakpoints needs lines");
    const none = await h.call({ operation: "stack" });
    expect(none.text).toContain("No debug session is running");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("closing the run stops the adapter and the program", async () => {
    const h = await stoppedPythonLoop();
    const { adapter_pid, debuggee_pid } = (await h.ok({ operation: "status" })).data;
    await h[Symbol.asyncDispose]();
    expect(await gone(adapter_pid)).toBe(true);
    expect(await gone(debuggee_pid)).toBe(true);
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a cancelled launch stops waiting for a stop, and the next call is answered", async () => {
    requireTool("/usr/bin/python3", "apt install python3-debugpy");
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "loop.py": PYTHON_LOOP });
    // The stop wait (10 minutes) is far longer than this test's bound: only cancellation ends it.
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 600 });
    const cancel = new AbortController();
    const launch = h.call({ operation: "launch", program: "loop.py" }, cancel.signal).catch((error: Error) => error);
    for (let poll = 0; poll < 150; poll++) {
      await Bun.sleep(200);
      if (h.t.run.resources.dap!.currentSession()?.programPid !== undefined) break; // the program runs
    }
    cancel.abort();
    expect(await launch).toBeInstanceOf(Error);
    const status = await h.ok({ operation: "status" });
    expect(status.data.state).toBe("running");
    expect(status.text).toContain("The program is running");
  }, ADAPTER_TEST_TIMEOUT_MS);
});
