// Compiles a code fragment with metavariables into a pattern tree, parsing it up the context ladder.
import type { Node, Parser } from "web-tree-sitter";
import { patternLanguage, type ContextName } from "./languages.ts";
import { tokenChains, type TokenChains } from "./token-chains.ts";

export type PatternNode =
  | { kind: "meta"; name: string; multi: boolean; binds: boolean; anyNode: boolean }
  /** `named`: a named node (an identifier, a literal), not a keyword or punctuation token. */
  | { kind: "leaf"; type: string; text: string; named?: boolean }
  | { kind: "node"; type: string; children: PatternNode[] };

export interface Pattern {
  language: string;
  source: string;
  root: PatternNode;
  /** The ladder's context the fragment parsed in, or "selector" (a rule's `context` + `selector`). */
  context: ContextName | "selector";
  /** Literal token texts every match must contain: files lacking one are never parsed. */
  literals: string[];
  /**
   * The literals that are keywords or identifiers. Such a token is always a whole word in the
   * source (the lexer takes the longest word), so only its whole-word occurrences can be part of a
   * match: `as` inside `class` is not one.
   */
  wordLiterals: string[];
  /** Names of binding metavariables, in order of appearance. */
  metavariables: string[];
  /**
   * The root's children are a run of siblings to find inside any node, not a node of the root's
   * type: Dart's grammar has no call node (`foo(1)` is an identifier and a selector side by side in
   * whatever holds them), so an expression statement the scaffold's `;` made stands for its parts.
   */
  sequence: boolean;
  /**
   * The node the fragment parsed as also took a terminator from the scaffold (`print(a)` in Dart is
   * an expression statement with its `;`): a match then ends where the fragment's tokens end.
   */
  endsBeforeTerminator: boolean;
  /** Runs of tokens a match holds side by side (token-chains.ts), in the languages that check them. */
  chains?: TokenChains;
}

export class PatternError extends Error {
  override name = "PatternError";
}

/** `$NAME`, `$$$NAME`, `$$$`, `$_`, `$$NAME`; a lower-case `$el` is an ordinary identifier. */
const META_IN_SOURCE = /\$\$\$(?:[A-Z_][A-Z0-9_]*)?|\$\$?[A-Z_][A-Z0-9_]*/g;

export function isCommentType(type: string): boolean {
  return type.includes("comment");
}

/**
 * A node that never takes part in matching: a comment, or another extra (Python's `\` line
 * continuation). An ERROR the parser made extra still counts: it may be a tolerated metavariable.
 */
function isTrivia(node: Node): boolean {
  return (node.isExtra && !node.isError) || isCommentType(node.type);
}

/** Children that take part in matching: no comments or other extras (Python's `\` line continuation), nothing missing. */
export function significantChildren(node: Node): Node[] {
  return node.children.filter((c): c is Node => c !== null && !isTrivia(c) && !c.isMissing);
}

/** Patterns compiled before, by language and source: agents repeat a search, and each compile parses. */
export class CompiledPatterns {
  private static readonly MAX = 200;
  private readonly byKey = new Map<string, Pattern>();

  get(language: string, source: string, parser: Parser): Pattern {
    const key = `${language}\0${source}`;
    let pattern = this.byKey.get(key);
    if (!pattern) {
      pattern = compilePattern(language, source, parser);
      if (this.byKey.size >= CompiledPatterns.MAX) this.byKey.clear();
      this.byKey.set(key, pattern);
    }
    return pattern;
  }
}

/** Parses `source` with the language's ladder; throws PatternError naming every context tried. */
export function compilePattern(language: string, source: string, parser: Parser): Pattern {
  const fragment = source.trim();
  if (fragment === "") throw new PatternError("The pattern is empty. Pass a code fragment such as `foo($A)`.");
  const { metaChar, quote = "", runAsPair, namePrefix } = patternLanguage(language);
  if (namePrefix !== undefined) return compileSubstituted(language, fragment, fragment.replace(META_IN_SOURCE, (m) => asName(namePrefix, m)), parser, nameMetaMatcher(namePrefix));
  const substitute = (m: string) => quote + m.replaceAll("$", metaChar) + quote;
  const substituted = metaChar === "$" && quote === "" ? fragment : fragment.replace(META_IN_SOURCE, substitute);
  try {
    return compileSubstituted(language, fragment, substituted, parser, metaMatcher(metaChar, quote));
  } catch (error) {
    if (!(error instanceof PatternError) || runAsPair === undefined || !fragment.includes("$$$")) throw error;
    // `{"name": $N, $$$R}`: the run stands among pairs, where only a pair parses.
    const asPairs = fragment.replace(META_IN_SOURCE, (m) => substitute(m) + (m.startsWith("$$$") ? runAsPair : ""));
    try {
      return compileSubstituted(language, fragment, asPairs, parser, metaMatcher(metaChar, quote, runAsPair));
    } catch {
      throw error; // the first attempt's explanation is the one that reads as the user's pattern
    }
  }
}

/**
 * ast-grep's pattern object: `context` parsed whole as a file, and the pattern is its first node of
 * kind `selector` (pre-order), as in `{context: "class A { $F = $V }", selector: field_definition}`.
 */
export function compileSelected(language: string, context: string, selector: string, parser: Parser): Pattern {
  const fragment = context.trim();
  if (fragment === "") throw new PatternError("The pattern's context is empty. Pass code that holds the node to select, such as `class A { $F = $V }`.");
  const { metaChar, quote = "", namePrefix } = patternLanguage(language);
  const substituted =
    namePrefix !== undefined ? fragment.replace(META_IN_SOURCE, (m) => asName(namePrefix, m)) : fragment.replace(META_IN_SOURCE, (m) => quote + m.replaceAll("$", metaChar) + quote);
  const meta = namePrefix !== undefined ? nameMetaMatcher(namePrefix) : metaMatcher(metaChar, quote);
  const tree = parser.parse(substituted);
  if (!tree) throw new PatternError(`The context ${JSON.stringify(fragment)} could not be parsed as ${language}.`);
  try {
    const broken = firstBrokenNode(tree.rootNode, meta);
    if (broken) throw new PatternError(`The context ${JSON.stringify(fragment)} does not parse as ${language}: ${describeBreak(broken, 0, fragment)}. Write a complete ${language} file fragment holding the node to select.`);
    const target = firstOfType(tree.rootNode, selector);
    if (!target) throw new PatternError(`The context ${JSON.stringify(fragment)} holds no ${selector} node. Pass as selector the kind of a node in the context (see ast_grep's syntax_tree).`);
    const root = toPatternNode(target, target.endIndex, meta);
    const literals = new Set<string>();
    const wordLiterals = new Set<string>();
    const metavariables: string[] = [];
    collect(root, literals, wordLiterals, metavariables);
    // No token chains: a rule's pattern object may set a strictness that skips more than smart matching.
    return { language, source: fragment, root, context: "selector", literals: [...literals], wordLiterals: [...wordLiterals], metavariables, sequence: false, endsBeforeTerminator: false };
  } finally {
    tree.delete();
  }
}

function firstOfType(node: Node, type: string): Node | undefined {
  if (node.type === type) return node;
  for (const child of node.children) {
    const found = child && firstOfType(child, type);
    if (found) return found;
  }
  return undefined;
}

function compileSubstituted(language: string, fragment: string, substituted: string, parser: Parser, meta: (text: string) => PatternNode | undefined): Pattern {
  const { ladder } = patternLanguage(language);
  const failures: string[] = [];
  // A context where the fragment parses cleanly wins over one that needs a bare metavariable
  // tolerated: Go's `func $F($$$P) $R { $$$B }` parsed, with a tolerated error, as a function
  // literal in a statement context, and matched no declaration.
  for (const tolerant of [false, true]) for (const scaffold of ladder) {
    const text = scaffold.before + substituted + scaffold.after;
    const tree = parser.parse(text);
    if (!tree) continue;
    try {
      const start = scaffold.before.length;
      const end = start + substituted.length;
      const broken = firstBrokenNode(tree.rootNode, tolerant ? meta : () => undefined);
      if (broken) {
        failures.push(`${scaffold.context}: ${describeBreak(broken, start, fragment)}`);
        continue;
      }
      const target = statementOf(spanningNode(tree.rootNode, start, end, text));
      if (!target) {
        failures.push(`${scaffold.context}: the fragment is not one syntax node (several statements or a partial one)`);
        continue;
      }
      const sequence = standsForItsParts(target, end);
      const root = sequence ? { kind: "node" as const, type: target.type, children: partsOf(target, end).map((c) => toPatternNode(c, end, meta)) } : toPatternNode(target, end, meta);
      if (countMetas(root) < (fragment.match(META_IN_SOURCE)?.length ?? 0)) {
        failures.push(`${scaffold.context}: a metavariable was lost in the parse`);
        continue;
      }
      const literals = new Set<string>();
      const wordLiterals = new Set<string>();
      const metavariables: string[] = [];
      collect(root, literals, wordLiterals, metavariables);
      // Only a terminator the scaffold added (`;`) is left out of a match: a line break the node
      // ends with is its own (a markdown heading's, as in the grammar), though a rewrite keeps it.
      const endsBeforeTerminator = !sequence && target.endIndex > end && /\S/.test(text.slice(end, target.endIndex));
      // A sequence's parts are matched anywhere among siblings: no chain runs through them.
      const chains = sequence ? undefined : tokenChains(language, root, parser.language!);
      return {
        language,
        source: fragment,
        root,
        context: scaffold.context,
        literals: [...literals],
        wordLiterals: [...wordLiterals],
        metavariables,
        sequence,
        endsBeforeTerminator,
        ...(chains ? { chains } : {}),
      };
    } finally {
      tree.delete();
    }
  }
  const tried = [...new Set(ladder.map((s) => s.context))].join(", ");
  throw new PatternError(
    `The pattern ${JSON.stringify(fragment)} does not parse as ${language} in any context (tried ${tried}). ` +
      `Where each parse broke — ${[...new Set(failures)].join("; ")}. Write a complete expression, statement or declaration, ` +
      `using $NAME for one node and $$$NAME for a run of nodes.`,
  );
}

function metaMatcher(metaChar: string, quote = "", runAsPair = ""): (text: string) => PatternNode | undefined {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const [m, q] = [escape(metaChar), escape(quote)];
  const multi = new RegExp(`^${q}${m}${m}${m}([A-Z_][A-Z0-9_]*)?${q}${escape(runAsPair)}$`);
  const single = new RegExp(`^${q}(${m}?)${m}([A-Z_][A-Z0-9_]*)${q}$`);
  return (text) => {
    const many = multi.exec(text);
    if (many) {
      const name = many[1] ?? "_";
      return { kind: "meta", name, multi: true, binds: !name.startsWith("_"), anyNode: true };
    }
    const one = single.exec(text);
    if (!one) return undefined;
    const name = one[2]!;
    return { kind: "meta", name, multi: false, binds: !name.startsWith("_"), anyNode: one[1] !== "" };
  };
}

/** `$A` → `zsgm_a`, `$$A` → `zsgm2_a`, `$$$B` → `zsgm3_b` (see PatternLanguage.namePrefix). */
function asName(prefix: string, meta: string): string {
  const dollars = /^\$+/.exec(meta)![0].length;
  return `${prefix}${dollars > 1 ? dollars : ""}_${meta.slice(dollars).toLowerCase()}`;
}

function nameMetaMatcher(prefix: string): (text: string) => PatternNode | undefined {
  const written = new RegExp(`^${prefix}([23]?)_([a-z0-9_]*)$`);
  return (text) => {
    const found = written.exec(text);
    if (!found) return undefined;
    const name = found[2] === "" ? "_" : found[2]!.toUpperCase();
    return { kind: "meta", name, multi: found[1] === "3", binds: !name.startsWith("_"), anyNode: found[1] === "2" || found[1] === "3" };
  };
}

/**
 * The first ERROR or MISSING node. A metavariable the grammar cannot place bare is tolerated — an
 * ERROR that is exactly `$$$BODY`, or a `;` missing right after one: `{ $$$BODY }` stands for
 * statements, and the terminators belong to the code matched. A `meta` that recognises nothing
 * tolerates nothing (the strict pass).
 */
function firstBrokenNode(node: Node, meta: (text: string) => PatternNode | undefined): Node | undefined {
  if (!node.hasError && !node.isMissing) return undefined;
  if (node.isMissing) return node.previousSibling && isRun(meta(node.previousSibling.text)) ? undefined : node;
  if (node.isError) return isRun(meta(node.text)) ? undefined : node;
  for (const child of node.children) {
    const broken = firstBrokenNode(child, meta);
    if (broken) return broken;
  }
  return undefined;
}

/**
 * Only a `$$$` run is tolerated where the grammar cannot place it: a single `$F` in an ERROR is code
 * that does not parse (`defer $F($$$A)` in JavaScript), which ast-grep accepts and never matches.
 */
function isRun(node: PatternNode | undefined): boolean {
  return node?.kind === "meta" && node.multi;
}

function describeBreak(node: Node, start: number, fragment: string): string {
  const offset = Math.min(Math.max(0, node.startIndex - start), fragment.length);
  const where = offset >= fragment.length ? "at the end" : `at ${JSON.stringify(fragment.slice(offset, offset + 20))}`;
  return node.isMissing ? `expected ${node.type} ${where}` : `unexpected syntax ${where}`;
}

/**
 * The deepest node covering [start, end) that starts with the fragment and ends with it, allowing
 * only a scaffold terminator (`;`, blanks) after it.
 */
function spanningNode(root: Node, start: number, end: number, text: string): Node | undefined {
  let node = root;
  for (;;) {
    const inner = node.children.find((c) => c.startIndex <= start && c.endIndex >= end && c.endIndex > c.startIndex);
    if (!inner) break;
    node = inner;
  }
  if (node.startIndex !== start) return undefined;
  if (!/^[\s;]*$/.test(text.slice(end, node.endIndex))) return undefined;
  return node;
}

/**
 * A statement that is only the fragment's node and the scaffold's `;` stands for the statement, as
 * ast-grep's match does: Dart's `var $X = $Y` is an initialized_variable_definition inside a
 * local_variable_declaration, whose match must include its `;`. An expression statement is not one:
 * `foo($A)` stands for calls anywhere, not only for call statements.
 */
function statementOf(node: Node | undefined): Node | undefined {
  const parent = node?.parent;
  if (!node || !parent || parent.type === "expression_statement" || parent.startIndex !== node.startIndex) return node;
  const parts = significantChildren(parent);
  return parts.length === 2 && parts[0]!.id === node.id && parts[1]!.type === ";" ? parent : node;
}

/** The node's children that take part in matching and lie in the fragment (a scaffold `;` does not). */
function partsOf(node: Node, fragmentEnd: number): Node[] {
  return node.children.filter((c) => !c.isMissing && !isTrivia(c) && c.startIndex < fragmentEnd && c.endIndex > c.startIndex);
}

/**
 * An expression statement that exists only because the scaffold's `;` ended it, and whose fragment
 * is several siblings (no one node spans the expression): Dart's `foo($A)` or `$O.dispose()`.
 */
function standsForItsParts(node: Node, fragmentEnd: number): boolean {
  return node.type === "expression_statement" && node.endIndex > fragmentEnd && partsOf(node, fragmentEnd).length >= 2;
}

function toPatternNode(node: Node, fragmentEnd: number, meta: (text: string) => PatternNode | undefined): PatternNode {
  // Only the fragment's part of the text counts: `if ($C) $S` in C parses `$S` with the scaffold's
  // `;` as an expression statement, which stands for any statement, as in ast-grep (whose parse of
  // the bare pattern has the `;` missing).
  const asMeta = meta(node.endIndex > fragmentEnd ? node.text.slice(0, Math.max(0, fragmentEnd - node.startIndex)).trimEnd() : node.text);
  if (asMeta) {
    // A `$$$` that is a whole indented body (Python's block > statement > name, all the same text)
    // stands for the block's statements, not for the block and whatever follows it: in
    // `for $X in $Y:\n    $$$B` it took the `else:` too, and the rewrite indented it into the body.
    // Only a block or body is one: an ERROR holding the run (Solidity's `{ $$$B }`) or a parameter
    // (Solidity's `($$$P)`, a parameter > type > name) is not, and the run stands for itself.
    const body = asMeta.kind === "meta" && asMeta.multi && !node.isError && /block|body/.test(node.type);
    const statement = body ? sameTextChild(node) : undefined;
    if (statement && sameTextChild(statement)) return { kind: "node", type: node.type, children: [asMeta] };
    return asMeta;
  }
  if (node.childCount === 0) return { kind: "leaf", type: node.type, text: node.text, named: node.isNamed };
  const children = partsOf(node, fragmentEnd).map((c) => toPatternNode(c, fragmentEnd, meta));
  // A statement that is only a `$$$` run and its terminator stands for the run itself: C's
  // `case $V: $$$B` (the scaffold's `;` wraps $$$B in an expression statement) must take every
  // statement of the case, not the inside of its first one.
  const runs = children.filter((c) => c.kind === "meta" && c.multi);
  if (runs.length === 1 && children.every((c) => c === runs[0] || (c.kind === "leaf" && c.text === ";"))) return runs[0]!;
  return { kind: "node", type: node.type, children };
}

/** The node's only child that takes part in matching, when it spans the node's whole text. */
function sameTextChild(node: Node): Node | undefined {
  const children = node.children.filter((c) => !c.isMissing && !isTrivia(c));
  const only = children.length === 1 ? children[0] : undefined;
  return only && only.text === node.text ? only : undefined;
}

function countMetas(node: PatternNode): number {
  if (node.kind === "meta") return 1;
  return node.kind === "node" ? node.children.reduce((sum, child) => sum + countMetas(child), 0) : 0;
}

/**
 * An operator of two or more characters (`??`, `===`, `=>`, `::`): a leaf matches only code with the
 * same text, so a file without it is never parsed (`$A ?? $B` names no word). Single characters
 * (`(`, `.`) are in nearly every file; `,` and `;` are optional next to an empty `$$$` run.
 */
function isOperatorLiteral(text: string): boolean {
  return text.length >= 2 && !/[\s,;]/.test(text);
}

function collect(node: PatternNode, literals: Set<string>, words: Set<string>, names: string[]): void {
  if (node.kind === "meta") {
    if (node.binds && !names.includes(node.name)) names.push(node.name);
  } else if (node.kind === "leaf") {
    if (/\w/.test(node.text) || isOperatorLiteral(node.text)) literals.add(node.text);
    // A keyword is a leaf whose type is its own text; string contents and the like are neither.
    const keywordOrName = node.type === node.text || node.type.includes("identifier");
    if (keywordOrName && /^[A-Za-z_][A-Za-z0-9_]*$/.test(node.text)) words.add(node.text);
  } else {
    for (const child of node.children) collect(child, literals, words, names);
  }
}
