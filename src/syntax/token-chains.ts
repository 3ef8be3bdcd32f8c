// Runs of a pattern's tokens that a match's text holds side by side, with nothing between them but
// what the matcher passes over: whitespace, comments, and unnamed tokens it skips. `if err != nil
// { $$$B }` needs `err`, `!=` and `nil` in that order with only those between, and after `if`: a
// Go file holding the four words but only in `err == nil`, `if x, err := f(); err != nil` or
// `return err != nil` cannot match, and is never parsed (a fifth of what prometheus's files held
// for that pattern were such files). The check is sound only where the grammar is known to put
// nothing else between two children of a node, so it runs for the languages in GAPS alone, each
// read from its grammar (bench/token-chains.ts checks it against real parses).
import type { Language } from "web-tree-sitter";

/** What the runs need of a pattern's goals (pattern.ts's PatternNode; that file imports this one). */
type Goal = { kind: "meta"; multi: boolean } | { kind: "leaf"; text: string } | { kind: "node"; type: string; children: readonly Goal[] };

/** What a grammar may put between two children of a node, besides its unnamed tokens. */
interface GapSyntax {
  /** Opens a comment that runs to the next `\n` (a `\r` before it is the comment's too). */
  lineComment: string;
  /** Opens and closes a comment that does not nest. */
  blockComment: readonly [string, string];
  /** Nodes whose children may be separated by hidden tokens (a string's text): a chain stops at them. */
  opaque: readonly string[];
}

/**
 * Languages whose grammar (the package's src/grammar.json) was read for this: its extras are
 * whitespace (`\s`) and comments (`//` to the line's `\n`, `/* … *\/`, neither nested); it has no
 * external scanner and no alias to a quoted name (so every unnamed node is a token whose text is its
 * type); and a hidden token (an unaliased token inside a rule) is either text a gap holds anyway or
 * lies inside an opaque node. tree-sitter-go 0.25.0's are its `\n` terminators (whitespace);
 * tree-sitter-java 0.23.5's lie inside a text block (`_multiline_string_fragment`,
 * `_escape_sequence`), so a string is opaque there.
 */
const GAPS: Record<string, GapSyntax> = {
  go: { lineComment: "//", blockComment: ["/*", "*/"], opaque: [] },
  java: { lineComment: "//", blockComment: ["/*", "*/"], opaque: ["string_literal"] },
};

/** A pattern's runs of adjacent tokens, and the unnamed tokens its grammar may have between them. */
export interface TokenChains {
  runs: string[][];
  /** The grammar's unnamed token texts, any of which a gap may hold. */
  tokens: string[];
}

export function hasTokenChains(language: string): boolean {
  return language in GAPS;
}

/** Nodes a run does not enter in `language` (bench/token-chains.ts checks the others' gaps). */
export function opaqueNodes(language: string): readonly string[] {
  return GAPS[language]?.opaque ?? [];
}

/**
 * The runs of leaf texts a match of `root` holds side by side, when the language is in GAPS and the
 * pattern has a run of two or more. A run is consecutive leaves of one node's children, and goes on
 * into a following child's first leaves (a node child is matched where the leaf before it ended:
 * the matcher skips unnamed tokens only before a leaf). It stops at a metavariable, at the end of
 * a node's children (smart matching skips whatever trails them), at an opaque node, and before a
 * `,` or `;` beside a `$$$` run (optional when the run is empty).
 */
export function tokenChains(language: string, root: Goal, grammar: Language): TokenChains | undefined {
  const gap = GAPS[language];
  if (!gap || root.kind !== "node") return undefined;
  const runs: string[][] = [];
  collectRuns([root], undefined, runs, gap);
  return runs.length > 0 ? { runs, tokens: unnamedTokens(grammar) } : undefined;
}

/** Walks one node's child goals; `lead` is the run that reaches its first child, if any. */
function collectRuns(goals: readonly Goal[], lead: string[] | undefined, runs: string[][], gap: GapSyntax): void {
  let run = lead;
  const close = () => {
    if (run && run.length > 1) runs.push(run);
    run = undefined;
  };
  for (const [i, goal] of goals.entries()) {
    if (goal.kind === "leaf" && !isOptionalSeparator(goals, i)) {
      (run ??= []).push(goal.text);
    } else if (goal.kind === "node" && !gap.opaque.includes(goal.type)) {
      // The run goes on into the child; after it, a new one starts (the child's trailing code is skipped).
      const into = run;
      run = undefined;
      collectRuns(goal.children, into, runs, gap);
    } else {
      close();
    }
  }
  close();
}

function isOptionalSeparator(goals: readonly Goal[], i: number): boolean {
  const goal = goals[i]!;
  if (goal.kind !== "leaf" || (goal.text !== "," && goal.text !== ";")) return false;
  const isRun = (g: Goal | undefined) => g?.kind === "meta" && g.multi;
  return isRun(goals[i - 1]) || isRun(goals[i + 1]);
}

const tokensByGrammar = new WeakMap<Language, string[]>();

function unnamedTokens(grammar: Language): string[] {
  let tokens = tokensByGrammar.get(grammar);
  if (!tokens) {
    const found = new Set<string>();
    for (let id = 0; id < grammar.nodeTypeCount; id++) {
      const type = grammar.nodeTypeForId(id);
      if (type && !grammar.nodeTypeIsNamed(id) && grammar.nodeTypeIsVisible(id)) found.add(type);
    }
    tokens = [...found];
    tokensByGrammar.set(grammar, tokens);
  }
  return tokens;
}

/**
 * Whether `text` holds every run of `chains` (file-level: each run somewhere). From each place the
 * run's first token stands, every way through the gaps is followed (a gap's `!` may be a token of
 * its own or the start of `!=`); each (token, offset) is visited once, and a comment's end is found
 * by a binary search, so a file costs time linear in its length per run (times a logarithm),
 * whatever it holds.
 */
export function holdsChains(text: string, language: string, chains: TokenChains): boolean {
  const gap = GAPS[language];
  if (!gap) return true;
  const steps = new GapSteps(text, gap, tokensByFirstChar(chains.tokens));
  return chains.runs.every((run) => holdsRun(text, run, steps));
}

function holdsRun(text: string, run: readonly string[], steps: GapSteps): boolean {
  const width = text.length + 1;
  // One bit per state k * width + offset: tokens 0..k-1 matched, the gap before token k starts at offset.
  let seen: Uint32Array | undefined;
  const stack: number[] = [];
  const first = run[0]!;
  for (let at = text.indexOf(first); at !== -1; at = text.indexOf(first, at + 1)) {
    seen ??= new Uint32Array(Math.ceil((run.length * width) / 32));
    stack.push(width + at + first.length);
    while (stack.length > 0) {
      const state = stack.pop()!;
      const bit = 1 << (state & 31);
      if (seen[state >>> 5]! & bit) continue;
      seen[state >>> 5]! |= bit;
      const k = Math.floor(state / width);
      const offset = state - k * width;
      if (text.startsWith(run[k]!, offset)) {
        if (k + 1 === run.length) return true;
        stack.push((k + 1) * width + offset + run[k]!.length);
      }
      for (const next of steps.from(offset)) stack.push(k * width + next);
    }
  }
  return false;
}

/**
 * Whether the gap steps alone lead from `from` to `to` (bench/token-chains.ts checks with it that
 * the grammar puts nothing else between two children of a node). True for a language not in GAPS.
 */
export function crossesGap(text: string, from: number, to: number, language: string, tokens: readonly string[]): boolean {
  const gap = GAPS[language];
  if (!gap) return true;
  const steps = new GapSteps(text, gap, tokensByFirstChar(tokens));
  const seen = new Set<number>();
  const stack = [from];
  while (stack.length > 0) {
    const offset = stack.pop()!;
    if (offset === to) return true;
    if (offset > to || seen.has(offset)) continue;
    seen.add(offset);
    stack.push(...steps.from(offset));
  }
  return false;
}

/** Where a gap in one text may go on from an offset, one step: past a space, a comment or an unnamed token. */
class GapSteps {
  /** Where each `\n` and each block comment's close stand, found once: a gap may ask from every offset of a long line. */
  private newlines: number[] | undefined;
  private closes: number[] | undefined;

  constructor(
    private readonly text: string,
    private readonly gap: GapSyntax,
    private readonly byFirst: Map<number, string[]>,
  ) {}

  from(offset: number): number[] {
    const { text, gap } = this;
    if (offset >= text.length) return [];
    const code = text.charCodeAt(offset);
    // Any non-ASCII character too: were one of Unicode's spaces read as whitespace, a gap could hold it.
    if (code > 127 || code === 32 || (code >= 9 && code <= 13)) return [offset + 1];
    const steps: number[] = [];
    if (text.startsWith(gap.lineComment, offset)) {
      const newline = firstAtOrAfter((this.newlines ??= offsetsOf(text, "\n")), offset);
      steps.push(newline ?? text.length);
    }
    const [open, close] = gap.blockComment;
    if (text.startsWith(open, offset)) {
      const end = firstAtOrAfter((this.closes ??= offsetsOf(text, close)), offset + open.length);
      if (end !== undefined) steps.push(end + close.length);
    }
    for (const token of this.byFirst.get(code) ?? []) if (text.startsWith(token, offset)) steps.push(offset + token.length);
    return steps;
  }
}

function offsetsOf(text: string, needle: string): number[] {
  const offsets: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) offsets.push(at);
  return offsets;
}

/** The first of the sorted `offsets` at or after `from`. */
function firstAtOrAfter(offsets: readonly number[], from: number): number | undefined {
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return offsets[lo];
}

const firstCharIndexes = new WeakMap<readonly string[], Map<number, string[]>>();

function tokensByFirstChar(tokens: readonly string[]): Map<number, string[]> {
  let index = firstCharIndexes.get(tokens);
  if (!index) {
    index = new Map();
    for (const token of tokens) {
      if (token === "") continue;
      const code = token.charCodeAt(0);
      index.set(code, [...(index.get(code) ?? []), token]);
    }
    firstCharIndexes.set(tokens, index);
  }
  return index;
}
