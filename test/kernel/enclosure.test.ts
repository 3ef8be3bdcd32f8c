// Kernels inside the conversation's enclosure, reached through an exec prefix. A wrapper script
// stands in for `docker exec -i NAME`: no container runtime is available on the test machine.
import { describe, expect, test } from "bun:test";
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tempDir } from "../helpers/temp-dir.ts";
import { KERNEL_TEST_TIMEOUT_MS, cell, kernelRun } from "./helpers.ts";
import { survivors } from "../helpers/processes.ts";

async function fakeEnclosure(directory: string): Promise<string> {
  const script = join(directory, "enclosure-exec");
  await writeFile(
    script,
    [
      "#!/bin/sh",
      `[ -e ${JSON.stringify(join(directory, "running"))} ] || { echo "Error: container conv-42 is not running" >&2; exit 1; }`,
      "export INSIDE_ENCLOSURE=conv-42",
      'exec "$@"',
      "",
    ].join("\n"),
  );
  await chmod(script, 0o755);
  return script;
}

describe("kernels in an enclosure", () => {
  test("a stopped enclosure fails the call saying so, with no fallback to the host", async () => {
    await using dir = await tempDir();
    const prefix = [await fakeEnclosure(dir.path)];
    await using t = await kernelRun(dir.path, { enclosure: { prefix, name: "conv-42" } });
    for (const language of ["python", "javascript"] as const) {
      const result = await cell(t.client, "1 + 1", { language });
      expect(result.isError).toBe(true);
      expect(result.text).toContain(`Could not start the ${language} kernel in the enclosure conv-42: the exec prefix exited with status 1.`);
      expect(result.text).toContain("Error: container conv-42 is not running");
      expect(result.text).toContain("does not fall back to the host");
    }
  }, KERNEL_TEST_TIMEOUT_MS);

  test("a running enclosure hosts both kernels, and closing the run stops them", async () => {
    await using dir = await tempDir();
    const prefix = [await fakeEnclosure(dir.path)];
    await writeFile(join(dir.path, "running"), "");
    const t = await kernelRun(dir.path, { enclosure: { prefix, name: "conv-42" } });
    const python = await cell(t.client, "import os\nprint(os.getpid())\nos.environ.get('INSIDE_ENCLOSURE')");
    expect(python.isError).toBe(false);
    expect(python.text).toContain("in the enclosure conv-42]");
    expect(python.text).toContain("Out[1]: 'conv-42'");
    const javascript = await cell(t.client, "console.log(process.pid); process.env.INSIDE_ENCLOSURE", { language: "javascript" });
    expect(javascript.text).toContain('Out[1]: "conv-42"');
    const pids = [python, javascript].map((r) => Number(r.text.split("]\n")[1]!.split("\n")[0]));
    expect(pids.every((pid) => Number.isInteger(pid) && pid > 1)).toBe(true);
    await t[Symbol.asyncDispose]();
    expect(await survivors(pids)).toEqual([]);
  }, KERNEL_TEST_TIMEOUT_MS);
});
