// Where a text fails to parse: the ERROR and MISSING nodes of its tree, for refusing an edit that breaks the file.
import type { Node, Parser } from "web-tree-sitter";

export interface SyntaxError {
  /** 1-based line and column (UTF-16) where the broken part starts. */
  line: number;
  column: number;
  /** "unexpected `)`" or "missing `}`". */
  what: string;
}

/** Errors listed at most; a text broken everywhere needs only its first few. */
const ERRORS_KEPT = 20;

/** The text's syntax errors in source order (an ERROR node's own errors inside it are not repeated). */
export function syntaxErrors(parser: Parser, text: string): SyntaxError[] {
  const tree = parser.parse(text);
  if (!tree) return [{ line: 1, column: 1, what: "the parser gave up on the file" }];
  const found: SyntaxError[] = [];
  try {
    const visit = (node: Node): void => {
      if (found.length >= ERRORS_KEPT || !node.hasError && !node.isMissing) return;
      if (node.isMissing || node.type === "ERROR") {
        const shown = text.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + 40)).split("\n")[0];
        found.push({ line: node.startPosition.row + 1, column: node.startPosition.column + 1, what: node.isMissing ? `missing \`${node.type}\`` : `unexpected \`${shown}\`` });
        return;
      }
      for (const child of node.children) if (child) visit(child);
    };
    visit(tree.rootNode);
  } finally {
    tree.delete();
  }
  return found;
}

/** A definition's body as the grammar has it: its `body` field (a `{…}` block, or Python's indented block). */
interface BodySpan {
  /** String offsets of the body node. */
  start: number;
  end: number;
  /** `{…}`: the braces are kept and the text goes between them; else the block itself is replaced. */
  braced: boolean;
  /** 0-based line of the body's first character. */
  line: number;
}

/**
 * The body of the innermost definition around `offset` (a definition's name): the nearest ancestor
 * with a `body` field whose body does not hold the name itself.
 */
export function definitionBody(parser: Parser, text: string, offset: number): BodySpan | undefined {
  const tree = parser.parse(text);
  if (!tree) return undefined;
  try {
    for (let node: Node | null = tree.rootNode.descendantForIndex(offset); node; node = node.parent) {
      const body = node.childForFieldName("body");
      if (!body || (body.startIndex <= offset && offset < body.endIndex)) continue;
      return { start: body.startIndex, end: body.endIndex, braced: text[body.startIndex] === "{", line: body.startPosition.row };
    }
    return undefined;
  } finally {
    tree.delete();
  }
}
