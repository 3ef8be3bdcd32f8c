// eval exists only when the run has the kernels resource, only on surfaces with the exec tier,
// and insists on a description.
import { describe, expect, test } from "bun:test";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { KERNEL_TEST_TIMEOUT_MS, kernelRun } from "./helpers.ts";

describe("eval registration", () => {
  test("registered with resources.kernels on the default surface only", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const full = await t.client.listTools();
    const evalTool = full.tools.find((tool) => tool.name === "eval");
    expect(evalTool?.annotations).toMatchObject({ readOnlyHint: false });
    expect(evalTool?.inputSchema).toMatchObject({ required: ["code", "description"] });
    await using planRun = await startTestRun(dir.path, { resources: { kernels: {} } });
    const plan = await (await planRun.client("plan")).listTools();
    expect(plan.tools.map((tool) => tool.name)).not.toContain("eval");

    await using bare = await startTestRun(dir.path, { resources: {} });
    const none = await (await bare.client()).listTools();
    expect(none.tools.map((tool) => tool.name)).not.toContain("eval");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("a call without a usable description is refused with a correct shape", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const missing = await t.client.callTool({ name: "eval", arguments: { code: "1" } });
    expect(missing.isError).toBe(true);
    const terse = await t.client.callTool({ name: "eval", arguments: { code: "1", description: "x" } });
    const text = (terse.content as { text: string }[])[0]!.text;
    expect(text).toContain("Invalid arguments for eval");
    expect(text).toContain("description: expected 5-10 words");
  }, KERNEL_TEST_TIMEOUT_MS);
});
