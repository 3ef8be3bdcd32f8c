// Checks the token chains the pre-filter trusts (src/syntax/token-chains.ts) against tree-sitter on
// real checkouts, per language it claims:
// - every unnamed node's text is its own type, and no unnamed node has children;
// - between two children of a node (an opaque one aside), and between a node's start and its first
//   child, there is nothing but what a gap may hold (whitespace, comments, unnamed tokens);
// - no (file, pattern) pair the chains let the pre-filter skip holds a match.
// Prints how many pairs the chains skipped beyond the literals, and their bytes.
// Usage: bun bench/token-chains.ts LANGUAGE DIR [DIR ...] [-- PATTERN ...]
//   (checkouts fetched by hand; CI never runs this)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Node } from "web-tree-sitter";
import { bunPrimitives } from "../src/runtime/bun.ts";
import { compiledGrammars, GrammarLoader, grammarForPath } from "../src/syntax/grammars.ts";
import { compilePattern, isCommentType } from "../src/syntax/pattern.ts";
import { crossesGap, hasTokenChains, opaqueNodes } from "../src/syntax/token-chains.ts";
import { PrefilterSkips } from "./prefilter-skips.ts";

const PATTERNS: Record<string, string[]> = {
  go: ["if err != nil { $$$B }", "return $A, err", "require.NoError($T, $E)", "defer $F($$$A)", "for $K, $V := range $M { $$$B }", "if $A == nil { $$$B }", "fmt.Errorf($$$A)", "x := <-ch", "func ($R $T) $F($$$A) $Z { $$$B }", "t.Run($N, func(t *testing.T) { $$$B })", "errors.Is($E, $T)", "go func() { $$$B }()", "select { $$$C }", "if v, ok := $M[$K]; ok { $$$B }", "x[i] = y", "var $X $T = $V", "x.y.z"],
  java: ["throw new IllegalArgumentException($$$A)", "assertEquals($A, $B)", "if ($A == null) { $$$B }", "$X.length()", "return $A;", "if ($A != null) { $$$B }", "for (int $I = 0; $I < $N; $I++) { $$$B }", "Objects.requireNonNull($X)", "@Override public $T $M($$$P) { $$$B }", "new $T<>($$$A)", "$X.equals($Y)", "String.format($$$A)", "try { $$$A } catch ($E $V) { $$$B }", "this.$F = $V;", "System.out.println($X)"],
};
const MAX_FILE_CHARS = 1 << 20;

const [language, ...rest] = process.argv.slice(2);
const split = rest.indexOf("--");
const dirs = split === -1 ? rest : rest.slice(0, split);
if (!language || dirs.length === 0 || !hasTokenChains(language)) {
  console.error("Usage: bun bench/token-chains.ts LANGUAGE DIR [DIR ...] [-- PATTERN ...]  (a language token-chains.ts claims)");
  process.exit(2);
}
const parser = await new GrammarLoader(compiledGrammars(bunPrimitives.grammars)).parser(language);
const grammar = parser.language!;
const sources = split === -1 ? (PATTERNS[language] ?? []) : rest.slice(split + 1);
const patterns = sources.map((source) => compilePattern(language, source, parser));
const tokens: string[] = [];
for (let id = 0; id < grammar.nodeTypeCount; id++) if (!grammar.nodeTypeIsNamed(id) && grammar.nodeTypeIsVisible(id)) tokens.push(grammar.nodeTypeForId(id)!);
for (const pattern of patterns) console.log(`${pattern.source}: runs ${JSON.stringify(pattern.chains?.runs ?? [])}`);

/** Faults of the grammar against what the chains assume, described; at most a few per file. */
function faults(root: Node, text: string): string[] {
  const found: string[] = [];
  const cursor = root.walk();
  const opaque = new Set(opaqueNodes(language!));
  try {
    for (;;) {
      const node = cursor.currentNode;
      if (!node.isNamed && node.endIndex > node.startIndex && (node.text !== node.type || node.childCount > 0)) found.push(`line ${node.startPosition.row + 1}: unnamed ${JSON.stringify(node.type)} reads ${JSON.stringify(node.text.slice(0, 30))}`);
      if (node.childCount > 0 && !opaque.has(node.type) && !isCommentType(node.type)) {
        const children = node.children.filter((c): c is Node => c !== null && !c.isMissing && !isCommentType(c.type));
        let end = node.startIndex;
        for (const child of children) {
          if (!crossesGap(text, end, child.startIndex, language!, tokens)) found.push(`line ${node.startPosition.row + 1}: ${node.type} holds ${JSON.stringify(text.slice(end, child.startIndex).slice(0, 40))} before its ${child.type}`);
          end = child.endIndex;
        }
      }
      if (found.length >= 3) return found;
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return found;
    }
  } finally {
    cursor.delete();
  }
}

for (const dir of dirs) {
  const files = [...new Bun.Glob("**/*").scanSync({ cwd: dir })].filter((file) => grammarForPath(file) === language);
  let checked = 0;
  let faulty = 0;
  const skips = new PrefilterSkips();
  for (const file of files) {
    const text = readFileSync(join(dir, file), "utf8");
    if (text.length >= MAX_FILE_CHARS) continue;
    checked++;
    const tree = parser.parse(text)!;
    try {
      const wrong = faults(tree.rootNode, text);
      if (wrong.length > 0) {
        faulty++;
        if (faulty <= 20) for (const fault of wrong) console.log(`  ${file} ${fault}`);
      }
      skips.check(file, text, tree, patterns);
    } finally {
      tree.delete();
    }
  }
  console.log(`${dir}: ${checked} files, ${faulty} with a gap the chains do not allow; (file, pattern) pairs skipped by the chains ${skips.skipped} (${skips.share()} % of the characters the literals let through), with a match ${skips.wrong}`);
}
