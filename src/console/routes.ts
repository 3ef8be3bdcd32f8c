// The console's HTTP face (the operator page): the page at `/`, the trade of its link for its secret,
// its live event stream, one call's detail, and the answers to question cards posted from it.
import { routeError } from "../answer/route-error.ts";
import { readJsonBody } from "../host/json-body.ts";
import * as v from "valibot";
import type { HarnessRoute } from "../host/harness-route.ts";
import { RECENT_CALLS } from "../activity/recent-calls.ts";
import type { OperatorBoard } from "../questions/board.ts";
import { eventStream, type ConsoleSources } from "./events.ts";
import type { PageAccess } from "./page-access.ts";
import { pageHeaders, PAGE_HTML } from "./page-html.ts";

const cardAction = v.variant("action", [
  v.strictObject({
    action: v.literal("answer"),
    option_ids: v.optional(v.array(v.string()), []),
    text: v.optional(v.nullable(v.string()), null),
  }),
  v.strictObject({ action: v.literal("skip") }),
]);

const ticketBody = v.strictObject({ ticket: v.string() });

const LOCKED = "Open the page link from the ready line of sidecar serve; it opens the page once in a browser.";

/** Every route of the console; answering cards only when the run's questions come to it. */
export function consoleRoutes(access: PageAccess, sources: ConsoleSources): HarnessRoute[] {
  return [
    {
      // The page holds no secret: without one it shows how to get in, and asks for nothing else.
      method: "GET",
      path: "/",
      public: true,
      handle: () => new Response(PAGE_HTML, { headers: pageHeaders() }),
    },
    {
      method: "POST",
      path: "/operator/session",
      public: true,
      async handle(request) {
        if (!access.sameOriginJson(request)) return routeError(403, "not_same_origin", "The page link is traded only by the operator page itself.");
        const parsed = await readJsonBody(request, ticketBody, '{"ticket": "<the k= of the page link>"}');
        if (!parsed.ok) return parsed.response;
        const secret = access.redeem(parsed.value.ticket);
        if (secret === undefined) {
          return routeError(401, "ticket_spent", "This page link was already used (a link opens the page once) or belongs to another run. A browser that opened it keeps the page; elsewhere, open the link of a new run.");
        }
        return jsonReply(200, { secret });
      },
    },
    {
      method: "GET",
      path: "/operator/events",
      public: true,
      handle(request) {
        if (!access.authorised(request)) return routeError(401, "page_secret_required", LOCKED);
        return eventStream(sources, request.signal);
      },
    },
    {
      // One call opened on the page: its arguments and its answer's text and images.
      method: "GET",
      path: "/operator/calls/:id",
      public: true,
      handle(request) {
        if (!access.authorised(request)) return routeError(401, "page_secret_required", LOCKED);
        const named = new URL(request.url).pathname.split("/").pop() ?? "";
        const detail = /^\d{1,9}$/.test(named) ? sources.calls.detail(Number(named)) : undefined;
        if (!detail) {
          const where = sources.recordPath ? ` The run's calls are all in ${sources.recordPath}.` : "";
          return routeError(404, "call_not_kept", `This page keeps no call ${JSON.stringify(named)}: it keeps the newest ${RECENT_CALLS} calls, numbered 1, 2, 3… in this run.${where}`);
        }
        return jsonReply(200, detail);
      },
    },
    ...(sources.cards ? [cardRoute(sources.cards, access)] : []),
  ];
}

/** The operator's answer to a question card, or a skip. */
function cardRoute(board: OperatorBoard, access: PageAccess): HarnessRoute {
  return {
    method: "POST",
    path: "/operator/cards/:id",
    public: true,
    async handle(request) {
      if (!access.authorised(request)) return routeError(401, "page_secret_required", LOCKED);
      if (!access.sameOriginJson(request)) return routeError(403, "not_same_origin", "Answers are accepted only as JSON from the operator page itself.");
      const id = decodeURIComponent(new URL(request.url).pathname.split("/").pop() ?? "");
      const parsed = await readJsonBody(request, cardAction, '{"action":"answer","option_ids":[…],"text":…} or {"action":"skip"}');
      if (!parsed.ok) return parsed.response;
      const result = parsed.value.action === "skip" ? board.skip(id) : board.answer(id, parsed.value.option_ids, parsed.value.text);
      if (result.status === 200) return jsonReply(200, { ok: true });
      return routeError(result.status, result.status === 404 ? "card_not_pending" : "answer_does_not_fit", result.problem!);
    },
  };
}

function jsonReply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
}
