// The compiled binary must embed the parse worker: `bun compile.ts`, then its doctor starts one.
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dir, "../..");

test("the compiled sidecar starts parse worker threads", () => {
  const build = spawnSync(process.execPath, ["compile.ts"], { cwd: root, encoding: "utf8", timeout: 240_000 });
  expect(build.status, `bun compile.ts failed: ${build.stderr}`).toBe(0);
  const doctor = spawnSync(join(root, "dist/sidecar"), ["doctor"], { cwd: root, encoding: "utf8", timeout: 120_000 });
  expect(doctor.stdout).toMatch(/ok\s+parse workers\s+worker threads start/);
}, 300_000);
