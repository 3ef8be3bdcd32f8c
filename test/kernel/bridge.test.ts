// The tool bridge and the inactivity budget: calls reach a (fake) harness endpoint, denials raise,
// a slow bridged call suspends the budget, and an idle cell is interrupted or killed.
import { describe, expect, test } from "bun:test";
import { tempDir } from "../helpers/temp-dir.ts";
import { KERNEL_TEST_TIMEOUT_MS, cell, fakeHarness, kernelRun, type BridgeCall } from "./helpers.ts";
import { survivors } from "../helpers/processes.ts";

/** How long the fake harness takes over a "slow" call: well past the 1 s budget used below. */
const SLOW_CALL_MS = 2_500;

/** "meet" calls waiting at the fake harness for a second one. */
let meeting: (() => void) | undefined;

/**
 * A "meet" call is answered "together" once a second one arrives while it waits, "alone" after
 * 10 s without one: overlapping calls are seen without timing the cell.
 */
async function meet(): Promise<Response> {
  if (meeting) {
    meeting();
    meeting = undefined;
    return Response.json({ ok: true, result: "together" });
  }
  const met = await new Promise<boolean>((resolve) => {
    meeting = () => resolve(true);
    setTimeout(() => resolve(false), 10_000);
  });
  if (!met) meeting = undefined;
  return Response.json({ ok: true, result: met ? "together" : "alone" });
}

async function answer(call: BridgeCall): Promise<Response> {
  switch (call.tool) {
    case "meet":
      return meet();
    case "read":
      return Response.json({ ok: true, result: { content: `contents of ${call.arguments.path}` } });
    case "write":
      return Response.json({ ok: false, denied: true, message: "write is not allowed on this surface" }, { status: 403 });
    case "slow":
      await Bun.sleep(SLOW_CALL_MS);
      return Response.json({ ok: true, result: "slow answer" });
    default:
      return Response.json({ ok: false, message: `no tool named ${call.tool}` });
  }
}

describe("tool() inside a cell calls the harness's tools", () => {
  test("python: results come back, a denial raises ToolDenied, a failure raises ToolError", async () => {
    using harness = fakeHarness(answer);
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path, {}, { conversation: "conv-7", resources: { bridge: { url: harness.url } } });
    const result = await cell(
      t.client,
      [
        "print(tool('read', {'path': 'lib/a.py'})['content'])",
        "try:\n    tool('write', {'path': 'x'})\nexcept ToolDenied as denied:\n    print('denied:', denied)",
        "try:\n    tool('missing')\nexcept ToolError as failed:\n    print('failed:', type(failed).__name__, failed)",
        "import asyncio",
        "await asyncio.gather(atool('read', {'path': 'b'}), atool('read', {'path': 'c'}))",
      ].join("\n"),
    );
    expect(result.isError).toBe(false);
    expect(result.text).toContain("contents of lib/a.py\ndenied: write is not allowed on this surface\nfailed: ToolError no tool named missing\n");
    expect(result.text).toContain("Out[1]: [{'content': 'contents of b'}, {'content': 'contents of c'}]");
    expect(harness.calls[0]).toEqual({
      tool: "read",
      arguments: { path: "lib/a.py" },
      conversation: "conv-7",
      origin: { tool: "eval", language: "python" },
    });
    expect(harness.calls.map((c) => c.tool)).toEqual(["read", "write", "missing", "read", "read"]);

    const uncaught = await cell(t.client, "tool('write', {})");
    expect(uncaught.isError).toBe(true);
    expect(uncaught.text).toContain("ToolDenied: write is not allowed on this surface");

    // NaN is no JSON: the call was unreadable to the sidecar and the cell waited out its budget.
    const nan = await cell(t.client, "tool('read', {'n': float('nan')})");
    expect(nan.isError).toBe(true);
    expect(nan.text).toContain("TypeError: tool('read', args): args must be JSON-serialisable: Out of range float values are not JSON compliant");
    const huge = await cell(t.client, "tool('read', {'text': 'x' * (17 * 1024 * 1024)})");
    expect(huge.text).toContain("a bridged call takes at most 16777216. Write large data to a file and pass its path.");
    expect(harness.calls).toHaveLength(6);
  }, KERNEL_TEST_TIMEOUT_MS);

  test("javascript: the same calls, the same exceptions", async () => {
    using harness = fakeHarness(answer);
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path, {}, { resources: { bridge: { url: harness.url } } });
    const result = await cell(
      t.client,
      [
        "console.log(tool('read', { path: 'a.ts' }).content);",
        "try { tool('write', {}) } catch (e) { console.log(e instanceof ToolDenied, e.message) }",
        "try { await atool('missing') } catch (e) { console.log(e.name, e.message) }",
      ].join("\n"),
      { language: "javascript" },
    );
    expect(result.isError).toBe(false);
    expect(result.text).toEndWith("contents of a.ts\ntrue write is not allowed on this surface\nToolError no tool named missing");
    expect(harness.calls[0]!.origin).toEqual({ tool: "eval", language: "javascript" });

    // atool() calls overlap: the second reaches the harness while the first waits (it was sent only
    // after the first's answer, so each met no one).
    const both = await cell(t.client, "await Promise.all([atool('meet'), atool('meet')])", { language: "javascript" });
    expect(both.text).toContain("Out[2]: [ 'together', 'together' ]");
    // A blocking tool() while atool() calls wait is refused with what to do; after them it works.
    const mixed = await cell(
      t.client,
      "const waiting = atool('read', { path: 'p' });\nlet said; try { tool('read', {}) } catch (e) { said = e.message }\nconst late = await waiting;\n[said, late.content, tool('read', { path: 'q' }).content]",
      { language: "javascript" },
    );
    expect(mixed.text).toContain("tool() blocks the kernel, and 1 atool() call(s) are still pending: await them first");
    expect(mixed.text).toContain("'contents of p',\n  'contents of q'\n]");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("without a bridge in the run config, tool() raises a ToolError saying so", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const result = await cell(t.client, "tool('read', {'path': 'a'})");
    expect(result.text).toContain("ToolError: This run has no tool bridge (resources.bridge in the run config)");
  }, KERNEL_TEST_TIMEOUT_MS);
});

describe("the inactivity budget", () => {
  test("is suspended while a bridged call is pending, and interrupts an idle python cell", async () => {
    using harness = fakeHarness(answer);
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path, { inactivitySeconds: 1 }, { resources: { bridge: { url: harness.url } } });
    const waited = await cell(t.client, "kept = 'still here'\ntool('slow')");
    expect(waited.isError).toBe(false);
    expect(waited.text).toContain("Out[1]: 'slow answer'");

    const idle = await cell(t.client, "import time\nprint('started')\ntime.sleep(60)");
    expect(idle.isError).toBe(true);
    expect(idle.data).toMatchObject({ status: "timed_out", stopped: "interrupted" });
    expect(idle.text).toContain("started\n");
    expect(idle.text).toContain("KeyboardInterrupt");
    expect(idle.text).toContain("Stopped: no output for 1 s (the cell's inactivity budget), so the cell was interrupted with SIGINT. The kernel and its state survive.");
    const after = await cell(t.client, "kept");
    expect(after.text).toContain("Out[3]: 'still here'");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("output keeps a cell alive; a javascript busy loop that ignores SIGINT is killed with its group", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path, { inactivitySeconds: 1.5 });
    // 8 × 0.3 s runs well past the 1.5 s budget, but never goes 1.5 s without output.
    const chatty = await cell(t.client, "import time\nfor i in range(8):\n    print(i, flush=True)\n    time.sleep(0.3)");
    expect(chatty.isError).toBe(false);
    expect(chatty.text).toEndWith("0\n1\n2\n3\n4\n5\n6\n7");

    await cell(t.client, "globalThis.kept = 1", { language: "javascript" });
    const awaiting = await cell(t.client, "await new Promise((resolve) => setTimeout(resolve, 60_000))", { language: "javascript" });
    expect(awaiting.data).toMatchObject({ status: "timed_out", stopped: "interrupted" });
    expect(awaiting.text).toContain("KeyboardInterrupt: the cell was interrupted");
    const pid = Number((await cell(t.client, "process.pid", { language: "javascript" })).text.split("Out[3]: ")[1]);
    expect(Number.isInteger(pid) && pid > 1).toBe(true);
    const spun = await cell(t.client, "console.log('spinning'); while (true) {}", { language: "javascript" });
    expect(spun.isError).toBe(true);
    expect(spun.data).toMatchObject({ status: "timed_out", stopped: "killed" });
    expect(spun.text).toContain("spinning\n");
    expect(spun.text).toContain("SIGINT did not stop it, so the kernel's process group was killed.");
    expect(await survivors([pid])).toEqual([]);
    const fresh = await cell(t.client, "typeof kept", { language: "javascript" });
    expect(fresh.text).toContain('Out[1]: "undefined"');
  }, KERNEL_TEST_TIMEOUT_MS);
});
