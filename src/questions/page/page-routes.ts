// The operator page's HTTP face: the page at `/`, its live event stream, and answers posted from it.
import { routeError } from "../../answer/route-error.ts";
import { readJsonBody } from "../../host/json-body.ts";
import * as v from "valibot";
import type { HarnessRoute } from "../../host/harness-route.ts";
import { cutStrings, RECORDED_STRING_CHARS, type CallEntry } from "../../activity/call-entry.ts";
import { RECENT_CALLS, type RecentCalls } from "../../activity/recent-calls.ts";
import type { RunningCalls } from "../../activity/running-calls.ts";
import type { OperatorBoard } from "../board.ts";
import type { PageAccess } from "./page-access.ts";
import { pageHeaders, PAGE_HTML } from "./page-html.ts";

/** A comment line on the event stream this often, so a dead connection is noticed and detached. */
export const STREAM_KEEPALIVE_MS = 15_000;
/** Calls starting or ending within this are sent to the page as one change. */
export const RUNNING_COALESCE_MS = 200;
/** How often the run-at-a-glance panel is recomputed and re-sent when it changed. */
export const GLANCE_REFRESH_MS = 5_000;

export interface GlanceRow {
  name: string;
  state: string;
  detail?: string;
}

/** One panel of the run at a glance: rows of name, state and detail. */
export interface GlanceSection {
  title: string;
  rows: GlanceRow[];
  /** What the panel says when it has no rows ("No kernel yet: …"). */
  empty?: string;
  /** Said under the rows, e.g. "50 of 212 shown". */
  note?: string;
}

/** What the page shows besides the cards: the run's resources, and the calls of the call record. */
export interface ConsoleSources {
  glance(): GlanceSection[];
  calls: RecentCalls;
  /** Calls not ended yet. */
  running: RunningCalls;
  /** Where the whole record is (calls.jsonl), when the run keeps one. */
  recordPath: string | undefined;
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

export function operatorPageRoutes(board: OperatorBoard, access: PageAccess, sources: ConsoleSources): HarnessRoute[] {
  const state = () => JSON.stringify({ board: board.snapshot(), glance: sources.glance(), running: sources.running.list() });

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
        return eventStream(board, state, sources, request.signal);
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
function eventStream(board: OperatorBoard, state: () => string, sources: ConsoleSources, requestSignal: AbortSignal): Response {
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
      // Calls start and end in bursts: their pushes are coalesced, board changes go at once.
      let coalesced: ReturnType<typeof setTimeout> | undefined;
      const unwatch = sources.running.onChange(() => {
        coalesced ??= setTimeout(() => {
          coalesced = undefined;
          push();
        }, RUNNING_COALESCE_MS);
      });
      // Calls are many and never change once ended: all kept ones on connect, then each as it ends.
      const calls = sources.calls;
      const listed = { limit: RECENT_CALLS, total: calls.total, record: sources.recordPath ?? null };
      send(`event: calls\ndata: ${JSON.stringify({ ...listed, calls: calls.entries().map(summary) })}\n\n`);
      const unfollow = calls.onCall((entry) => send(`event: call\ndata: ${JSON.stringify({ total: calls.total, call: summary(entry) })}\n\n`));
      const keepalive = setInterval(() => send(": keepalive\n\n"), STREAM_KEEPALIVE_MS);
      const refresh = setInterval(push, GLANCE_REFRESH_MS);
      stop = () => {
        clearInterval(keepalive);
        clearInterval(refresh);
        unsubscribe();
        unfollow();
        unwatch();
        clearTimeout(coalesced);
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

/** A call as the list shows it: argument strings cut as in calls.jsonl (opening the call shows more). */
function summary(entry: CallEntry): CallEntry {
  return { ...entry, arguments: cutStrings(entry.arguments, RECORDED_STRING_CHARS, 0) };
}

function jsonReply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
}
