// Which python debugpy runs with: probed from the run's start, and chosen again when the interpreter changes.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, debugHarness, requireDebugpy, type DebugHarness } from "./harness.ts";

/** How long the run's background probe may take to reach the wrapper on a loaded machine. */
const BACKGROUND_PROBE_WAIT_MS = 20_000;

/**
 * A python3 first on PATH: a real interpreter (the system one) behind a script that logs each
 * `-c` probe and tells the program which variant ran it. "no-debugpy" starts it with -S (no
 * site-packages), a real interpreter that cannot import debugpy. Replaced by rename, as an
 * install replaces a binary.
 */
function writePython(bin: TempDir, variant: "with-debugpy" | "no-debugpy"): void {
  const flags = variant === "no-debugpy" ? "-S " : "";
  const script = `#!/bin/sh\n[ "$1" = "-c" ] && echo probe >> "${bin.path}/probes.log"\nPYTHON_VARIANT=${variant} exec /usr/bin/python3 ${flags}"$@"\n`;
  const staged = join(bin.path, "python3.new");
  writeFileSync(staged, script);
  chmodSync(staged, 0o755);
  renameSync(staged, join(bin.path, "python3"));
}

function probes(bin: TempDir): number {
  const log = join(bin.path, "probes.log");
  return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0;
}

const APP = 'import os\nprint("ran by", os.environ.get("PYTHON_VARIANT", "the system python3"))\n';

/** A run on a Python project, started with the wrapper (with debugpy) first on PATH. */
async function withWrapperFirstOnPath(work: (h: DebugHarness, bin: TempDir) => Promise<void>): Promise<void> {
  requireDebugpy();
  await using dir = await tempDir();
  await using bin = await tempDir();
  await dir.write({ "pyproject.toml": "", "app.py": APP });
  writePython(bin, "with-debugpy");
  const before = process.env.PATH;
  process.env.PATH = `${bin.path}:${before}`;
  try {
    await using h = await debugHarness(dir.path);
    await work(h, bin);
  } finally {
    process.env.PATH = before;
  }
}

describe("debugpy's python", () => {
  test("is probed from the run's start, so the first launch spawns no probe", async () => {
    await withWrapperFirstOnPath(async (h, bin) => {
      const until = Date.now() + BACKGROUND_PROBE_WAIT_MS;
      while (probes(bin) === 0 && Date.now() < until) await Bun.sleep(20);
      expect(probes(bin)).toBe(1); // asked once, before any call
      const launched = await h.ok({ operation: "launch", program: "app.py" });
      expect(launched.data.output).toContain("ran by with-debugpy");
      expect(probes(bin)).toBe(1);
    });
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("a python3 replaced mid-run is probed again: one without debugpy is passed over, and chosen again once it has it", async () => {
    await withWrapperFirstOnPath(async (h, bin) => {
      expect((await h.ok({ operation: "launch", program: "app.py" })).data.output).toContain("ran by with-debugpy");
      const asked = probes(bin);

      writePython(bin, "no-debugpy");
      const passedOver = await h.ok({ operation: "launch", program: "app.py" });
      expect(passedOver.data.output).toContain("ran by the system python3");
      expect(probes(bin)).toBe(asked + 1);

      // Debugpy "installed" into it (the file replaced again): asked again, chosen again; that yes is then kept.
      writePython(bin, "with-debugpy");
      expect((await h.ok({ operation: "launch", program: "app.py" })).data.output).toContain("ran by with-debugpy");
      const afterInstall = probes(bin);
      expect((await h.ok({ operation: "launch", program: "app.py" })).data.output).toContain("ran by with-debugpy");
      expect(probes(bin)).toBe(afterInstall);
    });
  }, ADAPTER_TEST_TIMEOUT_MS);
});
