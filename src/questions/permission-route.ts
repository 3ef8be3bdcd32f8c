// POST /harness/permission: a harness puts a yes/no card on the same port and page, and gets the outcome.
import { routeError } from "../answer/route-error.ts";
import { readJsonBody } from "../host/json-body.ts";
import * as v from "valibot";
import type { HarnessRoute } from "../host/harness-route.ts";
import type { AskResult } from "./desk.ts";
import type { QuestionService } from "./connect.ts";

const permissionRequest = v.strictObject({
  question: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(2_000)),
  context: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(8_000))), null),
  space: v.optional(v.pipe(v.string(), v.minLength(1))),
});

/** The reply body: `allowed` and `denied` are the operator's; anything else means nobody decided (deny). */
type PermissionReply = { outcome: "allowed" | "denied" | "timeout" | "no_human" | "failed" | "cancelled"; reason?: string };

export function permissionRoute(questions: QuestionService): HarnessRoute {
  return {
    method: "POST",
    path: "/harness/permission",
    async handle(request) {
      const parsed = await readJsonBody(request, permissionRequest, '{"question": non-empty string, "context"?: string, "space"?: string}');
      if (!parsed.ok) return parsed.response;
      const space = parsed.value.space ?? questions.space;
      if (space === undefined) {
        return routeError(400, "no_space", "No space: pass space in the body, or set resources.questions.space in the run config.");
      }
      // The harness hanging up withdraws the card, exactly like a cancelled ask_user call.
      const result = await questions.desk.permission(space, parsed.value.question, parsed.value.context?.trim() || null, {
        signal: request.signal,
        progress: () => {},
      });
      return Response.json(decision(result));
    },
  };
}

/** What the harness reads; everything but `allowed` means "do not do it". */
function decision(result: AskResult): PermissionReply {
  switch (result.outcome) {
    case "answered":
      return { outcome: result.selected.includes("Allow") ? "allowed" : "denied" };
    case "no_human":
      return { outcome: "no_human", reason: result.reason };
    case "port_failed":
      return { outcome: "failed", reason: result.reason };
    case "timeout":
      return { outcome: "timeout" };
    default:
      return { outcome: "cancelled" };
  }
}
