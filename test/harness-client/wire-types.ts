// packages/harness-client's hand-written wire types held to the sidecar's own: each entry of
// WireChecks fails to compile when the two differ. wire-types.test.ts compiles this file.
import type * as client from "../../packages/harness-client/src/index.ts";
import type { ErrorShape } from "../../src/answer/error-codes.ts";
import type * as v from "valibot";
import type { runConfigSchema } from "../../src/config/schema.ts";
import type { WorkerGrade } from "../../src/config/resources/vibe.ts";
import type { WriteOutcome } from "../../src/lsp/after-write.ts";
import type { DiagnosticRow } from "../../src/lsp/present.ts";
import type { CardOption, PortOutcome, QuestionCard } from "../../src/questions/card.ts";

/** What a config file may hold (before the schema fills in defaults). */
type RunConfigInput = v.InferInput<typeof runConfigSchema>;

/** True only when A and B are the same type (not merely assignable one way). */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compiles only when given true. */
export type Holds<T extends true> = T;
/** Compiles only when A is assignable to B. */
export type Fits<A extends B, B> = [A, B];

export type WireChecks = [
  Holds<Equal<client.QuestionCard, QuestionCard>>,
  Holds<Equal<client.CardOption, CardOption>>,
  Holds<Equal<client.DiagnosticRow, DiagnosticRow>>,
  Holds<Equal<Omit<client.AfterWriteAnswer, "text">, WriteOutcome>>,
  Holds<Equal<client.WorkerEnvironment["SIDECAR_WORKER_TIER"], WorkerGrade>>,
  // Every config the sidecar accepts is a client RunConfig, and the other way round.
  Fits<RunConfigInput, client.RunConfig>,
  Fits<client.RunConfig, RunConfigInput>,
  // Every outcome a port may report is one the sidecar reads (it also has its own "failed"/"withdrawn").
  Fits<client.CardOutcome, PortOutcome | { outcome: "answered"; option_ids?: string[]; text?: string | null }>,
  Fits<ErrorShape, client.ToolError["error"]>,
];
