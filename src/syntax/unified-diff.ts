// A unified diff built straight from known replacements (no general diff algorithm needed):
// each replacement's lines become a change, nearby changes share a hunk with 3 lines of context.
import type { Replacement } from "./rewrite.ts";

const CONTEXT_LINES = 3;

interface Change {
  /** 0-based first and last old line touched. */
  from: number;
  to: number;
  replacements: Replacement[];
}

export function unifiedDiff(rel: string, original: string, replacements: readonly Replacement[]): string {
  const lineStarts = [0];
  for (let at = original.indexOf("\n"); at !== -1; at = original.indexOf("\n", at + 1)) lineStarts.push(at + 1);
  const lineOf = (index: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  // A final newline ends the last line; it does not start an empty one.
  const endsWithNewline = original.endsWith("\n");
  const oldLines = original.split("\n");
  if (endsWithNewline) oldLines.pop();
  const lastLine = oldLines.length - 1;
  const noNewline = "\\ No newline at end of file";
  /** Pushes an old line (context or removed); the last one without a newline says so, as diff does. */
  const pushOld = (body: string[], prefix: string, line: number) => {
    body.push(`${prefix}${oldLines[line]}`);
    if (line === lastLine && !endsWithNewline) body.push(noNewline);
  };
  const changes: Change[] = [];
  for (const r of replacements) {
    const from = Math.min(lineOf(r.start), lastLine);
    const to = Math.min(lineOf(Math.max(r.start, r.end - 1)), lastLine);
    const last = changes[changes.length - 1];
    if (last && from <= last.to + 1) {
      last.to = Math.max(last.to, to);
      last.replacements.push(r);
    } else changes.push({ from, to, replacements: [r] });
  }
  const out = [`--- a/${rel}`, `+++ b/${rel}`];
  let shift = 0; // lines added minus removed by earlier hunks
  for (let k = 0; k < changes.length; ) {
    let end = k;
    while (end + 1 < changes.length && changes[end + 1]!.from - changes[end]!.to <= 2 * CONTEXT_LINES + 1) end++;
    const hunkFrom = Math.max(0, changes[k]!.from - CONTEXT_LINES);
    const hunkTo = Math.min(oldLines.length - 1, changes[end]!.to + CONTEXT_LINES);
    const body: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    let line = hunkFrom;
    for (let c = k; c <= end; c++) {
      const change = changes[c]!;
      for (; line < change.from; line++, oldCount++, newCount++) pushOld(body, " ", line);
      const spanStart = lineStarts[change.from]!;
      const spanEnd = change.to + 1 < lineStarts.length ? lineStarts[change.to + 1]! - 1 : original.length;
      let replaced = "";
      let at = spanStart;
      for (const r of change.replacements) {
        replaced += original.slice(at, r.start) + r.text;
        at = r.end;
      }
      replaced += original.slice(at, spanEnd);
      const endsFile = change.to === lastLine;
      for (; line <= change.to; line++, oldCount++) pushOld(body, "-", line);
      for (const text of replaced.split("\n")) {
        body.push(`+${text}`);
        newCount++;
      }
      if (endsFile && !endsWithNewline) body.push(noNewline);
    }
    for (; line <= hunkTo; line++, oldCount++, newCount++) pushOld(body, " ", line);
    out.push(`@@ -${hunkFrom + 1},${oldCount} +${hunkFrom + 1 + shift},${newCount} @@`, ...body);
    shift += newCount - oldCount;
    k = end + 1;
  }
  return out.join("\n");
}
