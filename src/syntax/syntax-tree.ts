// What the grammar sees: a syntax tree drawn as indented named nodes (field names, 1-based positions,
// a leaf's text), depth- and size-limited, and how a pattern parsed (its context on the ladder and
// the tree it matches with). For writing `kind` rules and patterns that parse as meant.
import type { Node, Parser } from "web-tree-sitter";
import type { Pattern, PatternNode } from "./pattern.ts";

export interface TreeView {
  /** 1-based lines, inclusive: only nodes overlapping them are drawn (the top-level ones in full). */
  lines?: { start: number; end: number };
  /** Levels drawn below each top node; deeper nodes are counted, not drawn. */
  depth: number;
  /** Lines of drawing at most. */
  maxNodes: number;
}

export interface DrawnTree {
  text: string;
  drawn: number;
  /** Named nodes left out: below the depth limit, or past maxNodes. */
  leftOut: number;
  /** ERROR and MISSING nodes met while drawing. */
  broken: number;
}

/** A leaf's text is shown up to this many characters. */
const LEAF_TEXT = 60;

export function drawTree(parser: Parser, source: string, view: TreeView): DrawnTree {
  const tree = parser.parse(source);
  if (!tree) throw new Error("the parser gave up on the text");
  try {
    const out: string[] = [];
    const counts = { leftOut: 0, broken: 0 };
    const tops = view.lines ? overlapping(tree.rootNode, view.lines) : [tree.rootNode];
    for (const top of tops) draw(top, undefined, 0, view, out, counts);
    return { text: out.join("\n"), drawn: Math.min(out.length, view.maxNodes), leftOut: counts.leftOut, broken: counts.broken };
  } finally {
    tree.delete();
  }
}

/** The outermost nodes (below the root) that overlap the lines, in order. */
function overlapping(root: Node, lines: { start: number; end: number }): Node[] {
  const out: Node[] = [];
  const visit = (node: Node) => {
    const first = node.startPosition.row + 1;
    const last = node.endPosition.row + 1 - (node.endPosition.column === 0 && node.endPosition.row > node.startPosition.row ? 1 : 0);
    if (last < lines.start || first > lines.end) return;
    // A node wholly inside the lines is drawn whole; one that spans past them is opened.
    if ((first >= lines.start && last <= lines.end) || node.namedChildCount === 0) out.push(node);
    else for (const child of node.namedChildren) if (child) visit(child);
  };
  for (const child of root.namedChildren) if (child) visit(child);
  return out;
}

function draw(node: Node, field: string | undefined, level: number, view: TreeView, out: string[], counts: { leftOut: number; broken: number }): void {
  if (node.isError || node.isMissing) counts.broken++;
  if (out.length >= view.maxNodes) {
    counts.leftOut += 1 + namedDescendants(node);
    return;
  }
  const start = node.startPosition;
  const end = node.endPosition;
  const kind = node.isMissing ? `MISSING ${node.type}` : node.type;
  const leaf = node.namedChildCount === 0 ? ` ${JSON.stringify(node.text.length > LEAF_TEXT ? `${node.text.slice(0, LEAF_TEXT)}…` : node.text)}` : "";
  out.push(`${"  ".repeat(level)}${field ? `${field}: ` : ""}${kind} ${start.row + 1}:${start.column + 1}-${end.row + 1}:${end.column + 1}${leaf}`);
  const children = node.children;
  for (let k = 0; k < children.length; k++) {
    const child = children[k];
    if (!child || !(child.isNamed || child.isError || child.isMissing)) continue;
    if (level + 1 > view.depth) {
      counts.leftOut += 1 + namedDescendants(child);
      continue;
    }
    draw(child, node.fieldNameForChild(k) ?? undefined, level + 1, view, out, counts);
  }
}

function namedDescendants(node: Node): number {
  return node.namedChildren.reduce((n, child) => n + (child ? 1 + namedDescendants(child) : 0), 0);
}

/** How a pattern parsed: the context that took it, its root, and the tree it matches with. */
export function drawPattern(pattern: Pattern): string {
  const lines = [
    `the pattern ${JSON.stringify(pattern.source)} parsed as ${pattern.context}${pattern.sequence ? " (a run of siblings: the grammar has no one node for it)" : ""}; its root is ${rootName(pattern.root)}`,
  ];
  const walk = (node: PatternNode, level: number) => {
    const indent = "  ".repeat(level);
    if (node.kind === "meta") lines.push(`${indent}${"$".repeat(node.multi ? 3 : node.anyNode ? 2 : 1)}${node.name}${node.multi ? " (any run of nodes)" : node.anyNode ? " (any node)" : " (one named node)"}`);
    else if (node.kind === "leaf") lines.push(`${indent}${node.type}${node.named === false ? "" : ` ${JSON.stringify(node.text)}`}`);
    else {
      lines.push(`${indent}${node.type}`);
      for (const child of node.children) walk(child, level + 1);
    }
  };
  walk(pattern.root, 1);
  return lines.join("\n");
}

function rootName(node: PatternNode): string {
  return node.kind === "meta" ? "a metavariable (it matches any node)" : `a ${node.type} node`;
}
