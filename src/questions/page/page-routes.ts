// The operator page's HTTP face: the page at `/`, its live event stream, and answers posted from it.
import { routeError } from "../../answer/route-error.ts";
import { readJsonBody } from "../../host/json-body.ts";
import * as v from "valibot";
import type { HarnessRoute } from "../../host/harness-route.ts";
import type { OperatorBoard } from "../board.ts";
import type { PageAccess } from "./page-access.ts";
import { pageHeaders, PAGE_HTML } from "./page-html.ts";

/** A comment line on the event stream this often, so a dead connection is noticed and detached. */
export const STREAM_KEEPALIVE_MS = 15_000;
/** How often the run-at-a-glance panel is recomputed and re-sent when it changed. */
export const GLANCE_REFRESH_MS = 5_000;

/** One panel of the run at a glance: rows of name, state and detail. */
export interface GlanceSection {
  title: string;
  rows: { name: string; state: string; detail?: string }[];
}

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

export function operatorPageRoutes(board: OperatorBoard, access: PageAccess, glance: () => GlanceSection[]): HarnessRoute[] {
  const state = () => JSON.stringify({ board: board.snapshot(), glance: glance() });

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
        return eventStream(board, state, request.signal);
      },
    },
    {
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
    },
  ];
}

/**
 * Server-sent events: the whole state on connect and on every change (it is small), so the page
 * never has to reconcile partial updates. An open stream is what "a human is attached" means.
 */
function eventStream(board: OperatorBoard, state: () => string, requestSignal: AbortSignal): Response {
  const encoder = new TextEncoder();
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let last = "";
      const send = (chunk: string) => {
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          stop();
        }
      };
      const push = () => {
        if (board.isClosed) return stop();
        const next = state();
        if (next === last) return;
        last = next;
        send(`event: state\ndata: ${next}\n\n`);
      };
      const detach = board.attach();
      const unsubscribe = board.onChange(push);
      const keepalive = setInterval(() => send(": keepalive\n\n"), STREAM_KEEPALIVE_MS);
      const refresh = setInterval(push, GLANCE_REFRESH_MS);
      stop = () => {
        clearInterval(keepalive);
        clearInterval(refresh);
        unsubscribe();
        detach();
        requestSignal.removeEventListener("abort", stop);
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      requestSignal.addEventListener("abort", stop, { once: true });
      push();
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, {
    headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no" },
  });
}

function jsonReply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
}
