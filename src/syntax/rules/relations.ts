// The relational rules: `inside` (ancestors), `has` (descendants), `precedes` (later siblings) and
// `follows` (earlier siblings), each stopping as `stopBy` says: `neighbor` looks at the nearest one
// only, `end` goes all the way, a rule stops at the first node it matches (that node included).
// `field` narrows `has` to the child in that field, and `inside` to a parent holding the path in it.
import type { Node } from "web-tree-sitter";
import type { Bindings } from "../captures.ts";
import type { RuleNode } from "./compiled.ts";

/** What the relational rules need of the evaluation (evaluate.ts): matching a sub-rule at a node. */
export interface RuleEvaluation {
  bindings(rule: RuleNode, node: Node, env: Bindings): Bindings | undefined;
  test(rule: RuleNode, node: Node, env: Bindings): boolean;
}

type Relation = Extract<RuleNode, { op: "inside" | "has" | "precedes" | "follows" }>;

export function related(evaluation: RuleEvaluation, rule: Relation, node: Node, env: Bindings): Bindings | undefined {
  const first = (nodes: Iterable<Node>) => {
    for (const candidate of stopping(evaluation, rule, nodes, env)) {
      const bound = evaluation.bindings(rule.rule, candidate, env);
      if (bound) return bound;
    }
    return undefined;
  };
  switch (rule.op) {
    case "inside":
      return rule.field === undefined ? first(ancestors(node)) : insideField(evaluation, rule, node, env);
    case "has":
      return rule.field === undefined ? has(evaluation, rule, node, env) : hasField(evaluation, rule, node, env);
    case "precedes":
      return first(siblings(node, "next"));
    case "follows":
      return first(siblings(node, "previous"));
  }
}

/** The nodes a `neighbor`, `end` or rule stop lets the search try, in order (`has` prunes its own). */
function* stopping(evaluation: RuleEvaluation, rule: Relation, nodes: Iterable<Node>, env: Bindings): Generator<Node> {
  for (const node of nodes) {
    yield node;
    if (rule.stopBy === "neighbor") return;
    if (rule.stopBy !== "end" && evaluation.test(rule.stopBy, node, env)) return;
  }
}

/** `inside` with `field`: each ancestor tried must hold the node below it on the path in that field. */
function insideField(evaluation: RuleEvaluation, rule: Relation, node: Node, env: Bindings): Bindings | undefined {
  let below = node;
  for (const ancestor of stopping(evaluation, rule, ancestors(node), env)) {
    const inField = ancestor.childForFieldName(rule.field!);
    const holds = inField !== null && inField.id === below.id;
    below = ancestor;
    if (!holds) continue;
    const bound = evaluation.bindings(rule.rule, ancestor, env);
    if (bound) return bound;
  }
  return undefined;
}

/** `has` without field: the children (neighbor), every descendant (end), or descendants not below a stop node. */
function has(evaluation: RuleEvaluation, rule: Relation, node: Node, env: Bindings): Bindings | undefined {
  for (const child of children(node)) {
    const bound = evaluation.bindings(rule.rule, child, env);
    if (bound) return bound;
    if (rule.stopBy === "neighbor") continue;
    if (rule.stopBy !== "end" && evaluation.test(rule.stopBy, child, env)) continue;
    const deeper = has(evaluation, rule, child, env);
    if (deeper) return deeper;
  }
  return undefined;
}

/**
 * `has` with field: the first child in that field (neighbor), it and its descendants (end), or, as
 * ast-grep does with a stop rule, it and its own children unless it is a stop node.
 */
function hasField(evaluation: RuleEvaluation, rule: Relation, node: Node, env: Bindings): Bindings | undefined {
  const inField = node.childForFieldName(rule.field!);
  if (!inField) return undefined;
  if (rule.stopBy === "neighbor") return evaluation.bindings(rule.rule, inField, env);
  if (rule.stopBy === "end") {
    for (const candidate of preorder(inField)) {
      const bound = evaluation.bindings(rule.rule, candidate, env);
      if (bound) return bound;
    }
    return undefined;
  }
  const here = evaluation.bindings(rule.rule, inField, env);
  if (here || evaluation.test(rule.stopBy, inField, env)) return here;
  for (const child of children(inField)) {
    const bound = evaluation.bindings(rule.rule, child, env);
    if (bound) return bound;
  }
  return undefined;
}

function* ancestors(node: Node): Generator<Node> {
  for (let up = node.parent; up; up = up.parent) yield up;
}

/** Siblings after (or before, nearest first) the node, unnamed ones included, as tree-sitter lists them. */
function* siblings(node: Node, way: "next" | "previous"): Generator<Node> {
  for (let s = way === "next" ? node.nextSibling : node.previousSibling; s; s = way === "next" ? s.nextSibling : s.previousSibling) yield s;
}

function children(node: Node): Node[] {
  return node.children.filter((c): c is Node => c !== null);
}

function* preorder(node: Node): Generator<Node> {
  yield node;
  for (const child of children(node)) yield* preorder(child);
}
