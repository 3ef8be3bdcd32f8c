// The console's Resources sections from real resources: a pyright language server started by a
// write, the diagnostic ledger's finding, a worker running and then done, a debugpy session. (Their rendering as
// tables is driven in Chromium by console-browser.test.ts.)
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { GlanceSection } from "../../src/console/glance.ts";
import { runGlance } from "../../src/run/glance.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { requireBinary } from "../lsp/fixtures.ts";
import { vibeConfig } from "../workers/helpers.ts";
import { stoppedPythonLoop } from "../dap/harness.ts";

// pyright starting on a loaded 2-core machine.
setDefaultTimeout(120_000);

function glance(t: TestRun): GlanceSection[] {
  return runGlance(t.run.resources, t.run.registry, []);
}

function section(t: TestRun, title: string): GlanceSection {
  const found = glance(t).find((s) => s.title === title);
  if (!found) throw new Error(`no section ${title}: ${glance(t).map((s) => s.title).join(", ")}`);
  return found;
}

async function waitFor<T>(read: () => T, ok: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let value = read(); ; value = read()) {
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await Bun.sleep(100);
  }
}

describe("the console's resources", () => {
  test("a language server a write started, with pid and memory, and the finding the ledger holds", async () => {
    requireBinary("pyright-langserver", "npm i -D pyright");
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": '[project]\nname = "w"\nversion = "0"\n', "mod.py": "value = 1\n" });
    await using t = await startTestRun(dir.path, { resources: { languageServers: {} } });
    expect(section(t, "Language servers")).toMatchObject({ rows: [], empty: expect.stringContaining("None started yet") });
    expect(section(t, "Diagnostics on write").rows).toEqual([]);

    const afterWrite = async () => {
      const response = await t.fetch("/harness/after-write", {
        method: "POST",
        headers: { Authorization: `Bearer ${t.run.surfaces.default}`, "Content-Type": "application/json" },
        body: JSON.stringify({ paths: ["mod.py"] }),
      });
      return (await response.json()) as { status: string; new: unknown[] };
    };
    // The clean file first, until pyright answers in time (its start under load can pass the 15 s
    // cap, which after-write reports as timed_out); then the break.
    let clean = await afterWrite();
    for (let tries = 1; clean.status !== "fresh" && tries < 5; tries++) clean = await afterWrite();
    expect(clean).toMatchObject({ status: "fresh", new: [] });
    await writeFile(join(dir.path, "mod.py"), "value = missing_name\n");
    const broken = await afterWrite();
    expect(broken.new, JSON.stringify(broken)).toHaveLength(1);

    const [server] = section(t, "Language servers").rows;
    expect(server).toMatchObject({ name: "python", state: "running" }); // the catalog names servers by language
    expect(server!.detail).toMatch(/^root \.; pid \d+, \d+ MB$/);
    const [finding] = section(t, "Diagnostics on write").rows;
    expect(finding).toMatchObject({ name: "mod.py", state: "error" });
    expect(finding!.detail).toBe('[reportUndefinedVariable] "missing_name" is not defined');
  });

  test("the debug session: its program, stopped, the program's pid and the TTL left; none once terminated", async () => {
    await using h = await stoppedPythonLoop();
    const [session] = section(h.t, "Debug session").rows;
    expect(session).toMatchObject({ name: "loop.py (debugpy)", state: "stopped" });
    expect(session!.detail).toMatch(/^program pid \d+, \d+ MB; ends in \d+ min unless used \(TTL\)$/);
    await h.ok({ operation: "terminate" });
    expect(section(h.t, "Debug session")).toMatchObject({ rows: [], empty: expect.stringContaining("No debug session") });
  });

  test("a worker shows its progress line while it runs, and its result once done", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    expect(section(t, "Workers")).toMatchObject({ rows: [], empty: expect.stringContaining("No worker") });
    const client = await t.client();
    await client.callTool({ name: "vibe_spawn", arguments: { brief: "long.sh", label: "count steps" } });
    const running = await waitFor(
      () => section(t, "Workers").rows[0],
      (row) => row?.state === "running" && /now: step \d+/.test(row.detail ?? ""),
      "the worker's row while it runs",
    );
    expect(running).toMatchObject({ name: "w1 count steps" });
    expect(running!.detail).toStartWith("fast, generation 1; now: step ");
    await writeFile(join(dir.path, "release-w1"), "");
    const done = await waitFor(() => section(t, "Workers").rows[0], (row) => row?.state === "done", "the worker's row once done");
    expect(done!.detail).toMatch(/^fast, generation 1; result: .*released after \d+ steps/);
  });
});
