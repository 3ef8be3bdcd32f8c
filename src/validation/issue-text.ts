// One validation problem in words a model or a person can act on, wherever input is validated.
import type * as v from "valibot";

/** A required argument that is absent, in words. */
export const MISSING = "missing; it is required";

/**
 * The issue's own message, except where valibot's reads as an internal: a required key that is
 * absent comes as `Invalid key: Expected "code" but received undefined`.
 */
export function issueText(issue: v.BaseIssue<unknown>): string {
  if (issue.kind === "schema" && issue.received === "undefined" && issue.message.startsWith("Invalid key:")) return MISSING;
  return issue.message;
}
