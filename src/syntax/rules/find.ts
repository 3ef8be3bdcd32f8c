// Every match of a compiled rule in a tree: each node of a kind the rule can match is tried, in
// document order (outer before inner), as ast-grep's scan tries them.
import type { Node } from "web-tree-sitter";
import { matchBudget, type NodeMatch } from "../match.ts";
import type { CompiledRule } from "./compiled.ts";
import { RuleEvaluation } from "./evaluate.ts";

export function findRuleMatches(root: Node, rule: CompiledRule): NodeMatch[] {
  const evaluation = new RuleEvaluation(rule, matchBudget());
  const kinds = new Set(rule.kinds);
  const matches: NodeMatch[] = [];
  const cursor = root.walk();
  try {
    for (;;) {
      // The kind is read from the cursor: a node object (a trip into WASM) is made only for candidates.
      if (kinds.has(cursor.nodeType)) {
        const match = evaluation.matchAt(cursor.currentNode);
        if (match) matches.push(match);
      }
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return matches;
      }
    }
  } finally {
    cursor.delete();
  }
}
