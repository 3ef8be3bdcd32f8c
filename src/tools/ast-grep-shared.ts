// Input pieces and result shaping shared by ast_grep and ast_edit.
import * as v from "valibot";
import type { MatchRecord } from "../syntax/file-search.ts";
import type { SearchAnswer } from "../syntax/service.ts";
import { relativeToWorkdir } from "../workspace/paths.ts";
import { shownPath } from "../workspace/shown-path.ts";

export const patternArg = v.pipe(
  v.string("expected a code fragment such as `foo($A)`"),
  v.minLength(1, "expected a non-empty code fragment"),
  v.maxLength(10_000, "expected a pattern under 10000 characters"),
  v.description("Code fragment with metavariables: $NAME one node, $$$NAME a run of nodes, $_ a wildcard."),
);
export const pathArg = v.optional(
  v.pipe(v.string("expected a workspace-relative path"), v.minLength(1), v.description("File or directory to search; default the whole workspace.")),
);
export const languageArg = v.optional(
  v.pipe(v.string("expected a grammar id"), v.description("Grammar id (dart, python, rust, c, …); inferred when path names a file.")),
);

export const positionSchema = v.object({ line: v.number(), column: v.number() });
export const matchSchema = v.object({
  path: v.string(),
  start: positionSchema,
  end: positionSchema,
  text: v.string(),
  bindings: v.record(v.string(), v.string()),
});
export type MatchOut = v.InferOutput<typeof matchSchema>;

export function matchesOf(root: string, answer: SearchAnswer): MatchOut[] {
  return answer.outcomes.flatMap((o) => o.matches.map((m: MatchRecord) => ({ path: relativeToWorkdir(root, o.path), ...m })));
}

export function formatMatch(match: MatchOut): string {
  const head = `${shownPath(match.path)}:${match.start.line}:${match.start.column}-${match.end.line}:${match.end.column}`;
  const body = match.text.split("\n").map((line) => `  ${line}`).join("\n");
  const names = Object.entries(match.bindings).map(([name, value]) => `  $${name} = ${value.split("\n")[0]}${value.includes("\n") ? " …" : ""}`);
  return [head, body, ...names].join("\n");
}

/** Files with parse errors named in a note, at most this many (the rest counted). */
const BROKEN_FILES_NAMED = 10;

export function skippedNotes(root: string, answer: SearchAnswer, fallbackReason?: string): string[] {
  const notes = answer.outcomes.filter((o) => o.skipped).map((o) => `${shownPath(relativeToWorkdir(root, o.path))}: ${o.skipped}`);
  const broken = answer.outcomes.filter((o) => o.parseErrors).sort((a, b) => b.parseErrors! - a.parseErrors!);
  if (broken.length > 0) {
    const named = broken.slice(0, BROKEN_FILES_NAMED).map((o) => `${shownPath(relativeToWorkdir(root, o.path))} (${o.parseErrors})`);
    const more = broken.length > BROKEN_FILES_NAMED ? ` and ${broken.length - BROKEN_FILES_NAMED} more` : "";
    notes.push(
      `${broken.length} searched file(s) have syntax ${answer.languages.length > 1 ? "their" : `the ${answer.language}`} grammar could not parse, so matches inside those parts may be missing ` +
        `(error nodes per file): ${named.join(", ")}${more}`,
    );
  }
  if (answer.unparsed.length > 0) {
    const files = answer.unparsed.reduce((n, u) => n + u.files, 0);
    notes.push(
      `the pattern does not parse as ${answer.unparsed.map((u) => `${u.language} (${u.files} file(s))`).join(", ")}, so those ${files} file(s) were not searched; ` +
        `searched as ${answer.languages.join(", ")}. Pass language to search one language, and to see where the pattern's parse broke in it`,
    );
  }
  for (const { language, files } of answer.unnamed) {
    notes.push(`${files} ${language} file(s) were not searched: ${language} is searched only when asked for, with language: "${language}" (or one such file as path)`);
  }
  if (answer.oversized > 0) notes.push(`${answer.oversized} file(s) over the size limit were not searched`);
  if (fallbackReason) notes.push(fallbackReason);
  return notes;
}
