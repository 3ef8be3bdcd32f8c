// The console's live event stream: the run's state (cards, glance, running calls) on connect and on
// every change, and the call record's calls as they end.
import { cutStrings, RECORDED_STRING_CHARS, type CallEntry } from "../activity/call-entry.ts";
import { RECENT_CALLS, type RecentCalls } from "../activity/recent-calls.ts";
import type { RunningCalls } from "../activity/running-calls.ts";
import type { OperatorBoard } from "../questions/board.ts";
import type { GlanceSection } from "./glance.ts";

/** A comment line on the event stream this often, so a dead connection is noticed and detached. */
const STREAM_KEEPALIVE_MS = 15_000;
/** Calls starting or ending within this are sent to the page as one change. */
const RUNNING_COALESCE_MS = 200;
/** How often the run-at-a-glance panel is recomputed and re-sent when it changed. */
const GLANCE_REFRESH_MS = 5_000;

/** What the console shows: the run's resources, the calls of the call record, and the question cards. */
export interface ConsoleSources {
  glance(): GlanceSection[];
  calls: RecentCalls;
  /** Calls not ended yet. */
  running: RunningCalls;
  /** Where the whole record is (calls.jsonl), when the run keeps one. */
  recordPath: string | undefined;
  /**
   * The questions resource's cards, when the sidecar is its own question port; absent when the
   * harness's port answers them, or the run has no questions resource.
   */
  cards: OperatorBoard | undefined;
  /** Aborted when the run shuts down: every stream ends. */
  runSignal: AbortSignal;
  /** Which run this is, for the page's header: its checkout, its process, since when. */
  run: { workdir: string; pid: number; since: string };
}

/** The state event's body: the whole state, small enough to send again on every change. */
function state(sources: ConsoleSources): string {
  return JSON.stringify({ run: sources.run, board: sources.cards?.snapshot() ?? null, glance: sources.glance(), running: sources.running.list() });
}

/**
 * Server-sent events: the whole state on connect and on every change (it is small), so the page
 * never has to reconcile partial updates. An open stream is what "a human is attached" means.
 */
export function eventStream(sources: ConsoleSources, requestSignal: AbortSignal): Response {
  const { cards, runSignal } = sources;
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
        if (runSignal.aborted || cards?.isClosed) return stop();
        const next = state(sources);
        if (next === last) return;
        last = next;
        send(`event: state\ndata: ${next}\n\n`);
      };
      const detach = cards?.attach();
      const unsubscribe = cards?.onChange(push);
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
        unsubscribe?.();
        unfollow();
        unwatch();
        clearTimeout(coalesced);
        detach?.();
        requestSignal.removeEventListener("abort", stop);
        runSignal.removeEventListener("abort", stop);
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      requestSignal.addEventListener("abort", stop, { once: true });
      runSignal.addEventListener("abort", stop, { once: true });
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
