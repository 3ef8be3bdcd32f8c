// Rewrite templates: metavariables substituted back in, re-indented the way ast-grep does, and
// only the outermost of nested matches replaced.
import type { Node } from "web-tree-sitter";
import { captureSpan, type NodeMatch } from "./match.ts";
import { alignPieces, layoutInSource, piecesOf } from "./rewrite-layout.ts";

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

/**
 * The replacement text of one match. `pattern` is the pattern's source: wherever the template repeats
 * it, the code's own text between the pieces is kept (its line breaks, comments, a trailing comma),
 * so an identity rewrite changes nothing. `made`: texts of a rule's transform, by name.
 */
export function replacementFor(source: string, match: NodeMatch, template: string, pattern: string, made?: ReadonlyMap<string, string>): Replacement & { overwritten: Node[] } {
  const start = replacedFrom(match);
  const lineIndent = indentOfLine(source, start);
  const ours = piecesOf(withoutSeparatorsOfEmptyRuns(template, match));
  const theirs = piecesOf(pattern);
  const layout = layoutInSource(theirs, source, start, match.rewriteEnd, match.bindings);
  const repeats = alignPieces(ours.pieces, theirs.pieces);
  // The template's own text is indented to the line where the match starts; the code's is as it was.
  // A line break at a gap's end is followed by the next piece, so its line is indented too.
  const fromTemplate = (text: string) => text.replace(/\n(?!\n)/g, `\n${lineIndent}`);
  let out = "";
  /** Spans of the code written back as they were: a skipped keyword inside one is kept, not overwritten. */
  const keptSpans: Array<{ start: number; end: number }> = [];
  const keep = (text: string | undefined, at: number | undefined) => {
    if (text !== undefined && at !== undefined) keptSpans.push({ start: at, end: at + text.length });
    return text;
  };
  // The indentation of the line the replacement has reached; its first line is the match's.
  const indentHere = (text: string) => (text.includes("\n") ? indentOfLine(text, text.length) : lineIndent);
  ours.pieces.forEach((piece, t) => {
    const q = repeats[t]!;
    const keptGap = t > 0 && q > 0 && repeats[t - 1] === q - 1 ? keep(layout.gaps[q], layout.gapStarts[q]) : undefined;
    out += keptGap ?? fromTemplate(ours.gaps[t]!);
    if (piece.kind === "text") {
      out += (q >= 0 ? keep(layout.texts[q], layout.textStarts[q]) : undefined) ?? fromTemplate(piece.text);
      return;
    }
    // A rule's transform made this one: its text goes in as it is.
    const madeText = made?.get(piece.name);
    if (madeText !== undefined) {
      out += madeText;
      return;
    }
    const capture = match.bindings.get(piece.name);
    if (!capture) return;
    const span = captureSpan(capture, start);
    const value = source.slice(span.start, span.end);
    const from = indentOfLine(source, span.start);
    // A multi-line capture that began its own line (a Python body) keeps its own line, indented as
    // it was under the match's first line: joined onto the template's line it would not parse.
    if (value.includes("\n") && keptGap === undefined && startsItsLine(source, span.start) && /\S/.test(out.slice(out.lastIndexOf("\n") + 1))) {
      out = `${out.trimEnd()}\n${indentHere(out)}${from.startsWith(lineIndent) ? from.slice(lineIndent.length) : ""}`;
    }
    // A multi-line capture keeps its shape: its own indentation is swapped for its new line's.
    out += reindent(value, from, indentHere(out));
  });
  out += ours.gaps[ours.pieces.length]!.replace(/\n(?=[^\n])/g, `\n${lineIndent}`);
  const overwritten = match.skippedWords.filter((word) => word.startIndex >= start && !keptSpans.some((span) => span.start <= word.startIndex && word.endIndex <= span.end));
  return { start, end: match.rewriteEnd, text: out, overwritten };
}

function startsItsLine(source: string, index: number): boolean {
  return /^[ \t]*$/.test(source.slice(source.lastIndexOf("\n", index - 1) + 1, index));
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
  if (!value.includes("\n") || from === to) return value;
  return value
    .split("\n")
    .map((line, k) => (k === 0 ? line : to + (line.startsWith(from) ? line.slice(from.length) : line.trimStart())))
    .join("\n");
}

function indentOfLine(source: string, index: number): string {
  const lineStart = source.lastIndexOf("\n", index - 1) + 1;
  return /^[ \t]*/.exec(source.slice(lineStart, index))![0];
}
