// packages/harness-client's run config type stays the sidecar's: it is regenerated from the valibot
// schema and compared with the committed file. (The hand-written wire types: wire-types.test.ts.)
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { ERROR_CODE_TYPES_FILE, RUN_CONFIG_TYPES_FILE, errorCodeTypesText, runConfigTypesText } from "../../build/harness-client-types.ts";
import { ERROR_CODES } from "../../src/answer/error-codes.ts";
import { ROUTE_ERROR_CODES } from "../../src/answer/route-error.ts";
import { ROUTE_ERROR_CODES as CLIENT_ROUTE_CODES, TOOL_ERROR_CODES, type ToolErrorCode } from "../../packages/harness-client/src/index.ts";

describe("the harness client's types", () => {
  test("run-config.ts is what build/harness-client-types.ts makes of the current schema", () => {
    // On failure: `bun build/harness-client-types.ts`, and check the diff is the change you meant.
    expect(readFileSync(RUN_CONFIG_TYPES_FILE, "utf8")).toBe(runConfigTypesText());
  });

  test("error-codes.ts is what build/harness-client-types.ts makes of the sidecar's codes", () => {
    // On failure: `bun build/harness-client-types.ts`.
    expect(readFileSync(ERROR_CODE_TYPES_FILE, "utf8")).toBe(errorCodeTypesText());
    expect([...TOOL_ERROR_CODES]).toEqual(Object.keys(ERROR_CODES) as ToolErrorCode[]);
    expect([...CLIENT_ROUTE_CODES]).toEqual(Object.keys(ROUTE_ERROR_CODES) as (typeof CLIENT_ROUTE_CODES)[number][]);
  });
});
