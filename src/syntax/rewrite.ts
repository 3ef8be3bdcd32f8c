// Rewrite templates: metavariables substituted back in, re-indented the way ast-grep does, and
// only the outermost of nested matches replaced.
import type { Node } from "web-tree-sitter";
import { captureSpan, type NodeMatch } from "./match.ts";

export interface Replacement {
  start: number;
  end: number;
  text: string;
}

const TEMPLATE_META = /\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g;

/** Metavariables the template uses that the pattern never binds — a typo the model should hear about. */
export function unboundInTemplate(template: string, bound: readonly string[]): string[] {
  const used = [...template.matchAll(TEMPLATE_META)].map((m) => m[1] ?? m[2]!);
  return [...new Set(used.filter((name) => !name.startsWith("_") && !bound.includes(name)))];
}

/** Drops matches nested inside an earlier (outer) match; input sorted outermost-first by position. */
export function outermost(matches: readonly NodeMatch[]): NodeMatch[] {
  const kept: NodeMatch[] = [];
  let coveredUntil = -1;
  for (const match of matches) {
    if (match.node.startIndex < coveredUntil) continue;
    kept.push(match);
    coveredUntil = match.end;
  }
  return kept;
}

export function replacementFor(source: string, match: NodeMatch, template: string): Replacement {
  const start = replacedFrom(match);
  const expanded = withoutSeparatorsOfEmptyRuns(template, match).replace(TEMPLATE_META, (whole, multi: string | undefined, single: string | undefined, offset: number) => {
    const capture = match.bindings.get((multi ?? single)!);
    if (!capture) return "";
    const span = captureSpan(capture, start);
    const value = source.slice(span.start, span.end);
    // A multi-line capture keeps its shape: its own indentation is swapped for the template line's.
    return reindent(value, indentOfLine(source, span.start), indentBefore(template, offset));
  });
  // The template's own later lines are indented to the line where the match starts.
  const lineIndent = indentOfLine(source, start);
  const text = expanded.replace(/\n(?=[^\n])/g, `\n${lineIndent}`);
  return { start, end: match.rewriteEnd, text };
}

/**
 * Where a replacement starts: after the keywords the match skipped at its very start, which the
 * rewrite keeps. `function $A() {}` matches `async function a() {}` (as in ast-grep), and the
 * rewrite must not turn an async function into a plain one.
 */
function replacedFrom(match: NodeMatch): number {
  if (match.skippedWords.length === 0) return match.node.startIndex;
  const skipped = new Set(match.skippedWords.map((word) => word.startIndex));
  for (const child of match.node.children) {
    if (child && !skipped.has(child.startIndex)) return child.startIndex;
  }
  return match.node.startIndex;
}

/** Keywords a replacement overwrites though the pattern never mentioned them (skipped inside the match). */
export function overwrittenWords(match: NodeMatch): Node[] {
  const kept = replacedFrom(match);
  return match.skippedWords.filter((word) => word.startIndex >= kept);
}

/**
 * The template with one `,` next to each `$$$NAME` that captured nothing taken out: `$F($A, $$$R)`
 * matches `g(a)` (the separator next to an empty run is optional), and must write `g(a)` back, not
 * `g(a, )`, which C and Java reject.
 */
function withoutSeparatorsOfEmptyRuns(template: string, match: NodeMatch): string {
  let shaped = template;
  for (const [name, capture] of match.bindings) {
    if (!("run" in capture) || capture.run.length > 0) continue;
    const run = `$$$${name}`;
    shaped = shaped.replace(new RegExp(`(\\s*,\\s*)?\\$\\$\\$${name}(?![A-Za-z0-9_])(\\s*,\\s*)?`, "g"), (_whole, before: string | undefined, after: string | undefined) =>
      before !== undefined ? run + (after ?? "") : run,
    );
  }
  return shaped;
}

export function applyReplacements(source: string, replacements: readonly Replacement[]): string {
  let out = "";
  let at = 0;
  for (const r of replacements) {
    out += source.slice(at, r.start) + r.text;
    at = r.end;
  }
  return out + source.slice(at);
}

function reindent(value: string, from: string, to: string): string {
  if (!value.includes("\n")) return value;
  return value
    .split("\n")
    .map((line, k) => (k === 0 ? line : to + (line.startsWith(from) ? line.slice(from.length) : line.trimStart())))
    .join("\n");
}

function indentOfLine(source: string, index: number): string {
  const lineStart = source.lastIndexOf("\n", index - 1) + 1;
  return /^[ \t]*/.exec(source.slice(lineStart, index))![0];
}

function indentBefore(template: string, offset: number): string {
  return indentOfLine(template, offset);
}
