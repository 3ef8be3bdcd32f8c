// A Rust file whose every occurrence of a pattern's word lies in a comment or a string is not
// parsed (code-spans.ts): that must never drop a file with a match. The lexer is checked on the
// constructs that could throw it off (a `//` or a `"` inside a literal, characters against
// lifetimes), and gives up where it does not model Rust for certain.
import { describe, expect, test } from "bun:test";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { inCode, nonCodeSpans } from "../../src/syntax/code-spans.ts";
import { GrammarLoader } from "../../src/syntax/grammars.ts";
import { compilePattern } from "../../src/syntax/pattern.ts";
import { SyntaxService } from "../../src/syntax/service.ts";
import { TextFacts } from "../../src/syntax/text-facts.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/** Whether each `unwrap` of the text stands in code, in order. */
function unwrapsInCode(text: string): boolean[] | undefined {
  const spans = nonCodeSpans("rust", text);
  if (!spans) return undefined;
  return [...text.matchAll(/unwrap/g)].map((m) => inCode(spans, m.index!));
}

describe("Rust's comments and literals", () => {
  test.each([
    ["a doc comment, then code", "/// let a = b.unwrap();\nfn f() { c.unwrap(); }\n", [false, true]],
    ["a `//` inside a string is not a comment", 'let s = "http://x"; y.unwrap(); // z.unwrap()\n', [true, false]],
    ["an escaped quote stays in the string", 'let s = "a \\" b.unwrap()"; c.unwrap();\n', [false, true]],
    ["a string over several lines", 'let s = "one\n// two.unwrap()\nthree"; x.unwrap();\n', [false, true]],
    ["a byte string", 'let s = b"unwrap"; x.unwrap();\n', [false, true]],
    ["a quote as a character does not open a string", "let q = '\"'; x.unwrap(); let r = '\\''; y.unwrap();\n", [true, true]],
    ["lifetimes and labels are not characters", "fn f<'a>(x: &'a str) -> &'a str { 'outer: loop { x.unwrap(); break 'outer; } }\n", [true]],
    ["an escaped and a wide character", "let a = '\\u{1F600}'; let b = '😀'; let c = '\\n'; x.unwrap();\n", [true]],
    ["a comment at the end without a newline", "x.unwrap(); // unwrap", [true, false]],
    ["escapes as the grammar reads them", 'let s = "\\x7f \\u{1F600} \\u0041 \\q \\\n"; let c = \'\\u0041\'; x.unwrap();\n', [true]],
  ])("%s", (_, text, expected) => {
    expect(unwrapsInCode(text)).toEqual(expected);
  });

  test.each([
    ["a block comment (Rust nests them)", "/* x.unwrap() */ y.unwrap();\n"],
    ["a raw string", 'let s = r"x.unwrap()"; y.unwrap();\n'],
    ["a raw string with hashes", 'let s = r#"x "unwrap" "#; y.unwrap();\n'],
    ["a string left open", 'let s = "x.unwrap();\n'],
    ["an escape the grammar does not read (its recovery splits the string)", 'let s = "\\u{_0000}"; x.unwrap();\n'],
    ["a character with more after its escape", "let c = '\\na'; x.unwrap();\n"],
    ["an empty character", "let c = ''; x.unwrap();\n"],
    ["a quote before no character and no name", "let c = '(; x.unwrap();\n"],
    ["a script's front matter", "#!/usr/bin/env cargo\n---\n[package]\nname = \"x\"\n---\nfn main() { x.unwrap(); }\n"],
  ])("gives up on %s: all of it counts as code", (_, text) => {
    expect(nonCodeSpans("rust", text)).toBeUndefined();
  });

  test("only Rust has a lexer; other languages count every occurrence", () => {
    expect(nonCodeSpans("go", "// x.unwrap()\n")).toBeUndefined();
  });
});

describe("the pre-filter", () => {
  test("a pattern's word in comments alone leaves the file unparsed; a rule still counts it", async () => {
    const parser = await new GrammarLoader(bunPrimitives.grammars).parser("rust");
    const pattern = compilePattern("rust", "$X.unwrap()", parser);
    const documented = "/// ```\n/// let v = f().unwrap();\n/// ```\npub fn f() -> Option<u8> { None }\n";
    expect(new TextFacts().holdsAll(documented, pattern)).toBe(false);
    expect(new TextFacts().holdsAll('let s = "//"; v.unwrap();\n', pattern)).toBe(true);
    // A rule may match a comment itself (`kind: line_comment` with a regex): its literal counts there.
    expect(new TextFacts().holdsAll(documented, { literals: ["unwrap"], wordLiterals: ["unwrap"], language: "rust", context: "rule" })).toBe(true);
    // One facts object answers both, each by its own rule.
    const facts = new TextFacts();
    expect(facts.holdsAll(documented, pattern)).toBe(false);
    expect(facts.holdsAll(documented, { literals: ["unwrap"], wordLiterals: ["unwrap"], language: "rust", context: "rule" })).toBe(true);
  });

  test("a search finds every match and parses only the files with the word in code", async () => {
    await using dir = await tempDir();
    await dir.write({
      "docs.rs": "//! Call `x.unwrap()` at your peril.\n/// let v = f().unwrap();\npub fn f() -> Option<u8> { None }\n",
      "code.rs": "fn g() { let s = \"http://x\"; let q = '\"'; s.parse::<u8>().unwrap(); } // unwrap\n",
      "macro.rs": "fn h() { assert_eq!(v.unwrap(), 1); }\n",
    });
    const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, workers: 0 });
    try {
      const answer = await syntax.search({ pattern: "$X.unwrap()", language: "rust" });
      expect(answer.outcomes.flatMap((o) => o.matches.map((m) => m.text))).toEqual(['s.parse::<u8>().unwrap()']);
      // code.rs and macro.rs (whose call the grammar keeps as a token tree) are parsed; docs.rs is not.
      expect(answer.stats.candidates).toBe(2);
    } finally {
      await syntax.close();
    }
  });
});
