// packages/harness-client's types stay the sidecar's: the run config type is regenerated from the
// valibot schema and compared with the committed file, and the hand-written wire types are held to
// the sidecar's own by type assertions that `tsc --noEmit` (npm run typecheck, in CI) checks.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { RUN_CONFIG_TYPES_FILE, runConfigTypesText } from "../../build/harness-client-types.ts";
import type * as client from "../../packages/harness-client/src/index.ts";
import type { ErrorShape } from "../../src/answer/error-codes.ts";
import type * as v from "valibot";
import type { runConfigSchema } from "../../src/config/schema.ts";
import type { WorkerTier } from "../../src/config/resources/vibe.ts";
import type { WriteOutcome } from "../../src/lsp/after-write.ts";
import type { DiagnosticRow } from "../../src/lsp/present.ts";
import type { CardOption, PortOutcome, QuestionCard } from "../../src/questions/card.ts";

/** What a config file may hold (before the schema fills in defaults). */
type RunConfigInput = v.InferInput<typeof runConfigSchema>;

/** True only when A and B are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function same<A, B>(verdict: Equal<A, B>): Equal<A, B> {
  return verdict;
}
function fits<A extends B, B>(): true {
  return true;
}

describe("the harness client's types", () => {
  test("run-config.ts is what build/harness-client-types.ts makes of the current schema", () => {
    // On failure: `bun build/harness-client-types.ts`, and check the diff is the change you meant.
    expect(readFileSync(RUN_CONFIG_TYPES_FILE, "utf8")).toBe(runConfigTypesText());
  });

  test("the wire types are the sidecar's own (checked by tsc)", () => {
    const checks = [
      same<client.QuestionCard, QuestionCard>(true),
      same<client.CardOption, CardOption>(true),
      same<client.DiagnosticRow, DiagnosticRow>(true),
      same<Omit<client.AfterWriteAnswer, "text">, WriteOutcome>(true),
      same<client.WorkerEnvironment["SIDECAR_WORKER_TIER"], WorkerTier>(true),
      // Every config the sidecar accepts is a client RunConfig, and the other way round.
      fits<RunConfigInput, client.RunConfig>(),
      fits<client.RunConfig, RunConfigInput>(),
      // Every outcome a port may report is one the sidecar reads (it also has its own "failed"/"withdrawn").
      fits<client.CardOutcome, PortOutcome | { outcome: "answered"; option_ids?: string[]; text?: string | null }>(),
      fits<ErrorShape, client.ToolError["error"]>(),
    ];
    expect(checks.every(Boolean)).toBe(true);
  });
});
