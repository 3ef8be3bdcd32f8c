// POST /harness/after-write: the harness's write wrappers report changed paths and get back only new diagnostics.
import { routeError } from "../answer/route-error.ts";
import type { HarnessRoute } from "../host/harness-route.ts";
import { describeWriteOutcome } from "./write-report.ts";
import type { LanguageServices } from "./service.ts";

/** A write touching more files than this is a bulk operation, not an edit worth diagnosing file by file. */
const AFTER_WRITE_MAX_PATHS = 100;

export function afterWriteRoute(services: LanguageServices): HarnessRoute {
  return {
    method: "POST",
    path: "/harness/after-write",
    async handle(request) {
      let body: unknown;
      try {
        body = await request.json();
      } catch {
        return routeError(400, "invalid_body", 'The body is not JSON; send {"paths": ["src/a.ts", …]}.');
      }
      const paths = (body as { paths?: unknown })?.paths;
      if (!Array.isArray(paths) || paths.length === 0 || !paths.every((p) => typeof p === "string" && p.length > 0)) {
        return routeError(400, "invalid_body", 'Expected {"paths": [...]} with at least one workspace-relative path as a non-empty string.');
      }
      if (paths.length > AFTER_WRITE_MAX_PATHS) return routeError(400, "invalid_body", `Too many paths (${paths.length}); send at most ${AFTER_WRITE_MAX_PATHS} per request.`);
      const outcome = await services.afterWrite(paths as string[], request.signal);
      return Response.json({ ...outcome, text: describeWriteOutcome(outcome) });
    },
  };
}
