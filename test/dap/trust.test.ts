// Workspace trust (the run config's `trust`): untrusted, finding and probing adapters and
// interpreters never runs a binary from inside the checkout, and the answers say what was skipped.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync } from "node:fs";
import { join } from "node:path";
import { debugAdapterChecks } from "../../src/dap/doctor.ts";
import { kernelChecks } from "../../src/kernel/doctor.ts";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, debugHarness, requireTool } from "./harness.ts";

/**
 * A checkout whose .venv/bin/python and bin/dlv leave a mark when run: the venv's still works
 * (it runs the system python, which has debugpy), the dlv fails.
 */
async function plantedCheckout(dir: TempDir): Promise<void> {
  await dir.write({
    "pyproject.toml": "",
    "app.py": "import sys\nprint(sys.prefix)\n",
    ".venv/bin/python": `#!/bin/sh\ntouch "${dir.path}/ran-venv-python"\nexec /usr/bin/python3 "$@"\n`,
    "bin/dlv": `#!/bin/sh\ntouch "${dir.path}/ran-checkout-dlv"\nexit 1\n`,
  });
  chmodSync(join(dir.path, ".venv/bin/python"), 0o755);
  chmodSync(join(dir.path, "bin/dlv"), 0o755);
}

/** Runs `work` with the checkout's bin/ first on PATH, as an activated project environment would. */
async function withCheckoutOnPath<T>(dir: TempDir, work: () => Promise<T>): Promise<T> {
  const before = process.env.PATH;
  process.env.PATH = `${join(dir.path, "bin")}:${before}`;
  try {
    return await work();
  } finally {
    process.env.PATH = before;
  }
}

describe("an untrusted workspace", () => {
  test("adapters and launch use no binary from inside the checkout, and say the venv was skipped", async () => {
    requireTool("/usr/bin/dlv", "apt install delve golang-go");
    await using dir = await tempDir();
    await plantedCheckout(dir);
    await withCheckoutOnPath(dir, async () => {
      await using h = await debugHarness(dir.path);
      const { adapters } = (await h.ok({ operation: "adapters" })).data;
      const by = Object.fromEntries(adapters.map((a: { adapter: string }) => [a.adapter, a]));
      expect(by.debugpy).toMatchObject({ usable: true });
      expect(by.debugpy.detail).toContain("the project's .venv/bin/python was not used because the workspace is not trusted");
      expect(by.debugpy.detail).toContain('set "trust": "workspace" in the run config');
      expect(by.delve).toMatchObject({ usable: true });
      expect(by.delve.detail).toStartWith("/usr/bin/dlv");
      const launched = await h.ok({ operation: "launch", program: "app.py" });
      expect(launched.text).toContain("Note: the project's .venv/bin/python was not used because the workspace is not trusted");
      expect(launched.data.output).toBe("/usr\n");
    });
    expect(existsSync(join(dir.path, "ran-venv-python"))).toBe(false);
    expect(existsSync(join(dir.path, "ran-checkout-dlv"))).toBe(false);
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("doctor probes nothing inside the checkout and names what it left alone", async () => {
    await using dir = await tempDir();
    await plantedCheckout(dir);
    const rows = await withCheckoutOnPath(dir, async () => [
      ...(await debugAdapterChecks({ workdir: dir.path, runtime: bunPrimitives })),
      ...(await kernelChecks({ workdir: dir.path, runtime: bunPrimitives })),
    ]);
    expect(existsSync(join(dir.path, "ran-venv-python"))).toBe(false);
    expect(existsSync(join(dir.path, "ran-checkout-dlv"))).toBe(false);
    const venv = rows.find((row) => row.name.startsWith(join(dir.path, ".venv/bin/python")));
    expect(venv?.detail).toBe("not run to probe it: it is inside the checkout, and the workspace is not trusted");
  }, ADAPTER_TEST_TIMEOUT_MS);
});

describe("a trusted workspace", () => {
  test("the project's venv and PATH entries inside the checkout are used", async () => {
    await using dir = await tempDir();
    await plantedCheckout(dir);
    await withCheckoutOnPath(dir, async () => {
      await using h = await debugHarness(dir.path, {}, { trust: "workspace" });
      const { adapters } = (await h.ok({ operation: "adapters" })).data;
      const by = Object.fromEntries(adapters.map((a: { adapter: string }) => [a.adapter, a]));
      expect(by.debugpy.detail).toContain("debugpy with .venv/bin/python");
      expect(by.delve.detail).toContain(join(dir.path, "bin/dlv"));
    });
    expect(existsSync(join(dir.path, "ran-venv-python"))).toBe(true);
    expect(existsSync(join(dir.path, "ran-checkout-dlv"))).toBe(true);
  }, ADAPTER_TEST_TIMEOUT_MS);
});
