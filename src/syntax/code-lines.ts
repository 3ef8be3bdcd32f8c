// Which lines of a source file hold code (anything but comments and whitespace): from its
// tree-sitter tree when the run has the file's grammar, else from each line's first characters.
import type { Node, Parser } from "web-tree-sitter";
import { grammarForPath } from "./grammars.ts";
import type { SyntaxService } from "./service.ts";

/** One flag per line, `count` lines: does it hold code? */
export async function codeLines(syntax: SyntaxService | undefined, path: string, text: string, count: number): Promise<boolean[]> {
  const language = grammarForPath(path);
  const parser = language && syntax ? await syntax.parser(language).catch(() => undefined) : undefined;
  return parser ? treeCodeLines(parser, text, count) ?? lexicalCodeLines(path, text, count) : lexicalCodeLines(path, text, count);
}

function treeCodeLines(parser: Parser, text: string, count: number): boolean[] | undefined {
  const code = new Array<boolean>(count).fill(false);
  const tree = parser.parse(text);
  if (!tree) return undefined;
  try {
    const visit = (node: Node): void => {
      if (/comment/.test(node.type)) return;
      if (node.childCount === 0) {
        if (node.endIndex > node.startIndex) for (let row = node.startPosition.row; row <= node.endPosition.row && row < count; row++) code[row] = true;
        return;
      }
      for (const child of node.children) if (child) visit(child);
    };
    visit(tree.rootNode);
  } finally {
    tree.delete();
  }
  return code;
}

/** Without a grammar: a line is code unless it is blank or starts a comment (`#` in Python, Ruby and shell; else `//`, `/*`, `*`). */
function lexicalCodeLines(path: string, text: string, count: number): boolean[] {
  const comment = /\.(py|pyw|rb|sh|bash)$/.test(path) ? /^#/ : /^(\/\/|\/\*|\*)/;
  return text
    .split("\n")
    .slice(0, count)
    .map((line) => line.trim() !== "" && !comment.test(line.trim()));
}
