// Paging by `offset`, one way for every tool: a page of `max` rows says "N of M shown (a–b)" and
// how to get the next, and an offset past the end is refused in plain words (docs/tools.md, *Pages*).
import { ToolFailure } from "../answer/failure.ts";

export interface Page<T> {
  items: T[];
  shown: number;
  total: number;
  offset: number;
  /** "50 of 142 shown (1–50); pass offset 50 for the next", or "" when all are shown. */
  note: string;
}

/** One page of a list: `max` rows from `offset`, saying what was left out and how to get it. */
export function paged<T>(rows: readonly T[], offset = 0, max: number): Page<T> {
  refusePastEnd(offset, rows.length);
  const items = rows.slice(offset, offset + max);
  return { items, shown: items.length, total: rows.length, offset, note: pageNote(offset, items.length, rows.length) };
}

/** A page's note where the rows shown are all the caller holds (a search that counted the rest): "" when all are shown. */
export function pageNote(offset: number, shown: number, total: number): string {
  if (offset === 0 && shown === total) return "";
  const end = offset + shown;
  return `${shown} of ${total} shown (${offset + 1}–${end})${end < total ? `; pass offset ${end} for the next` : ""}`;
}

/** An offset at or past the end of a non-empty list is a mistake the caller should hear about, not an empty page. */
export function refusePastEnd(offset: number, total: number): void {
  if (offset > 0 && offset >= total) {
    throw new ToolFailure(`offset ${offset} is past the end: there are ${total} row(s). Pass an offset below ${total}, or omit it for the first page.`, { code: "invalid_arguments" });
  }
}
