// A definition's source lines: its whole range grown over the doc comment and decorators above it, and the outline form (children's signatures only).
import { extname } from "node:path";
import type { Definition } from "./name-path.ts";

/** 0-based first and last line of a definition, both included. */
interface LineSpan {
  start: number;
  end: number;
}

export interface NumberedLine {
  line: number;
  text: string;
}

/** Languages whose comments start with `#` (where `#` is no preprocessor line or attribute). */
const HASH_COMMENTS = new Set([".py", ".pyi", ".sh", ".bash", ".rb", ".yaml", ".yml", ".r", ".pl", ".pm", ".toml", ".ex", ".exs", ".jl", ".nix"]);

/**
 * The definition's lines with what belongs to it above its range: the doc comment or comment block
 * directly above it, and decorators or attributes (`@cached`, `#[test]`) that a server leaves out
 * (gopls and tsserver start a function's range below its doc comment). A blank line ends the climb.
 */
export function definitionSpan(lines: readonly string[], definition: Definition, path: string): LineSpan {
  const hash = HASH_COMMENTS.has(extname(path).toLowerCase());
  const belongsAbove = (text: string) => {
    const t = text.trim();
    if (t === "") return false;
    if (t.startsWith("@")) return true;
    if (hash) return t.startsWith("#");
    return t.startsWith("//") || t.startsWith("/*") || t.startsWith("*") || t.startsWith("#[") || t.startsWith("#![");
  };
  let start = definition.range.start.line;
  // A range that starts mid-line (after `export` on the same line as another statement) still shows the whole line.
  while (start > 0 && belongsAbove(lines[start - 1] ?? "")) start--;
  let end = definition.range.end.line;
  // A range ending at column 0 of the next line (some servers end it after the newline) stops at the line before.
  if (end > definition.range.start.line && definition.range.end.character === 0) end--;
  return { start, end: Math.min(end, lines.length - 1) };
}

/** Every line of the definition, numbered from 1. */
export function definitionLines(lines: readonly string[], span: LineSpan): NumberedLine[] {
  return lines.slice(span.start, span.end + 1).map((text, i) => ({ line: span.start + i + 1, text }));
}

/**
 * The definition with each multi-line child cut to its signature: the lines from the child's start
 * to the one that opens its body (`{`, a trailing `:`), then one line saying which lines were left
 * out. Lines of the definition outside its children (fields, the closing brace) stay as they are.
 */
export function outlineLines(lines: readonly string[], definition: Definition, span: LineSpan, path: string): NumberedLine[] {
  const rows: NumberedLine[] = [];
  const children = definition.children.map((child) => ({ child, span: definitionSpan(lines, child, path) })).sort((a, b) => a.span.start - b.span.start);
  let line = span.start;
  for (const { child, span: own } of children) {
    if (own.start < line) continue; // nested inside one already cut
    for (; line < own.start; line++) rows.push({ line: line + 1, text: lines[line] ?? "" });
    const opens = signatureEnd(lines, child, own);
    for (; line <= opens; line++) rows.push({ line: line + 1, text: lines[line] ?? "" });
    if (opens < own.end) {
      const indent = /^\s*/.exec(lines[opens + 1] ?? "")?.[0] ?? "";
      rows.push({ line: 0, text: `${indent}… body of ${child.name}: lines ${opens + 2}–${own.end + 1} left out` });
    }
    line = Math.max(line, own.end + 1);
  }
  for (; line <= span.end; line++) rows.push({ line: line + 1, text: lines[line] ?? "" });
  return rows;
}

/** The 0-based line that opens a definition's body: the first from its name on that holds `{` or ends in `:`, else its last. */
function signatureEnd(lines: readonly string[], definition: Definition, span: LineSpan): number {
  for (let line = definition.selectionRange.start.line; line <= span.end; line++) {
    const text = (lines[line] ?? "").replace(/\s+$/, "");
    if (text.includes("{") || text.endsWith(":") || text.endsWith("=>")) return line;
  }
  return span.end;
}
