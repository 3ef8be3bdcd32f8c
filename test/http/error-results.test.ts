// Failures reach a real client that listed the tools: the SDK checks structuredContent against the
// outputSchema even on isError results, so an error result must not carry a mismatching one.
import { expect, test } from "bun:test";
import { PROBE_TOOLS } from "../helpers/probe-tools.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

test("an isError result is returned, not thrown, to an SDK client that knows the output schema", async () => {
  await using dir = await tempDir();
  await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
  const client = await t.client();
  await client.listTools(); // the SDK now validates test_echo's results against {echoed: string}
  const result = await client.callTool({ name: "test_echo", arguments: { text: 5 } });
  expect(result.isError).toBe(true);
  expect((result.content as { text: string }[])[0]!.text).toContain("Invalid arguments for test_echo");
});

test("a required argument left out is named as missing, not in the validator's words", async () => {
  await using dir = await tempDir();
  await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
  const result = await (await t.client()).callTool({ name: "test_echo", arguments: { times: 2 } });
  expect(result.isError).toBe(true);
  expect((result.content as { text: string }[])[0]!.text).toStartWith("Invalid arguments for test_echo:\n- text: missing; it is required\n");
});
