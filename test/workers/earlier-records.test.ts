// Worker records an earlier sidecar saved in the run's stateDir are adopted by the next one, whatever
// the words they were saved in: a record from before "grade" names its fast/good as `tier`.
import { describe, expect, test } from "bun:test";
import { ok } from "../helpers/call.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { vibeConfig } from "./helpers.ts";

const STATE = ".sidecar-state";

function saved(id: string, words: Record<string, unknown>) {
  const outcome = { generation: 1, state: "done", endedAt: "2026-01-01T00:00:01.000Z", exitCode: 0, signal: null, result: `${id} done`, resultSource: "stdout", stderrTail: "" };
  return JSON.stringify({ id, label: `from before ${id}`, ...words, brief: "b", state: "done", generation: 1, createdAt: "2026-01-01T00:00:00.000Z", history: [outcome] });
}

describe("worker records of an earlier sidecar", () => {
  test("are listed with their grade, whether saved as `tier` or as `grade`, and can be re-run with vibe_send", async () => {
    await using dir = await tempDir();
    await dir.write({
      [`${STATE}/workers/w1/state.json`]: saved("w1", { tier: "fast" }),
      [`${STATE}/workers/w2/state.json`]: saved("w2", { grade: "fast" }),
    });
    await using t = await startTestRun(dir.path, { ...vibeConfig(), stateDir: STATE });
    const client = await t.client();
    const listed = (await ok(client, "vibe_list")) as { workers: { worker_id: string; tier: string; state: string }[] };
    expect(listed.workers.map(({ worker_id, tier, state }) => ({ worker_id, tier, state }))).toEqual([
      { worker_id: "w1", tier: "fast", state: "done" },
      { worker_id: "w2", tier: "fast", state: "done" },
    ]);
    expect(t.run.resources.workers!.get("w1")).not.toHaveProperty("tier");
    // Its grade picks the command of the re-run: a record without one would be refused here.
    expect(await ok(client, "vibe_send", { worker_id: "w1", message: "again" })).toMatchObject({ worker_id: "w1", generation: 2 });
  });
});
