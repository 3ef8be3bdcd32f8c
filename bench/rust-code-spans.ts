// Checks the Rust lexer the pre-filter trusts (src/syntax/code-spans.ts) against tree-sitter on real
// checkouts: every identifier or keyword the grammar parses as code must lie in code for the lexer,
// and no (file, pattern) pair the lexer lets the pre-filter skip may hold a match. Prints how often
// the lexer gave up (the whole file then counts as code) and how many pairs it skipped.
// Usage: bun bench/rust-code-spans.ts DIR [DIR ...]   (Rust checkouts fetched by hand; CI never runs this)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Tree } from "web-tree-sitter";
import { bunPrimitives } from "../src/runtime/bun.ts";
import { inCode, nonCodeSpans } from "../src/syntax/code-spans.ts";
import { compiledGrammars, GrammarLoader } from "../src/syntax/grammars.ts";
import { compilePattern } from "../src/syntax/pattern.ts";
import { PrefilterSkips } from "./prefilter-skips.ts";

const SOURCES = ["$X.unwrap()", "Arc::new($X)", "impl $T for $S { $$$B }", "match $X { $$$A }", "$X.await", "fn $F($$$A) -> $R { $$$B }", "let $X = $Y;", "Ok($X)", "println!($$$A)", "self.$F", "unsafe { $$$B }", "Some($X)", "return $X", "pub fn $F($$$A) { $$$B }", "use $X;", "struct $S { $$$F }"];
const MAX_FILE_CHARS = 1 << 20;

const parser = await new GrammarLoader(compiledGrammars(bunPrimitives.grammars)).parser("rust");
const patterns = SOURCES.map((source) => compilePattern("rust", source, parser));

/** Leaves that read as a word and that the grammar holds as code (outside comments and literals), but the lexer does not. */
function wordsMisplaced(tree: Tree, text: string, spans: readonly number[]): string[] {
  const misplaced: string[] = [];
  const cursor = tree.walk();
  const notCode = (type: string) => type.includes("comment") || type.includes("string_literal") || type === "char_literal";
  try {
    for (;;) {
      const skipSubtree = notCode(cursor.nodeType);
      if (!skipSubtree && cursor.gotoFirstChild()) continue;
      if (!skipSubtree && cursor.currentNode.childCount === 0) {
        const word = text.slice(cursor.startIndex, cursor.endIndex);
        if (/^[A-Za-z_]\w*$/.test(word) && !inCode(spans, cursor.startIndex)) misplaced.push(`line ${cursor.startPosition.row + 1}: ${word}`);
      }
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return misplaced;
    }
  } finally {
    cursor.delete();
  }
}

for (const dir of process.argv.slice(2)) {
  const files = [...new Bun.Glob("**/*.rs").scanSync({ cwd: dir })];
  let checked = 0;
  let gaveUp = 0;
  const skips = new PrefilterSkips();
  let misplacedWords = 0;
  for (const file of files) {
    const text = readFileSync(join(dir, file), "utf8");
    if (text.length >= MAX_FILE_CHARS) continue;
    checked++;
    const spans = nonCodeSpans("rust", text);
    const tree = parser.parse(text)!;
    try {
      if (!spans) gaveUp++;
      else for (const word of wordsMisplaced(tree, text, spans)) {
        misplacedWords++;
        console.log(`  a code word the lexer put in a comment or literal: ${file} ${word}`);
      }
      skips.check(file, text, tree, patterns);
    } finally {
      tree.delete();
    }
  }
  console.log(`${dir}: ${checked} files, the lexer gave up on ${gaveUp}; (file, pattern) pairs skipped ${skips.skipped}, with a match ${skips.wrong}; code words placed outside code ${misplacedWords}`);
}
