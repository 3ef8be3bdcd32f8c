// Settings of the question port resource (ask_user).
import * as v from "valibot";
import { httpUrl, nonEmptyString } from "./shared.ts";

export const questionSettings = v.strictObject({
  /** The harness's question port; absent means the sidecar's own operator page answers. */
  port: v.optional(httpUrl),
  /** The target space (conversation UI) questions are shown in. */
  space: v.optional(nonEmptyString("a space id")),
});
export type QuestionSettings = v.InferOutput<typeof questionSettings>;
