// The GitHub Actions workflow stays valid: checked against the workflow schema by action-validator.
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..", "..");

test("the CI workflow validates and runs the smoke test on Linux, macOS and Windows", () => {
  const workflow = join(root, ".github", "workflows", "ci.yml");
  const result = spawnSync(join(root, "node_modules", ".bin", "action-validator"), [workflow], { encoding: "utf8" });
  expect(result.stderr + result.stdout).toBe("");
  expect(result.status).toBe(0);
  const text = readFileSync(workflow, "utf8");
  for (const needle of ["macos-latest", "windows-latest", "ubuntu-latest", "build/smoke.ts", "npm test"]) expect(text).toContain(needle);
});
