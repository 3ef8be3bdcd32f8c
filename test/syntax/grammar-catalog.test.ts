// The embedded grammar catalog: every grammar the manifest lists loads, matches its hash, and parses.
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { bunGrammarSource } from "../../src/runtime/grammar-source.bun.ts";
import { GRAMMARS, GRAMMAR_IDS, GrammarLoader, grammarForPath } from "../../src/syntax/grammars.ts";

const REQUIRED = "dart python rust c cpp go javascript typescript tsx java kotlin c_sharp ruby swift php bash lua scala".split(" ");
const SAMPLES: Record<string, string> = { python: "def f(x):\n    return x\n", go: "package main\nfunc main() {}\n", dart: "void main() { print(1); }\n" };

describe("grammar catalog", () => {
  test("holds every required language", () => {
    expect([...GRAMMAR_IDS].sort()).toEqual(expect.arrayContaining(REQUIRED));
  });

  test.each(GRAMMARS.map((g) => [g.id]))("%s: bytes match the manifest's sha256 and the grammar parses", async (id) => {
    const grammar = GRAMMARS.find((g) => g.id === id)!;
    const bytes = await bunGrammarSource.grammarBytes(id);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(grammar.sha256);
    const parser = await new GrammarLoader(bunGrammarSource).parser(id);
    const tree = parser.parse(SAMPLES[id] ?? "x");
    expect(tree).not.toBeNull();
    if (SAMPLES[id]) expect(tree!.rootNode.hasError).toBe(false);
  });

  test.each([
    ["lib/main.dart", "dart"],
    ["a/b.PY", "python"],
    ["x.tsx", "tsx"],
    ["x.h", "c"],
    ["README.md", "markdown"],
    ["notes.txt", undefined],
  ])("%s maps to %p", (path, id) => {
    expect(grammarForPath(path)).toBe(id);
  });

  test("an unknown grammar id is a clear error listing the ids", async () => {
    await expect(new GrammarLoader(bunGrammarSource).language("cobol")).rejects.toThrow("embedded grammars: bash, c");
  });
});
