// Pattern abuse in ast_grep: a pattern matching every node of a (nearly) 1 MiB file, and `$$$` runs
// around a repeated metavariable against a 1500-argument call, which backtracks without end.
import { describe, expect, test } from "bun:test";
import { MAX_MATCH_STEPS } from "../../src/syntax/match.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call } from "../helpers/call.ts";

/** The answer holds 50 records at most; the sidecar must not keep the rest in memory. */
const MEMORY_BOUND_BYTES = 400 * 1024 ** 2;

describe("ast_grep pattern abuse", () => {
  test("every node of a 1 MiB file: counted, 50 shown, memory bounded; a backtracking pattern is cut off with a note", async () => {
    await using dir = await tempDir();
    const line = "value_xxxxxxxxxx = compute(alpha, beta, gamma, delta)\n";
    const args = Array.from({ length: 1500 }, (_, i) => `a${i}`).join(", ");
    await dir.write({ "big.py": line.repeat(Math.floor(1_048_000 / line.length)), "args.py": `f(${args})\n` });
    await using t = await startTestRun(dir.path, { resources: { parser: {} } });
    const client = await t.client();
    const before = process.memoryUsage().rss;
    const every = await call(client, "ast_grep", { pattern: "$X", path: "big.py" });
    expect(every.isError).toBe(false);
    expect(every.data).toMatchObject({ shown: 50 });
    expect(Number(every.data.total)).toBeGreaterThan(100_000);
    expect(every.text).toContain("50 of");
    expect(process.memoryUsage().rss - before).toBeLessThan(MEMORY_BOUND_BYTES);

    const backtracking = await call(client, "ast_grep", { pattern: "f($$$A, $X, $$$B, $X, $$$C)", path: "args.py" });
    expect(backtracking.text).toContain(`args.py: matching gave up after ${MAX_MATCH_STEPS} steps`);
    // One run against the same list is well within the bound and still found.
    const single = await call(client, "ast_grep", { pattern: "f($$$A, a1499)", path: "args.py" });
    expect(single.data).toMatchObject({ total: 1 });
  }, 120_000);
});
