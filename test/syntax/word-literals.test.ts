// Subtrees are searched only around occurrences of the pattern's rarest word; a keyword or an
// identifier counts only where it stands as a whole word. That must narrow the search, never lose
// a match: the same word inside a longer one, next to `$`, or as string content is handled.
import { describe, expect, test } from "bun:test";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { GrammarLoader } from "../../src/syntax/grammars.ts";
import { findMatches } from "../../src/syntax/match.ts";
import { compilePattern } from "../../src/syntax/pattern.ts";
import { SyntaxService } from "../../src/syntax/service.ts";
import { TextFacts } from "../../src/syntax/text-facts.ts";
import { tempDir } from "../helpers/temp-dir.ts";

async function matchTexts(file: string, code: string, pattern: string): Promise<string[]> {
  await using dir = await tempDir();
  await dir.write({ [file]: code });
  const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, workers: 0 });
  try {
    const answer = await syntax.search({ pattern, path: file });
    return answer.outcomes.flatMap((o) => o.matches.map((m) => m.text));
  } finally {
    await syntax.close();
  }
}

describe("whole-word literals", () => {
  test("keywords and identifiers are word literals; string contents are not", async () => {
    const parser = await new GrammarLoader(bunPrimitives.grammars).parser("typescript");
    const pattern = compilePattern("typescript", 'f(x as T, "abc")', parser);
    expect(pattern.wordLiterals.sort()).toEqual(["T", "as", "f", "x"]);
    expect(pattern.literals).toContain("abc");
  });

  test.each([
    ["a.ts", "class Basis {}\nconst a = b as string;\nconst passes = c;\n", "$A as $T", ["b as string"]],
    ["a.js", "$foo(1);\nfoo(2);\nfoofoo(3);\n", "foo($A)", ["foo(2)"]],
    ["a.js", 'f("\\nabc");\nf("abc");\n', 'f("\\nabc")', ['f("\\nabc")']],
    ["a.py", "raise_error = 1\nraise ValueError(x)\n", "raise $E($$$A)", ["raise ValueError(x)"]],
    // Offsets are UTF-16 units, as the tree's indices: text with accents, CJK and astral characters
    // (surrogate pairs) before and between the matches must not throw the descent off its nodes.
    ["a.ts", 'const s = "ééé😀 文字";\nfoo(1);\nconst t = "😀😀";\n  foo(bar("文字"));\n', "foo($A)", ["foo(1)", 'foo(bar("文字"))']],
    ["a.ts", 'const s = "😀";\nfoo(bar("文字"), "😀");\n', "bar($A)", ['bar("文字")']],
    // An occurrence right where a sibling ends (`)` ends at the offset of `.`) is held by the next one.
    ["a.js", "f(a).close();\ng().close(1);\n", "$X.close($$$A)", ["f(a).close()", "g().close(1)"]],
  ])("%s %p: pattern %p", async (file, code, pattern, expected) => {
    expect(await matchTexts(file, code, pattern)).toEqual(expected);
  });
});

describe("operator literals", () => {
  test("an operator of two or more characters is a literal; separators and single characters are not", async () => {
    const parser = await new GrammarLoader(bunPrimitives.grammars).parser("typescript");
    expect(compilePattern("typescript", "$A ?? $B", parser).literals).toEqual(["??"]);
    expect(compilePattern("typescript", "f($A, $$$B) === undefined", parser).literals.sort()).toEqual(["===", "f", "undefined"]);
  });

  test("a file without the operator is never parsed, and every match in the others is found", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.ts": "const x = a ?? b;\nconst s = '??';\nf(c ?? (d ?? e));\n", "b.ts": "const y = a || b;\n" });
    const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, workers: 0 });
    try {
      const answer = await syntax.search({ pattern: "$A ?? $B", language: "typescript" });
      expect(answer.outcomes.flatMap((o) => o.matches.map((m) => m.text))).toEqual(["a ?? b", "c ?? (d ?? e)", "d ?? e"]);
      expect(answer.stats.candidates).toBe(1);
    } finally {
      await syntax.close();
    }
  });
});

describe("the nodes tried around the occurrences", () => {
  // The cursor goes forward once through the paths to every occurrence (match.ts, nodesOnPathsTo):
  // what it tries must be what a walk of the whole tree tries, whatever the occurrences' number and
  // layout: siblings, nested, in strings and comments, at a sibling's very end, deep in a long list.
  const many = (n: number, f: (k: number) => string) => Array.from({ length: n }, (_, k) => f(k)).join("");
  test.each([
    ["javascript", "$X.close($$$A)", "f(a).close();\ng().close(1);\n// x.close()\nconst s = 'y.close()';\n"],
    ["javascript", "foo($A)", `const list = [${many(300, (k) => `foo(${k}), `)}];\n${many(40, (k) => `foo(foo(bar(${k})));\n`)}`],
    ["javascript", "foo($A)", `${many(30, (k) => `function f${k}() { return foo(x${k}) + "foo(" + g(foo(y)); } // foo(z)\n`)}`],
    ["javascript", "foo($A)", `${many(30, (k) => `function f${k}() { return foo(${k}); }\n`)}`],
    ["python", "raise $E($$$A)", `${many(50, (k) => `def f${k}():\n    if x:\n        raise E${k}(a, raise_b)\n    raise_it = 1\n`)}`],
    ["go", "if err != nil { $$$B }", `package p\n${many(40, (k) => `func f${k}() error {\n\tif err := g(); err != nil {\n\t\tif err != nil { return err }\n\t}\n\treturn nil\n}\n`)}`],
    ["rust", "$X.unwrap()", `${many(60, (k) => `fn f${k}() { let a = b.unwrap().c(d.unwrap()); /* e.unwrap() */ }\n`)}`],
  ])("%s %p", async (language, source, code) => {
    const parser = await new GrammarLoader(bunPrimitives.grammars).parser(language);
    const pattern = compilePattern(language, source, parser);
    const tree = parser.parse(code)!;
    try {
      const offsets = new TextFacts().rarestOffsets(code, pattern);
      expect(offsets!.length).toBeGreaterThan(0);
      const spans = (matches: ReturnType<typeof findMatches>) => matches.map((m) => [m.node.startIndex, m.end]);
      const walked = spans(findMatches(tree.rootNode, pattern));
      expect(walked.length).toBeGreaterThan(0);
      expect(spans(findMatches(tree.rootNode, pattern, offsets))).toEqual(walked);
      // An offset between two children (a literal inside a token the grammar hides) lands the cursor on
      // the next child, which must still be tried when the next offset is inside it. (Where the
      // literal follows a space: foo, raise, if; not .close or .unwrap.)
      const between = offsets!.flatMap((offset) => (/\s/.test(code[offset - 1] ?? "") ? [offset - 1, offset] : [offset]));
      expect(spans(findMatches(tree.rootNode, pattern, between))).toEqual(walked);
    } finally {
      tree.delete();
      parser.delete();
    }
  });
});
