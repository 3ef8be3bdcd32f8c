// Input pieces and result shaping shared by ast_grep and ast_edit.
import * as v from "valibot";
import { ToolFailure } from "../answer/failure.ts";
import type { MatchRecord } from "../syntax/file-search.ts";
import { isRule, type Query } from "../syntax/rules/compiled.ts";
import type { RuleConfig } from "../syntax/rules/spec.ts";
import { ruleConfigArgument } from "../syntax/rules/validate.ts";
import type { SearchAnswer } from "../syntax/service.ts";
import { relativeToWorkdir } from "../workspace/paths.ts";
import { shownPath } from "../workspace/shown-path.ts";

export const patternArg = v.optional(
  v.pipe(
    v.string("expected a code fragment such as `foo($A)`"),
    v.minLength(1, "expected a non-empty code fragment"),
    v.maxLength(10_000, "expected a pattern under 10000 characters"),
    v.description("Code fragment with metavariables: $NAME one node, $$$NAME a run of nodes, $_ a wildcard. Give pattern or rule, not both."),
  ),
);
export const ruleArg = v.optional(
  v.union(
    [
      v.pipe(v.string(), v.minLength(1, "expected a non-empty rule"), v.maxLength(100_000, "expected a rule under 100000 characters")),
      v.record(v.string(), v.unknown()),
    ],
    "expected an ast-grep rule config: YAML text or a JSON object with a `rule` key",
  ),
);
export const ruleDescription =
  "An ast-grep rule config instead of a pattern: YAML text or a JSON object with `rule` (pattern, kind, regex, nthChild, range, inside, has, precedes, follows, all, any, not, matches), and optionally `constraints`, `utils`, `language`.";

/** Exactly one of pattern and rule: the check every call of ast_grep and ast_edit gets. */
export function onePatternOrRule<T extends { pattern?: string; rule?: string | Record<string, unknown> }>() {
  return v.check<T, string>((input) => (input.pattern === undefined) !== (input.rule === undefined), "give pattern (a code fragment) or rule (an ast-grep rule config), exactly one of them");
}

/** The rule argument read and checked; a bad one is an invalid_pattern failure naming the key. */
export async function ruleOf(rule: string | Record<string, unknown> | undefined, forEdit: boolean): Promise<RuleConfig | undefined> {
  return rule === undefined ? undefined : ruleConfigArgument(rule, forEdit);
}

/** A rule whose pre-filter had no literal parsed every file: the answer says so. */
export function everyFileParsedNote(query: Query | undefined): string[] {
  if (!query || !isRule(query) || query.literals.length > 0) return [];
  return ["the rule needs no literal text the pre-filter could look for (kind, not, nthChild, range or a pattern of metavariables alone), so every file was parsed; a pattern or regex with literal text lets files without it be skipped"];
}

/** "parsed as statement" for a pattern; for a rule, its kinds. */
export function describeQuery(query: Query): string {
  return isRule(query) ? `rule (matching ${query.kinds.join(", ") || "no kind"})` : `pattern (parsed as ${query.context})`;
}
export const pathArg = v.optional(
  v.pipe(v.string("expected a workspace-relative path"), v.minLength(1), v.description("File or directory to search; default the whole workspace.")),
);
export const languageArg = v.optional(
  v.pipe(v.string("expected a grammar id"), v.description("Grammar id (dart, python, rust, c, …); inferred when path names a file.")),
);

const positionSchema = v.object({ line: v.number(), column: v.number() });
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
