// The calls running right now, for the operator page: what each is, and since when. A call leaves
// when it ends (and then appears among the recent calls).
import { cutStrings, RECORDED_STRING_CHARS } from "./call-entry.ts";
import type { CallStart } from "./call-report.ts";

interface RunningCall {
  surface: string;
  tool: string;
  /** Argument strings cut as in calls.jsonl. */
  arguments: unknown;
  /** ISO time the call started. */
  time: string;
}

export class RunningCalls {
  private readonly calls = new Map<CallStart, RunningCall>();
  private readonly listeners = new Set<() => void>();

  started(start: CallStart): void {
    this.calls.set(start, {
      surface: start.surface,
      tool: start.tool,
      arguments: cutStrings(start.arguments, RECORDED_STRING_CHARS, 0),
      time: new Date(start.startedAt).toISOString(),
    });
    this.changed();
  }

  ended(start: CallStart | undefined): void {
    if (start && this.calls.delete(start)) this.changed();
  }

  /** Oldest first. */
  list(): RunningCall[] {
    return [...this.calls.values()];
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
