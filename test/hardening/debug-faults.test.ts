// A debuggee that dies while stopped at a breakpoint (OOM killer, a user's kill): the next debug
// call says so instead of hanging, a new launch works and replaces the old adapter. Also the TTL
// ending a wait, and the adapter killed mid-step.
import { describe, expect, test } from "bun:test";
import { ADAPTER_TEST_TIMEOUT_MS, gone, stoppedPythonLoop } from "../dap/harness.ts";

describe("a debuggee that exits while stopped", () => {
  test("the next call reports the exit code, and a new launch works and stops the old adapter", async () => {
    await using h = await stoppedPythonLoop();
    const launched = h.launched;
    expect(launched.data.state).toBe("stopped");
    const { adapter_pid, debuggee_pid } = (await h.ok({ operation: "status" })).data;
    process.kill(debuggee_pid, "SIGKILL");
    expect(await gone(debuggee_pid)).toBe(true);
    const after = await h.call({ operation: "continue" });
    // Which sentence depends on whether the adapter's exit event came before the call (the session
    // knows it has exited) or answers the continue (the exit as the adapter reports it): a race the
    // debuggee's death decides, not the sidecar. Either way the call says it exited, and with what code.
    expect(after.text).toMatch(/The program (has exited with code 247; launch it again \(or restart\) to debug further\.|exited with code 247, as the adapter reports it\.)/);
    const status = await h.ok({ operation: "status" });
    expect(status.data).toMatchObject({ state: "exited", exit_code: 247 });
    // The exited session keeps its adapter (output stays readable) until a new launch replaces it.
    const relaunched = await h.ok({ operation: "launch", program: "loop.py" });
    expect(relaunched.data).toMatchObject({ state: "stopped", frame: { line: 3 } });
    expect(await gone(adapter_pid)).toBe(true);
  }, ADAPTER_TEST_TIMEOUT_MS);
});

describe("waits that end badly", () => {
  test("the TTL expiring while continue waits for a stop ends the wait with the reason", async () => {
    await using h = await stoppedPythonLoop({ ttlSeconds: 6 });
    const { adapter_pid, debuggee_pid } = (await h.ok({ operation: "status" })).data;
    await h.ok({ operation: "breakpoints", file: "loop.py", lines: [] });
    // Nothing will stop the loop again: only the TTL can end this wait.
    const waited = await h.call({ operation: "continue" });
    expect(waited.text).toContain("The debug session ended: the session's 6 seconds TTL expired.");
    expect(await gone(debuggee_pid)).toBe(true);
    expect(await gone(adapter_pid)).toBe(true);
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("the adapter killed mid-step: the step fails with the reason, the program goes too, launch works again", async () => {
    await using h = await stoppedPythonLoop();
    const { adapter_pid, debuggee_pid } = (await h.ok({ operation: "status" })).data;
    // Freeze the adapter so the step request is surely in flight, then kill it as an OOM killer would.
    process.kill(adapter_pid, "SIGSTOP");
    const step = h.call({ operation: "step_over" });
    await Bun.sleep(500);
    process.kill(adapter_pid, "SIGKILL");
    const failed = await step;
    expect(failed.isError).toBe(true);
    // SIGKILL mid-read ends the socket either way: a close, or a reset first.
    expect(failed.text).toMatch(/^next was not answered: the debug adapter (closed its connection|connection failed: read ECONNRESET)\.$/);
    expect(await gone(debuggee_pid)).toBe(true);
    const relaunched = await h.ok({ operation: "launch", program: "loop.py" });
    expect(relaunched.data).toMatchObject({ state: "stopped", frame: { line: 3 } });
  }, ADAPTER_TEST_TIMEOUT_MS);
});
