// Tool annotations a client may act on: a client that auto-approves read-only tools must not
// auto-approve a vibe_* call that starts or stops a worker, though plan mode may make it.
import { describe, expect, test } from "bun:test";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { vibeConfig } from "../workers/helpers.ts";

describe("annotations of the vibe_* tools, which are all in the read tier", () => {
  test("spawn, send and kill are not read-only; wait and list are", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const listed = await (await t.client("plan")).listTools();
    const annotations = Object.fromEntries(listed.tools.filter((tool) => tool.name.startsWith("vibe_")).map((tool) => [tool.name, tool.annotations]));
    expect(annotations).toEqual({
      vibe_spawn: { readOnlyHint: false, destructiveHint: false },
      vibe_send: { readOnlyHint: false, destructiveHint: true },
      vibe_wait: { readOnlyHint: true, destructiveHint: false },
      vibe_kill: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
      vibe_list: { readOnlyHint: true, destructiveHint: false },
    });
  });
});
