// The newest calls of the run, in memory, with enough of each (its arguments, its answer's text and
// images) for the operator page to open it; bounded so a long run holds no more than a few MB.
import { capText } from "../tool/budget.ts";
import type { CallEntry } from "./call-entry.ts";

/** Calls the page can list and open. */
export const RECENT_CALLS = 200;
/** An opened call's answer text, at most (head and tail kept). */
const DETAIL_TEXT_BYTES = 16 * 1024;
/** Argument strings shown when a call is opened (a cell's code, a pattern). */
export const DETAIL_STRING_CHARS = 4_000;
/** Image bytes kept across the recent calls; the oldest calls' images go first. */
const DETAIL_IMAGE_BYTES = 16 * 2 ** 20;

interface CallDetail {
  /** The call's record line, with arguments cut at DETAIL_STRING_CHARS rather than the record's bound. */
  entry: CallEntry;
  /** The answer's text (cut in the middle past DETAIL_TEXT_BYTES, saying so). */
  text: string;
  images: { mimeType: string; data: string }[];
  /** Images the call returned that are no longer kept (memory bound), or that were never kept. */
  imagesDropped: number;
}

export class RecentCalls {
  private readonly calls: CallDetail[] = [];
  private imageBytes = 0;
  private added = 0;
  private readonly listeners = new Set<(entry: CallEntry) => void>();

  add(entry: CallEntry, text: string, images: { mimeType: string; data: string }[]): void {
    const detail: CallDetail = { entry, text: boundedText(text), images, imagesDropped: 0 };
    this.added++;
    this.calls.push(detail);
    this.imageBytes += sizeOf(images);
    if (this.calls.length > RECENT_CALLS) this.imageBytes -= sizeOf(this.calls.shift()!.images);
    for (const old of this.calls) {
      if (this.imageBytes <= DETAIL_IMAGE_BYTES) break;
      this.imageBytes -= sizeOf(old.images);
      old.imagesDropped += old.images.length;
      old.images = [];
    }
    for (const listener of this.listeners) listener(entry);
  }

  /** Calls kept now (at most RECENT_CALLS). */
  get size(): number {
    return this.calls.length;
  }

  /** Calls added in all, kept or not. */
  get total(): number {
    return this.added;
  }

  /** The recent calls' entries, oldest first. */
  entries(): CallEntry[] {
    return this.calls.map((call) => call.entry);
  }

  detail(id: number): CallDetail | undefined {
    return this.calls.find((call) => call.entry.id === id);
  }

  onCall(listener: (entry: CallEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function boundedText(text: string): string {
  const capped = capText(text, DETAIL_TEXT_BYTES);
  return capped.cutBytes === 0 ? text : `${capped.text}\n(${DETAIL_TEXT_BYTES} of ${Buffer.byteLength(text)} bytes kept for this page; the agent got all of it)`;
}

function sizeOf(images: readonly { data: string }[]): number {
  return images.reduce((sum, image) => sum + image.data.length, 0);
}
