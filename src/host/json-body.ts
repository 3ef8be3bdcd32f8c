// Reading a harness route's JSON body: parsed and validated, or a 400 that says what to send.
import * as v from "valibot";
import { issueText } from "../validation/issue-text.ts";

export type BodyResult<T> = { ok: true; value: T } | { ok: false; response: Response };

/**
 * Parses `request`'s body as JSON and validates it with `schema`. On failure the 400 names the
 * first problem and `usage`, a picture of a correct body.
 */
export async function readJsonBody<S extends v.GenericSchema>(request: Request, schema: S, usage: string): Promise<BodyResult<v.InferOutput<S>>> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return { ok: false, response: Response.json({ error: `The body is not JSON; send ${usage}.` }, { status: 400 }) };
  }
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = v.getDotPath(issue);
    return {
      ok: false,
      response: Response.json({ error: `Invalid body${where ? ` at ${where}` : ""}: ${issueText(issue)}; send ${usage}.` }, { status: 400 }),
    };
  }
  return { ok: true, value: parsed.output };
}
