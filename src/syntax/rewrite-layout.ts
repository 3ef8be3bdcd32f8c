// Where a rewrite template repeats the pattern, the code's own spacing is kept: an identity rewrite
// must give back the code unchanged, and a template written on one line must not join a Python body
// onto its `def` line. Both texts are read as pieces (metavariables and words) and lined up.
import { captureSpan, type Bindings } from "./captures.ts";

type Piece = { kind: "meta"; name: string } | { kind: "text"; text: string };

/** Pieces and, before each and after the last, the whitespace the text has there. */
interface Pieces {
  pieces: Piece[];
  /** gaps[k] precedes pieces[k]; gaps[pieces.length] trails the last. */
  gaps: string[];
}

const META = /\$\$\$[A-Z_][A-Z0-9_]*|\$\$\$|\$\$?[A-Z_][A-Z0-9_]*/g;

export function piecesOf(text: string): Pieces {
  const pieces: Piece[] = [];
  const gaps: string[] = [];
  let gap = "";
  const words = (chunk: string) => {
    for (const part of chunk.split(/(\s+)/)) {
      if (part === "") continue;
      if (/^\s+$/.test(part)) gap += part;
      else {
        gaps.push(gap);
        gap = "";
        pieces.push({ kind: "text", text: part });
      }
    }
  };
  let at = 0;
  for (const m of text.matchAll(META)) {
    words(text.slice(at, m.index));
    gaps.push(gap);
    gap = "";
    pieces.push({ kind: "meta", name: m[0].replace(/^\$+/, "") || "_" });
    at = m.index + m[0].length;
  }
  words(text.slice(at));
  gaps.push(gap);
  return { pieces, gaps };
}

/**
 * What the code has for each pattern piece: `gaps[q]` is the source text between piece q-1 and
 * piece q (whitespace, comments, a token matching skipped), `texts[q]` the source of a word piece;
 * undefined where the piece could not be placed (a metavariable that binds nothing, a word the code
 * spells otherwise).
 */
interface SourceLayout {
  gaps: Array<string | undefined>;
  texts: Array<string | undefined>;
  /** Where each known gap and text starts in the source. */
  gapStarts: Array<number | undefined>;
  textStarts: Array<number | undefined>;
}

/** Places the pattern's pieces in the matched code [start, end), between the captures' known spans. */
export function layoutInSource(pattern: Pieces, source: string, start: number, end: number, bindings: Bindings): SourceLayout {
  const { pieces } = pattern;
  const gaps: Array<string | undefined> = new Array(pieces.length).fill(undefined);
  const texts: Array<string | undefined> = new Array(pieces.length).fill(undefined);
  const gapStarts: Array<number | undefined> = new Array(pieces.length).fill(undefined);
  const textStarts: Array<number | undefined> = new Array(pieces.length).fill(undefined);
  const seen = new Set<string>();
  // Known spans of metavariables, by piece; a repeated name's later uses sit elsewhere.
  const spans = pieces.map((piece) => {
    if (piece.kind !== "meta") return undefined;
    const capture = seen.has(piece.name) ? undefined : bindings.get(piece.name);
    seen.add(piece.name);
    if (!capture || ("run" in capture && capture.run.length === 0)) return capture ? ("empty" as const) : undefined;
    return captureSpan(capture, start);
  });
  let pos: number | undefined = start;
  for (let q = 0; q < pieces.length; q++) {
    const piece = pieces[q]!;
    const span = spans[q];
    if (piece.kind === "meta") {
      if (span === "empty") {
        if (pos !== undefined) [gaps[q], gapStarts[q]] = ["", pos];
      } else if (span && (pos === undefined || span.start >= pos)) {
        if (pos !== undefined) [gaps[q], gapStarts[q]] = [source.slice(pos, span.start), pos];
        pos = span.end;
      } else pos = undefined;
      continue;
    }
    if (pos === undefined) continue;
    const limit = spans.slice(q + 1).find((s): s is { start: number; end: number } => typeof s === "object")?.start ?? end;
    const found = findWord(source, piece.text, pos, limit);
    if (!found) {
      pos = undefined;
      continue;
    }
    [gaps[q], gapStarts[q]] = [source.slice(pos, found.start), pos];
    [texts[q], textStarts[q]] = [source.slice(found.start, found.end), found.start];
    pos = found.end;
  }
  return { gaps, texts, gapStarts, textStarts };
}

/**
 * The word at `from` (whitespace before it and between its characters allowed), or else its first
 * occurrence before `limit`, with what the match skipped (a trailing comma, a comment) in between.
 */
function findWord(source: string, word: string, from: number, limit: number): { start: number; end: number } | undefined {
  let at = from;
  while (at < limit && /\s/.test(source[at]!)) at++;
  let k = at;
  let i = 0;
  while (i < word.length && k < limit) {
    if (source[k] === word[i]) {
      i++;
      k++;
    } else if (i > 0 && /\s/.test(source[k]!)) k++;
    else break;
  }
  if (i === word.length) return { start: at, end: k };
  const index = source.indexOf(word, from);
  return index !== -1 && index + word.length <= limit ? { start: index, end: index + word.length } : undefined;
}

/** For each template piece, the pattern piece it repeats (a longest common subsequence), or -1. */
export function alignPieces(template: Piece[], pattern: Piece[]): number[] {
  const same = (a: Piece, b: Piece) => (a.kind === "meta" ? b.kind === "meta" && a.name === b.name : b.kind === "text" && a.text === b.text);
  const n = template.length;
  const m = pattern.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = same(template[i]!, pattern[j]!) ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const map = new Array<number>(n).fill(-1);
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (same(template[i]!, pattern[j]!)) {
      map[i++] = j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) i++;
    else j++;
  }
  return map;
}
