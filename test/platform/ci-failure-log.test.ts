// .ci/run repeats each failing test with its error at the end of the log, so a log cut to its tail
// (as the project's CI keeps it) still says why: build/repeat-failures.awk over a real bun test run.
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { tempDir } from "../helpers/temp-dir.ts";

const root = join(import.meta.dir, "..", "..");

test("each failing test comes back with its error and its file; passing tests and bun's closing list do not", async () => {
  await using dir = await tempDir();
  await dir.write({
    "a.test.ts": [
      'import { expect, test } from "bun:test";',
      'test("first passes", () => expect(1).toBe(1));',
      'test("second fails", () => { console.log(["logged", "by the second"].join(" ")); expect("got").toBe("wanted"); });',
      'test("third passes", () => expect(1).toBe(1));',
      // Enough tests that bun closes with its list of the failures by name.
      ...Array.from({ length: 30 }, (_, k) => `test("filler ${k} passes", () => expect(1).toBe(1));`),
    ].join("\n"),
    "b.test.ts": ['import { test } from "bun:test";', 'test("fourth throws", () => { throw new Error("the fourth broke"); });'].join("\n"),
  });
  // Both streams into one file, interleaved as in CI's log.
  const run = spawnSync("sh", ["-c", `"${process.execPath}" test > test-output.txt 2>&1`], { cwd: dir.path });
  expect(run.status).not.toBe(0);
  const log = join(dir.path, "test-output.txt");
  expect(await Bun.file(log).text()).toContain("2 tests failed:");

  const repeated = spawnSync("awk", ["-f", join(root, "build", "repeat-failures.awk"), log], { encoding: "utf8" });
  expect(repeated.status).toBe(0);
  const text = repeated.stdout;
  expect(text).toContain("The failing tests again");
  for (const needle of ["a.test.ts:", "logged by the second", 'Expected: "wanted"', "(fail) second fails", "b.test.ts:", "error: the fourth broke", "(fail) fourth throws"]) {
    expect(text).toContain(needle);
  }
  expect(text).not.toContain("(pass)");
  expect(text.match(/\(fail\) second fails/g)).toHaveLength(1);
});
