// What a metavariable captured: a node or a run of siblings, when two captures are the same code,
// and the source span a capture covers (with the comments at its edges).
import type { Node } from "web-tree-sitter";
import { isCommentType, significantChildren } from "./pattern.ts";

export type Capture = { single: Node } | { run: Node[] };
export type Bindings = ReadonlyMap<string, Capture>;

/** A repeated metavariable must capture equal syntax (same node types and token texts). */
export function sameCapture(a: Capture, b: Capture): boolean {
  const left = "single" in a ? [unwrapped(a.single)] : a.run;
  const right = "single" in b ? [unwrapped(b.single)] : b.run;
  return left.length === right.length && left.every((node, k) => sameSyntax(node, right[k]!));
}

/**
 * The innermost node spanning the same code: where a grammar wraps one side of `$X = append($X, $Y)`
 * (Go's expression_list, Lua's variable_list) the two captures of `$X` still compare equal.
 */
function unwrapped(node: Node): Node {
  for (;;) {
    const children = significantChildren(node);
    const only = children.length === 1 ? children[0]! : undefined;
    if (!only || only.startIndex !== node.startIndex || only.endIndex !== node.endIndex) return node;
    node = only;
  }
}

/**
 * Equal as syntax: same token texts and, above the tokens, same node types, whatever the spacing
 * and comments. Iterative: an expression of 20,000 terms is that deep, past any call stack.
 */
function sameSyntax(a: Node, b: Node): boolean {
  const pending: Array<[Node, Node]> = [[a, b]];
  for (let pair = pending.pop(); pair; pair = pending.pop()) {
    const [x, y] = pair;
    const left = significantChildren(x);
    const right = significantChildren(y);
    if (left.length !== right.length) return false;
    // Tokens compare by text alone, as in ast-grep: `this.$A = $A` captures a property_identifier
    // and an identifier, both `x`. Larger nodes must also be of one type.
    if (left.length === 0) {
      if (x.text !== y.text) return false;
      continue;
    }
    if (x.type !== y.type) return false;
    for (let k = 0; k < left.length; k++) pending.push([left[k]!, right[k]!]);
  }
  return true;
}

/** The source span a capture covers; an empty run is an empty span at `fallback`. */
export function captureSpan(capture: Capture, fallback: number): { start: number; end: number } {
  if ("single" in capture) return { start: capture.single.startIndex, end: capture.single.endIndex };
  if (capture.run.length === 0) return { start: fallback, end: fallback };
  // Comments at the run's edges (a body's first or last line) belong to it: a rewrite that puts
  // `$$$B` back must not drop them.
  return { start: withCommentsBefore(capture.run[0]!).startIndex, end: withCommentsAfter(capture.run[capture.run.length - 1]!).endIndex };
}

/**
 * The first of the comments right before `node`, or `node`. Where the node opens its parent (a
 * Python block opens with its first statement) the comments before the parent count too: Python
 * puts a body's leading comment beside the block, not in it.
 */
function withCommentsBefore(node: Node): Node {
  let first = node;
  for (;;) {
    const previous = first.previousSibling ?? (first.parent?.startIndex === first.startIndex ? first.parent.previousSibling : null);
    if (!previous || !isCommentType(previous.type)) return first;
    first = previous;
  }
}

/** The last of the comments right after `node`, or `node`; the mirror of withCommentsBefore. */
function withCommentsAfter(node: Node): Node {
  let last = node;
  for (;;) {
    const next = last.nextSibling ?? (last.parent?.endIndex === last.endIndex ? last.parent.nextSibling : null);
    if (!next || !isCommentType(next.type)) return last;
    last = next;
  }
}
