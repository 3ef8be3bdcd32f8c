// Where in the cell the model wrote a position of the compiled cell is: a JS error's line and column.

/**
 * Bun's REPL-mode transpiler rewrites a cell (declarations hoisted above a wrapper function, types
 * dropped, the last expression returned as `value:`), so a stack frame's line is the compiled
 * cell's: line 11 of an 8-line cell. The transpiler makes no source map, so a compiled line is found
 * again by its tokens: it maps to the line of the cell holding its tokens (quotes, semicolons and a
 * `value:` wrapper aside) at token boundaries; of several such lines, the one the tokens fill the
 * most (`inner()` is line 2, not the `function inner() {…}` of line 1). When none holds them, or
 * two fill it alike, there is no answer: the caller says the position is the compiled cell's rather
 * than guess.
 */
interface CellPosition {
  line: number;
  column: number;
  /** The cell's own line, as the model wrote it. */
  code: string;
}

interface Token {
  text: string;
  /** 0-based column where the token starts. */
  at: number;
}

const TOKEN = /"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`|[A-Za-z_$][\w$]*|\d[\w.]*|\S/g;

/** The line's tokens; strings compare by content (the transpiler rewrites their quotes); `;` is dropped. */
function tokens(line: string): Token[] {
  const found: Token[] = [];
  for (const match of line.matchAll(TOKEN)) {
    const text = match[0];
    if (text === ";") continue;
    const quoted = /^["'`]/.test(text) ? `"${text.slice(1, -1)}"` : text;
    found.push({ text: quoted, at: match.index });
  }
  return found;
}

/** Where `needle` occurs in `hay` as a run of whole tokens. */
function occurrences(hay: Token[], needle: Token[]): number[] {
  const starts: number[] = [];
  for (let start = 0; start + needle.length <= hay.length; start++) {
    if (needle.every((token, i) => hay[start + i]!.text === token.text)) starts.push(start);
  }
  return starts;
}

/** The compiled line's tokens the cell can hold: the returned last expression loses its `value:` and a trailing comma. */
function comparable(compiled: Token[]): { tokens: Token[]; skipped: number } {
  let body = compiled;
  let skipped = 0;
  if (body[0]?.text === "value" && body[1]?.text === ":") {
    body = body.slice(2);
    skipped = 2;
  }
  if (body.at(-1)?.text === ",") body = body.slice(0, -1);
  return { tokens: body, skipped };
}

/**
 * The cell's line and column (1-based) for a 1-based position in the compiled cell, or undefined
 * when the compiled line is found in no line of the cell, or in two that it fills alike.
 */
export function cellPosition(cell: readonly string[], compiled: readonly string[], line: number, column: number): CellPosition | undefined {
  const compiledLine = compiled[line - 1];
  if (compiledLine === undefined) return undefined;
  const all = tokens(compiledLine);
  const { tokens: wanted, skipped } = comparable(all);
  if (wanted.length === 0) return undefined;
  const matches = cell.flatMap((text, index) => {
    const own = tokens(text);
    return occurrences(own, wanted).map((start) => ({ index, start, own, extra: own.length - wanted.length }));
  });
  const fewest = Math.min(...matches.map((match) => match.extra));
  const best = matches.filter((match) => match.extra === fewest);
  if (best.length !== 1) return undefined;
  const { index, start, own } = best[0]!;
  // The token the column points into (or the next one), at the same place of the cell's line.
  const pointed = all.findIndex((token) => token.at + token.text.length > column - 1);
  const within = Math.min(Math.max(pointed - skipped, 0), wanted.length - 1);
  return { line: index + 1, column: own[start + within]!.at + 1, code: cell[index]! };
}
