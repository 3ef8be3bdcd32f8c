// The operator page's HTTP face: the page at `/`, its live event stream, and answers posted from it.
import { readJsonBody } from "../../host/json-body.ts";
import * as v from "valibot";
import type { HarnessRoute } from "../../host/harness-route.ts";
import type { OperatorBoard } from "../board.ts";
import { OperatorSession } from "./operator-session.ts";
import { pageHeaders, PAGE_HTML, UNAUTHORIZED_HTML } from "./page-html.ts";

/** A comment line on the event stream this often, so a dead connection is noticed and detached. */
export const STREAM_KEEPALIVE_MS = 15_000;
/** How soon a page's EventSource reconnects after the stream drops (sent as the SSE `retry:` field). */
export const PAGE_RECONNECT_MS = 2_000;
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

export function operatorPageRoutes(board: OperatorBoard, token: string, glance: () => GlanceSection[]): HarnessRoute[] {
  const session = new OperatorSession(token);
  const state = () => JSON.stringify({ board: board.snapshot(), glance: glance() });

  return [
    {
      method: "GET",
      path: "/",
      public: true,
      handle(request) {
        const url = new URL(request.url);
        if (session.queryTokenValid(url)) {
          // Trade the token in the URL for a cookie and drop it from the address bar and history.
          return new Response(null, { status: 303, headers: { Location: "/", "Set-Cookie": session.setCookie(), "Cache-Control": "no-store" } });
        }
        if (!session.cookieValid(request)) return new Response(UNAUTHORIZED_HTML, { status: 401, headers: pageHeaders() });
        return new Response(PAGE_HTML, { headers: pageHeaders() });
      },
    },
    {
      method: "GET",
      path: "/operator/events",
      public: true,
      handle(request) {
        if (!session.cookieValid(request)) return jsonReply(401, { error: "Open the page URL from the ready line; it carries the token." });
        return eventStream(board, state, request.signal);
      },
    },
    {
      method: "POST",
      path: "/operator/cards/:id",
      public: true,
      async handle(request) {
        if (!session.cookieValid(request)) return jsonReply(401, { error: "Open the page URL from the ready line; it carries the token." });
        if (!session.sameOriginJson(request)) return jsonReply(403, { error: "Answers are accepted only as JSON from the operator page itself." });
        const id = decodeURIComponent(new URL(request.url).pathname.split("/").pop() ?? "");
        const parsed = await readJsonBody(request, cardAction, '{"action":"answer","option_ids":[…],"text":…} or {"action":"skip"}');
        if (!parsed.ok) return parsed.response;
        const result = parsed.value.action === "skip" ? board.skip(id) : board.answer(id, parsed.value.option_ids, parsed.value.text);
        return result.status === 200 ? jsonReply(200, { ok: true }) : jsonReply(result.status, { error: result.problem });
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
      send(`retry: ${PAGE_RECONNECT_MS}\n\n`);
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
