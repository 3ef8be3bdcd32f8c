// The metavariable matcher, with ast-grep's semantics: unnamed code tokens the pattern does not
// mention may be skipped, comments never count, and a repeated metavariable must capture equal syntax.
import type { Node, TreeCursor } from "web-tree-sitter";
import { sameCapture, type Bindings, type Capture } from "./captures.ts";
import { isCommentType, significantChildren, type Pattern, type PatternNode } from "./pattern.ts";

export { captureSpan, type Bindings, type Capture } from "./captures.ts";


/**
 * Matching work allowed per file: one unit per step, plus one per node a tried `$$$` run holds.
 * Runs of `$$$` against long lists backtrack (k runs over n nodes try about n^k splits); past this
 * the file is skipped with a note instead of pinning a parse worker (one $$$ run over a 3000-node
 * list costs about 4.5 million: allowed).
 */
export const MAX_MATCH_STEPS = 10_000_000;

/** The pattern needed more than MAX_MATCH_STEPS in one file. */
export class MatchBudgetExceeded extends Error {
  constructor() {
    super(
      `matching gave up after ${MAX_MATCH_STEPS} steps: several $$$ runs (or a repeated metavariable between them) against a long list backtrack without end; anchor the pattern with literal code between the runs or use fewer $$$`,
    );
  }
}

export interface NodeMatch {
  node: Node;
  /** Where the match ends: the node's end, less trailing tokens the pattern never mentioned. */
  end: number;
  bindings: Bindings;
  /**
   * Where a rewrite of the match ends: before the code children that trail the pattern's last one
   * (an `else:` after the `for` body that `for $X in $Y:\n    $$$B` matched). Replaced with the
   * rest, they were lost; ast-grep drops them too.
   */
  rewriteEnd: number;
  /**
   * Keywords of the code the pattern never mentions but skipped over, as ast-grep does: `async`
   * when `function $A() {}` matches `async function a() {}`. A rewrite must keep or report them.
   */
  skippedWords: Node[];
}

/**
 * Every match in the tree, outermost first in document order; nested matches included. Given where
 * the pattern's rarest literal occurs (TextFacts.rarestOffsets), only nodes holding one are tried.
 */
export function findMatches(root: Node, pattern: Pattern, occurrences?: readonly number[]): NodeMatch[] {
  const goal = pattern.root;
  const steps = matchBudget();
  if (pattern.sequence && goal.kind === "node") {
    const found = candidateNodes(root, undefined, occurrences).flatMap((parent) => sequenceMatches(goal.children, significantChildren(parent), steps));
    return found.sort(byPosition);
  }
  const candidates = candidateNodes(root, goal.kind === "meta" ? undefined : goal.type, occurrences);
  const matches: NodeMatch[] = [];
  for (const candidate of candidates) {
    const match = matchPatternAt(pattern, candidate, new Map(), steps);
    if (match) matches.push(match);
  }
  return matches.sort(byPosition);
}

/**
 * How a pattern compares code, as ast-grep's `strictness` (a rule's pattern object): "smart" skips
 * unnamed code tokens the pattern does not mention and whatever trails; "cst" skips nothing; "ast"
 * and "relaxed" compare named nodes alone (comments never take part here); "signature" also ignores
 * the text of named leaves (kinds only).
 */
export type Strictness = "cst" | "smart" | "ast" | "relaxed" | "signature";

/** The matching work left for one file, shared by every pattern a rule tries there. */
export function matchBudget(strictness: Strictness = "smart"): Steps {
  return { left: MAX_MATCH_STEPS, strictness };
}

/**
 * The pattern matched at `node` itself, given the bindings so far (a rule's earlier metavariables
 * must capture the same code again), or undefined. `steps` carries the file's budget and the strictness.
 */
export function matchPatternAt(pattern: Pattern, node: Node, bindings: Bindings, steps: Steps): NodeMatch | undefined {
  const goal = pattern.root;
  if (pattern.sequence) return undefined; // a run of siblings is no one node (see Pattern.sequence)
  const env = matchNode(goal, node, new Map(bindings), steps, true);
  if (!env) return undefined;
  const skipped = env.get(SKIPPED);
  const lastMatched = env.get(LAST_MATCHED);
  const found = new Map(env);
  found.delete(SKIPPED);
  found.delete(LAST_MATCHED);
  // The match is the whole node, a statement's `;` included (Dart's `return $R`, as ast-grep's), but
  // a rewrite ends where the pattern's own tokens end: the `;` it never wrote is kept.
  const end = node.endIndex;
  const written = pattern.endsBeforeTerminator ? matchedEnd(goal, node) : end;
  const rewriteEnd = lastMatched && "single" in lastMatched ? Math.min(written, lastMatched.single.endIndex) : withoutTrailingLineBreak(node, written);
  return { node, end, rewriteEnd, bindings: found, skippedWords: skipped && "run" in skipped ? skipped.run : [] };
}

/**
 * A node that ends on the start of a line after its last child (a markdown heading takes its line
 * break) is rewritten up to that child: the template has no line break, and the next line would join it.
 */
function withoutTrailingLineBreak(node: Node, end: number): number {
  if (end !== node.endIndex || node.endPosition.column !== 0) return end;
  const last = node.lastChild;
  return last && last.endIndex < end && last.endPosition.row < node.endPosition.row ? last.endIndex : end;
}

/** Outermost first in document order: by start, then the longer match first. */
function byPosition(a: NodeMatch, b: NodeMatch): number {
  return a.node.startIndex - b.node.startIndex || b.end - a.end;
}

/**
 * Every place the run of pattern children `goals` matches consecutive `nodes`. The first goal takes
 * the node where a match starts, never a token skipped before it. A leading single metavariable
 * takes a whole postfix chain, as a node would in other grammars: in Dart's flat `a.b.dispose()`
 * (`a`, `.b`, `.dispose`, `()` side by side), `$O.dispose()` binds `$O` to `a.b`, and a match never
 * starts inside the chain (at `.b`), which no expression does.
 */
function sequenceMatches(goals: PatternNode[], nodes: Node[], steps: Steps): NodeMatch[] {
  const out: NodeMatch[] = [];
  const [first, next] = goals;
  if (!first || !next) return out;
  const chainType = first.kind === "meta" && !first.multi && next.kind !== "meta" ? next.type : undefined;
  for (let j = 0; j < nodes.length; j++) {
    const starts: Array<{ env: Env; from: number }> = [];
    if (chainType !== undefined && first.kind === "meta") {
      if (nodes[j]!.type === chainType || !nodes[j]!.isNamed) continue;
      // The chain: the node at j and the selectors after it, each length a candidate (outer matches too).
      for (let k = j + 1; k <= nodes.length && (k === j + 1 || nodes[k - 1]!.type === chainType); k++) {
        const env = bind(first, k === j + 1 ? { single: nodes[j]! } : { run: nodes.slice(j, k) }, new Map());
        if (env) starts.push({ env, from: k });
      }
    } else {
      const env = matchNode(first, nodes[j]!, new Map(), steps);
      if (env) starts.push({ env, from: j + 1 });
    }
    for (const { env: start, from } of starts) {
      const env = matchSequence(goals, 1, nodes, from, start, steps, "sequence");
      if (!env) continue;
      const last = env.get(LAST_MATCHED);
      const end = last && "single" in last ? last.single.endIndex : nodes[nodes.length - 1]!.endIndex;
      const bindings = new Map(env);
      bindings.delete(SKIPPED);
      bindings.delete(LAST_MATCHED);
      out.push({ node: nodes[j]!, end, rewriteEnd: end, bindings, skippedWords: [] });
    }
  }
  return out;
}

/**
 * Nodes of `type` (every named node when undefined) that hold one of `offsets`, or all of them when
 * `offsets` is undefined. Cursor moves instead of node objects: each crosses into WASM once.
 */
function candidateNodes(root: Node, type: string | undefined, offsets: readonly number[] | undefined): Node[] {
  const cursor = root.walk();
  try {
    return offsets === undefined ? everyCandidate(cursor, type) : nodesOnPathsTo(cursor, type, offsets);
  } finally {
    cursor.delete();
  }
}

function isCandidate(cursor: TreeCursor, type: string | undefined): boolean {
  return type === undefined ? cursor.nodeIsNamed && !isCommentType(cursor.nodeType) : cursor.nodeType === type;
}

/** One walk over the whole tree. */
function everyCandidate(cursor: TreeCursor, type: string | undefined): Node[] {
  const out: Node[] = [];
  for (;;) {
    if (isCandidate(cursor, type)) out.push(cursor.currentNode);
    if (cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return out;
    }
  }
}

/**
 * A match holds the rarest literal, so every candidate is an ancestor of one of its occurrences:
 * the nodes on the paths from the root to each offset (ascending). The cursor goes through the tree
 * once, forward: down towards an offset (the child holding it is found inside the WASM module),
 * then right along the siblings and up until a node holds the next one, so a node shared by
 * several paths is stepped on once, and no subtree off the paths is entered. Walking every subtree
 * that held an offset instead, as before, took twice as long in files with many occurrences (Go's
 * `err`, Rust's `unwrap` in tests), and descending from the root once per offset rescanned each
 * shared ancestor's children.
 */
function nodesOnPathsTo(cursor: TreeCursor, type: string | undefined, offsets: readonly number[]): Node[] {
  const out: Node[] = [];
  let depth = 0;
  // Whether the cursor's node was tried already: its ancestors always were.
  let tried = false;
  for (const offset of offsets) {
    // Right, or up when the siblings run out, until a node ends past the offset.
    let holds = false;
    for (;;) {
      if (cursor.endIndex > offset) {
        holds = cursor.startIndex <= offset; // one starting after it: the offset falls between children
        break;
      }
      if (cursor.gotoNextSibling()) {
        tried = false;
        continue;
      }
      if (depth === 0) return out; // past the root's end: so are the later offsets
      cursor.gotoParent();
      depth--;
      tried = true;
    }
    if (!holds) continue;
    if (!tried && isCandidate(cursor, type)) out.push(cursor.currentNode);
    tried = true;
    while (cursor.gotoFirstChildForIndex(offset)) {
      depth++;
      tried = false;
      if (cursor.startIndex > offset) break; // between children: nothing deeper holds it
      if (isCandidate(cursor, type)) out.push(cursor.currentNode);
      tried = true;
    }
  }
  return out;
}

/**
 * A Dart call is an expression statement with its `;`: the pattern `print($A)` must not claim
 * (and a rewrite must not drop) a terminator it never mentioned. Walks the right edge.
 */
function matchedEnd(goal: PatternNode, node: Node): number {
  if (goal.kind !== "node") return node.endIndex;
  const last = goal.children[goal.children.length - 1];
  if (!last || (last.kind === "meta" && last.multi)) return node.endIndex;
  const children = significantChildren(node);
  let k = children.length - 1;
  while (k >= 0 && !children[k]!.isNamed && !(last.kind === "leaf" && last.type === children[k]!.type)) k--;
  if (k < 0) return node.endIndex;
  return last.kind === "node" ? matchedEnd(last, children[k]!) : children[k]!.endIndex;
}

type Env = Map<string, Capture>;
export type Steps = { left: number; strictness: Strictness };

/** Strictness levels that compare named nodes alone: unnamed tokens on either side are left out. */
function namedOnly(steps: Steps): boolean {
  return steps.strictness === "ast" || steps.strictness === "relaxed" || steps.strictness === "signature";
}

/**
 * Whose children are matched: `true`, the match's own (a rewrite keeps the trailing ones);
 * "sequence", a sequence pattern's, which ends where its last goal matched.
 */
type Role = boolean | "sequence";

/** `root`: the node is the match itself, whose trailing children a rewrite keeps. */
function matchNode(goal: PatternNode, node: Node, env: Env, steps: Steps, root = false): Env | undefined {
  switch (goal.kind) {
    case "meta":
      if (!goal.anyNode && !node.isNamed) return undefined;
      return bind(goal, { single: node }, env);
    case "leaf":
      return node.type === goal.type && (steps.strictness === "signature" || node.text === goal.text) ? env : undefined;
    case "node":
      if (node.type !== goal.type) return undefined;
      if (namedOnly(steps)) {
        const goals = goal.children.filter((c) => c.kind !== "leaf" || c.named !== false);
        return matchSequence(goals, 0, significantChildren(node).filter((c) => c.isNamed), 0, env, steps, root);
      }
      return matchSequence(goal.children, 0, significantChildren(node), 0, env, steps, root);
  }
}

/**
 * Matches pattern children from `i` against code children from `j`, backtracking over runs.
 * `root`: these are the match's own children, whose trailing ones a rewrite keeps.
 */
function matchSequence(goals: PatternNode[], i: number, nodes: Node[], j: number, env: Env, steps: Steps, root: Role = false): Env | undefined {
  if (--steps.left < 0) throw new MatchBudgetExceeded();
  // ast-grep's "smart" strictness skips whatever trails once the pattern is used up:
  // `raise $E($$$A)` matches `raise E(x) from err`.
  if (i === goals.length) {
    // Only "smart" skips named nodes that trail (the others have no unnamed ones left, or skip none).
    if (steps.strictness !== "smart" && j < nodes.length) return undefined;
    return j > 0 && (root === "sequence" || (root && j < nodes.length)) ? withLastMatched(env, nodes[j - 1]!) : env;
  }
  const goal = goals[i]!;
  if (goal.kind === "meta" && goal.multi) return matchRun(goal, goals, i, nodes, j, env, steps, root);
  if (j < nodes.length) {
    const node = nodes[j]!;
    const here = matchNode(goal, node, env, steps);
    const rest = here && matchSequence(goals, i + 1, nodes, j + 1, here, steps, root);
    if (rest) return rest;
    // An unnamed code token the pattern does not mention (a trailing comma, `async` before
    // `function`) is skipped, but only where the pattern expects a token, as in ast-grep: a
    // metavariable or a whole node never skips one, so `$M() {}` does not match `static m() {}`.
    if (!node.isNamed && goal.kind === "leaf" && steps.strictness !== "cst") {
      const skipped = matchSequence(goals, i, nodes, j + 1, /\w/.test(node.type) ? withSkippedWord(env, node) : env, steps, root);
      if (skipped) return skipped;
    }
  }
  // A separator before a `$$$` run that captures nothing is optional: `foo(y, $$$B)` matches `foo(y)`.
  const next = goals[i + 1];
  if (isSeparator(goal) && next?.kind === "meta" && next.multi) {
    const bound = bind(next, { run: [] }, env);
    return bound && matchSequence(goals, i + 2, nodes, j, bound, steps, root);
  }
  return undefined;
}

/** A `$$$` run: shortest first, as ast-grep does (it stops where the rest of the pattern matches). */
function matchRun(goal: PatternNode & { kind: "meta" }, goals: PatternNode[], i: number, nodes: Node[], j: number, env: Env, steps: Steps, root: Role): Env | undefined {
  // The pattern's last child: the run takes everything left, so `return $$$A` captures the value.
  if (i === goals.length - 1) {
    steps.left -= nodes.length - j;
    // A `;` that ends what the run takes ends its last statement (Python's `def f(): return 1;`):
    // dropped, an identity rewrite lost it.
    return bind(goal, { run: trimUnnamedEdges(nodes.slice(j), true) }, env);
  }
  for (let k = j; k <= nodes.length; k++) {
    steps.left -= k - j;
    const bound = bind(goal, { run: trimUnnamedEdges(nodes.slice(j, k)) }, env);
    if (!bound) continue;
    const rest = matchSequence(goals, i + 1, nodes, k, bound, steps, root);
    if (rest) return rest;
    // A separator after a run that captures nothing is optional: `foo($$$A, y)` matches `foo(y)`.
    if (k === j && isSeparator(goals[i + 1])) {
      const without = matchSequence(goals, i + 2, nodes, k, bound, steps, root);
      if (without) return without;
    }
  }
  return undefined;
}

function isSeparator(goal: PatternNode | undefined): boolean {
  return goal?.kind === "leaf" && (goal.text === "," || goal.text === ";");
}

/** Under a key no metavariable can have: the words a match skipped travel with its bindings. */
const SKIPPED = "#skipped";

/** Under another such key: the last code child of the match that the pattern's last child took. */
const LAST_MATCHED = "#last";

function withLastMatched(env: Env, node: Node): Env {
  const next = new Map(env);
  next.set(LAST_MATCHED, { single: node });
  return next;
}

function withSkippedWord(env: Env, node: Node): Env {
  const earlier = env.get(SKIPPED);
  const next = new Map(env);
  next.set(SKIPPED, { run: [...(earlier && "run" in earlier ? earlier.run : []), node] });
  return next;
}

/**
 * A run without the separators at its edges (the `,` between it and the pattern's next argument).
 * Brackets stay: `from $M import $$$N` over a parenthesised import keeps its parentheses, or the
 * rewrite would not compile.
 */
function trimUnnamedEdges(run: Node[], keepLastSemicolon = false): Node[] {
  const separator = (node: Node) => !node.isNamed && (node.type === "," || node.type === ";");
  let start = 0;
  let end = run.length;
  while (start < end && separator(run[start]!)) start++;
  // Only a body's last `;` (Python's block) is kept: `return $$$A` in JavaScript must not take the `;`.
  const bodyEnd = keepLastSemicolon && /block|body/.test(run[run.length - 1]?.parent?.type ?? "");
  while (end > start && separator(run[end - 1]!) && !(bodyEnd && end === run.length && run[end - 1]!.type === ";")) end--;
  return run.slice(start, end);
}

function bind(goal: PatternNode & { kind: "meta" }, capture: Capture, env: Env): Env | undefined {
  if (!goal.binds) return env;
  const earlier = env.get(goal.name);
  if (earlier) return sameCapture(earlier, capture) ? env : undefined;
  const next = new Map(env);
  next.set(goal.name, capture);
  return next;
}
