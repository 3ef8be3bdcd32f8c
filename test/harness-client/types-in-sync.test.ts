// packages/harness-client's run config type stays the sidecar's: it is regenerated from the valibot
// schema and compared with the committed file. (The hand-written wire types: wire-types.test.ts.)
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { RUN_CONFIG_TYPES_FILE, runConfigTypesText } from "../../build/harness-client-types.ts";

describe("the harness client's types", () => {
  test("run-config.ts is what build/harness-client-types.ts makes of the current schema", () => {
    // On failure: `bun build/harness-client-types.ts`, and check the diff is the change you meant.
    expect(readFileSync(RUN_CONFIG_TYPES_FILE, "utf8")).toBe(runConfigTypesText());
  });
});
