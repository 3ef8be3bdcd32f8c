// For the benches that check what the pre-filter knows beyond a pattern's literals (the Rust lexer
// of bench/rust-code-spans.ts, the token chains of bench/token-chains.ts): the (file, pattern) pairs
// that the literals let through and the full pre-filter skips, counted, and each one that holds a
// match on the real parse printed, since skipping it would have lost that match.
import type { Tree } from "web-tree-sitter";
import { findMatches } from "../src/syntax/match.ts";
import type { Pattern } from "../src/syntax/pattern.ts";
import { TextFacts } from "../src/syntax/text-facts.ts";

export class PrefilterSkips {
  /** Pairs skipped, and the characters of their files. */
  skipped = 0;
  skippedChars = 0;
  /** Characters of the files the literals alone let through, once per pattern. */
  literalChars = 0;
  /** Skipped pairs that hold a match. */
  wrong = 0;

  /** Tallies one file against every pattern; `tree` is its parse. */
  check(file: string, text: string, tree: Tree, patterns: readonly Pattern[]): void {
    for (const pattern of patterns) {
      if (!new TextFacts().holdsAll(text, { literals: pattern.literals, wordLiterals: pattern.wordLiterals })) continue;
      this.literalChars += text.length;
      if (new TextFacts().holdsAll(text, pattern)) continue;
      this.skipped++;
      this.skippedChars += text.length;
      const found = findMatches(tree.rootNode, pattern).length;
      if (found > 0) {
        this.wrong++;
        console.log(`  WRONG: ${file} was skipped for ${pattern.source} and holds ${found} match(es)`);
      }
    }
  }

  /** The skipped files' share of what the literals let through, in percent. */
  share(): string {
    return this.literalChars > 0 ? ((100 * this.skippedChars) / this.literalChars).toFixed(0) : "0";
  }
}
