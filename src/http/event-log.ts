// One session's recent event-stream messages, so that a client whose connection dropped can resume
// a stream with Last-Event-ID and get what it missed (the SDK's EventStore). Bounded: what a
// reconnecting client needs is the tail of a call still running, or the answer it just missed.
import type { EventStore } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Events kept per stream: the newest, and always a stream's answer (progress beyond this is old news). */
const MAX_EVENTS_PER_STREAM = 100;
/** Answered streams kept per session, newest first, for a client that missed an answer. */
export const MAX_SETTLED_STREAMS = 16;
/** How long an answered stream stays resumable: a client reconnects within its retry delay, or backs off to 30 s. */
const SETTLED_KEPT_MS = 60_000;

interface LoggedEvent {
  id: string;
  message: JSONRPCMessage;
}

interface StreamLog {
  events: LoggedEvent[];
  /** When its answer was sent or its call cancelled; undefined while it may still get events. */
  settledAt?: number;
}

export class EventLog implements EventStore {
  private readonly streams = new Map<string, StreamLog>();
  /** Settled streams in the order they settled (oldest first), with when: forgetting is a walk from the front, not a scan of every stream per answer. */
  private readonly settledOrder = new Map<string, number>();
  private sequence = 0;
  private sweep: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly keptMs = SETTLED_KEPT_MS,
  ) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}.${++this.sequence}`;
    const log = this.streams.get(streamId) ?? { events: [] };
    this.streams.set(streamId, log);
    log.events.push({ id, message });
    // The oldest event goes, never the answer, which comes last.
    if (log.events.length > MAX_EVENTS_PER_STREAM) log.events.splice(0, 1);
    if (isAnswer(message)) this.settle(streamId);
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return streamOf(eventId);
  }

  /** Replays the stream's events after `lastEventId` (what is still kept of them); the SDK then carries on with the stream. */
  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    for (const event of this.eventsAfter(lastEventId) ?? []) await send(event.id, event.message);
    return streamOf(lastEventId) ?? "";
  }

  /** The events of `lastEventId`'s stream that came after it; undefined when the stream is not (or no longer) kept. */
  eventsAfter(lastEventId: string): LoggedEvent[] | undefined {
    const streamId = streamOf(lastEventId);
    const log = streamId === undefined ? undefined : this.streams.get(streamId);
    if (!log) return undefined;
    const after = sequenceOf(lastEventId);
    // A priming event has no message to replay: its id only marks where the stream began.
    return log.events.filter((event) => sequenceOf(event.id) > after && Object.keys(event.message).length > 0);
  }

  /** The stream will get no more events (answered, or its call cancelled); it stays resumable for a while. */
  settle(streamId: string): void {
    const log = this.streams.get(streamId);
    if (!log || log.settledAt !== undefined) return;
    log.settledAt = this.now();
    this.settledOrder.set(streamId, log.settledAt);
    this.forgetOldSettled();
  }

  private forgetOldSettled(): void {
    const cutoff = this.now() - this.keptMs;
    for (const [streamId, settledAt] of this.settledOrder) {
      if (settledAt >= cutoff && this.settledOrder.size <= MAX_SETTLED_STREAMS) break;
      this.settledOrder.delete(streamId);
      this.streams.delete(streamId);
    }
    this.sweepLater();
  }

  /**
   * Forgets the oldest kept answer once its time is up even when no other stream settles after it:
   * an idle session (a client that went away without DELETE) would otherwise hold its last answers
   * for as long as it lives. One timer per log, not one per stream (a timer per call kept a closure
   * per call alive for its minute: test/hardening/retained-calls.test.ts).
   */
  private sweepLater(): void {
    if (this.sweep !== undefined) return;
    const oldest: number | undefined = this.settledOrder.values().next().value;
    if (oldest === undefined) return;
    this.sweep = setTimeout(() => {
      this.sweep = undefined;
      this.forgetOldSettled();
    }, Math.max(0, oldest + this.keptMs - this.now()) + 1);
    this.sweep.unref();
  }
}

/** The stream an event id belongs to: ids are `<stream>.<sequence>`. */
export function streamOf(eventId: string): string | undefined {
  const dot = eventId.lastIndexOf(".");
  return dot > 0 && Number.isInteger(Number(eventId.slice(dot + 1))) ? eventId.slice(0, dot) : undefined;
}

function sequenceOf(eventId: string): number {
  return Number(eventId.slice(eventId.lastIndexOf(".") + 1));
}

function isAnswer(message: JSONRPCMessage): boolean {
  return "id" in message && ("result" in message || "error" in message);
}
