// Line + symbol → the server's UTF-16 column: models name what they mean, never guess a column.
import { ToolFailure } from "../answer/failure.ts";

const IDENTIFIER_CHAR = /[\p{L}\p{N}_$]/u;
const IDENTIFIERS = /[\p{L}_$][\p{L}\p{N}_$]*/gu;

interface SymbolColumn {
  /** 0-based UTF-16 offset into the line — what LSP's default position encoding counts. */
  character: number;
  /** Which occurrence was picked (1-based). */
  occurrence: number;
}

/** The name a `symbol` argument names, without its `#N` occurrence suffix: for sentences that quote it. */
export function bareSymbol(symbol: string): string {
  return symbol.replace(/#\d+$/, "");
}

/**
 * Finds `symbol` on `lineText` at identifier boundaries. `name#2` picks the second occurrence; a
 * symbol absent or ambiguous is an error listing what the line does hold.
 */
export function resolveSymbolColumn(lineText: string, symbol: string, line: number): SymbolColumn {
  if (symbol.trim() === "") throw new ToolFailure(`symbol is empty; pass the identifier as it appears on line ${line}.`, { code: "invalid_arguments" });
  let wanted = symbol;
  let pick: number | undefined;
  const suffix = /^(.+)#(\d+)$/.exec(symbol);
  if (suffix && occurrences(lineText, symbol).length === 0) {
    wanted = suffix[1]!;
    pick = Number(suffix[2]);
  }
  const names = wanted.match(IDENTIFIERS) ?? [];
  if (names.length > 1) {
    // `util.Compute` would land on `util`: an answer about something else that looks right.
    throw new ToolFailure(
      `symbol ${JSON.stringify(wanted)} holds ${names.length} names (${names.join(", ")}); a position is one identifier. Pass the one you mean, e.g. ${JSON.stringify(names[names.length - 1])}.`,
      { code: "invalid_arguments" },
    );
  }
  const found = occurrences(lineText, wanted);
  if (found.length === 0) {
    const names = [...new Set(lineText.match(IDENTIFIERS) ?? [])];
    const listed = names.length ? `Identifiers on that line: ${names.slice(0, 40).join(", ")}.` : "The line holds no identifiers.";
    throw new ToolFailure(`${JSON.stringify(wanted)} does not occur on line ${line} (as a whole identifier). ${listed} Line ${line} reads: ${JSON.stringify(lineText.trim())}`, { code: "symbol_not_found" });
  }
  if (pick !== undefined) {
    if (pick < 1 || pick > found.length) {
      throw new ToolFailure(`${JSON.stringify(wanted)} occurs ${found.length} time(s) on line ${line}; #${pick} does not exist. Use ${wanted}#1 … ${wanted}#${found.length}.`, { code: "symbol_not_found" });
    }
    return { character: found[pick - 1]!, occurrence: pick };
  }
  if (found.length > 1) {
    const listed = found.map((at, i) => `${wanted}#${i + 1} (${context(lineText, at, wanted.length)})`).join(", ");
    throw new ToolFailure(`${JSON.stringify(wanted)} occurs ${found.length} times on line ${line}: ${listed}. Pass symbol as one of those to pick it.`, { code: "ambiguous_symbol" });
  }
  return { character: found[0]!, occurrence: 1 };
}

/** UTF-16 offsets where `symbol` occurs with no identifier character glued to either edge. */
export function occurrences(lineText: string, symbol: string): number[] {
  const result: number[] = [];
  for (let at = lineText.indexOf(symbol); at !== -1; at = lineText.indexOf(symbol, at + 1)) {
    const before = lineText[at - 1] ?? "";
    const after = lineText[at + symbol.length] ?? "";
    const glued = (edge: string, neighbour: string) => IDENTIFIER_CHAR.test(edge) && neighbour !== "" && IDENTIFIER_CHAR.test(neighbour);
    if (glued(symbol[0]!, before) || glued(symbol[symbol.length - 1]!, after)) continue;
    result.push(at);
  }
  return result;
}

/** Lines of a text, splitting on \n, \r\n and \r (LSP counts all three as line ends). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

function context(lineText: string, at: number, length: number): string {
  let start = Math.max(0, at - 12);
  let end = Math.min(lineText.length, at + length + 12);
  // Never cut an emoji (a surrogate pair) in half: half of one prints as U+FFFD.
  if (isLowSurrogate(lineText.charCodeAt(start))) start--;
  if (isLowSurrogate(lineText.charCodeAt(end))) end++;
  return `${start > 0 ? "…" : ""}${lineText.slice(start, end).trim()}${end < lineText.length ? "…" : ""}`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
