// The few lines a write's answer gets about diagnostics: what is new, what was fixed, what could not be told.
import { shownPath } from "../workspace/shown-path.ts";
import type { DiagnosticRow } from "./present.ts";
import type { WriteOutcome } from "./write-check.ts";

/** Diagnostics of a file with no known text before the write: this many are listed. */
const UNVERIFIED_LISTED = 20;

/**
 * `always` (resolve, lsp_rename) says "checked, nothing new" too, so an empty answer is never read as
 * "not checked"; the harness's write wrappers get text only when there is something to say.
 */
export function describeWriteOutcome(outcome: WriteOutcome, options: { always?: boolean } = {}): string {
  const lines: string[] = [];
  const fixed = outcome.files.reduce((n, f) => n + f.fixed, 0);
  const already = outcome.files.reduce((n, f) => n + f.already, 0);
  if (outcome.new.length) {
    lines.push(`${outcome.new.length} new diagnostic${outcome.new.length === 1 ? "" : "s"} after this write:`);
    for (const d of outcome.new) lines.push(`  ${rowLine(d)}`);
  }
  const counts = [...(fixed ? [`${fixed} fixed`] : []), ...(already ? [`${already} already there before this write (not new)`] : [])];
  const includers = outcome.includers ?? [];
  const checked = includers.length ? "Diagnostics checked: nothing new in the written files" : "Diagnostics checked: nothing new";
  if (outcome.new.length && counts.length) lines.push(`Also: ${counts.join("; ")}.`);
  else if (!outcome.new.length && (fixed || options.always) && outcome.status === "fresh") lines.push([checked, ...counts].join("; ") + ".");
  for (const f of outcome.files) {
    if (f.status !== "fresh") {
      lines.push(`${shownPath(f.path)}: diagnostics ${f.status === "timed_out" ? "timed out" : "unavailable"}: ${f.reason}`);
      continue;
    }
    const unverified = f.unverified ?? [];
    if (unverified.length === 0) continue;
    lines.push(
      `${shownPath(f.path)}: ${unverified.length} diagnostic(s), new or not nobody can tell: its text before this write is not known (it changed outside the sidecar, or is not in git)${unverified.length > UNVERIFIED_LISTED ? `; ${UNVERIFIED_LISTED} of ${unverified.length} shown` : ""}:`,
    );
    for (const d of unverified.slice(0, UNVERIFIED_LISTED)) lines.push(`  ${rowLine(d)}`);
  }
  for (const f of includers) {
    lines.push(`${shownPath(f.path)}: ${f.unverified.length} diagnostic(s) now, new or not nobody can tell: it includes a written header and was not open before this write, so its diagnostics before are not known:`);
    for (const d of f.unverified.slice(0, UNVERIFIED_LISTED)) lines.push(`  ${rowLine(d)}`);
  }
  if (outcome.uncompared) lines.push(`(${outcome.uncompared} other file(s) now have diagnostics with no earlier record to compare; lsp diagnostics lists a file's.)`);
  return lines.join("\n");
}

/** A message's own later lines (clangd's and pyright's notes) stay indented under it. */
function rowLine(d: DiagnosticRow): string {
  return `${shownPath(d.path)}:${d.line}: ${d.severity}${d.code ? ` ${d.code}` : ""}: ${d.message.replace(/\n/g, "\n    ")}`;
}
