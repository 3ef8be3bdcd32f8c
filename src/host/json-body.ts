// Reading a harness route's JSON body: parsed and validated, or a 400 that says what to send.
import * as v from "valibot";
import { routeError } from "../answer/route-error.ts";
import { issueText } from "../validation/issue-text.ts";

type BodyResult<T> = { ok: true; value: T } | { ok: false; response: Response };

/**
 * Parses `request`'s body as JSON and validates it with `schema`. On failure the 400 names the
 * first problem and `usage`, a picture of a correct body (code `invalid_body`).
 */
export async function readJsonBody<S extends v.GenericSchema>(request: Request, schema: S, usage: string): Promise<BodyResult<v.InferOutput<S>>> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return { ok: false, response: routeError(400, "invalid_body", `The body is not JSON; send ${usage}.`) };
  }
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = v.getDotPath(issue);
    return {
      ok: false,
      response: routeError(400, "invalid_body", `Invalid body${where ? ` at ${where}` : ""}: ${issueText(issue)}; send ${usage}.`),
    };
  }
  return { ok: true, value: parsed.output };
}
