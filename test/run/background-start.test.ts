// Background work a service keeps for later (the debugger's python probe) waits until no call has
// been working for a moment: started at the ready line, a pyenv shim's chain of shells took the CPU
// from the agent's first call and made a cold ast_grep 1.5x slower on 2 cores (issue 40).
import { expect, test } from "bun:test";
import { PROBE_TOOLS } from "../helpers/probe-tools.ts";
import { recordingPython } from "../helpers/recording-python.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

test("the debugger's python probe starts only once the run's first call has ended, and then on its own", async () => {
  await using dir = await tempDir();
  await using python = await recordingPython();
  await using t = await startTestRun(dir.path, { conversation: "c", resources: { debugAdapters: {} } }, { extraTools: PROBE_TOOLS });
  const client = await t.client();
  const call = client.callTool({ name: "test_slow", arguments: { ms: 2_000 } });
  await Bun.sleep(1_500); // started at the ready line, the probe would have run python3 by now
  expect(python.started()).toBe(false);
  await call;
  for (let i = 0; i < 100 && !python.started(); i++) await Bun.sleep(50);
  expect(python.started()).toBe(true);
});
