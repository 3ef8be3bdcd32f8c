// Settings of the question port resource (ask_user, permission prompts, the operator page).
import * as v from "valibot";
import { configObject, httpUrl, nonEmptyString } from "./shared.ts";

export const questionSettings = configObject({
  /** The harness's question port (docs/harness.md); absent means the sidecar's own operator page answers. */
  port: v.optional(httpUrl),
  /** Sent as `Authorization: Bearer …` to the harness's port, when it wants one. */
  token: v.optional(nonEmptyString("a token")),
  /** The target space (conversation UI) questions are shown in; ask_user exists only with one. */
  space: v.optional(nonEmptyString("a space id")),
  /** How long a question waits for an answer before it times out (default 600). */
  timeoutSeconds: v.optional(
    v.pipe(
      v.number("expected a number of seconds"),
      v.integer("expected a whole number of seconds"),
      v.minValue(1, "expected at least 1 second"),
      v.maxValue(86_400, "expected at most 86400 seconds (a day)"),
    ),
  ),
});
export type QuestionSettings = v.InferOutput<typeof questionSettings>;
