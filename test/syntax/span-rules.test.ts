// Where a match ends and where its rewrite ends (issue 41, section 3): a markdown heading's match
// takes its line break and its rewrite keeps it; a Python one-line def's last `;` survives an
// identity rewrite; a Dart statement's match takes its `;` and a rewrite keeps it.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { SyntaxService } from "../../src/syntax/service.ts";
import { tempDir } from "../helpers/temp-dir.ts";

setDefaultTimeout(30_000);

async function rewrite(file: string, code: string, pattern: string, template: string) {
  await using dir = await tempDir();
  await dir.write({ [file]: code });
  const syntax = new SyntaxService({ workdir: dir.path, source: bunPrimitives.grammars, workers: 0 });
  try {
    const answer = await syntax.search({ pattern, path: file, rewrite: template });
    return { texts: answer.outcomes.flatMap((o) => o.matches.map((m) => m.text)), updated: answer.outcomes[0]?.rewrite?.updated };
  } finally {
    await syntax.close();
  }
}

describe("match and rewrite spans", () => {
  test.each([
    ["## $T", "### $T", "# Title\n\n## Sub heading\n- item\n## Last", "# Title\n\n### Sub heading\n- item\n### Last", ["## Sub heading\n", "## Last"]],
    ["# $T", "# $T", "# One\ntext\n# Two\n", "# One\ntext\n# Two\n", ["# One\n", "# Two\n"]],
    // The grammar's list item takes the blank line after it too.
    ["- $A", "* $A", "- a\n- b\n\npara\n", "* a\n* b\n\npara\n", ["- a\n", "- b\n\n"]],
  ])("markdown %s → %s", async (pattern, template, code, updated, texts) => {
    const r = await rewrite("a.md", code, pattern, template);
    expect(r.texts).toEqual(texts);
    expect(r.updated).toBe(updated);
  });

  test.each([
    "def f(): return 1;\n",
    "def g(a): x = a; return x;\n",
    "class A:\n    def m(self): pass;\n",
    "def h():\n    return 2;\n",
    "def k(a, b): return a;  # why\n",
  ])("a Python identity rewrite of %j changes nothing", async (code) => {
    const r = await rewrite("a.py", code, "def $F($$$A): $$$B", "def $F($$$A): $$$B");
    expect(r.texts.length).toBeGreaterThan(0);
    expect(r.updated).toBe(code);
  });

  test.each([
    ["return $R", "return $R + 1", "int h() { return 4; }\n", "int h() { return 4 + 1; }\n", ["return 4;"]],
    ["var $X = $Y", "final $X = $Y", "void f() {\n  var x = 2;\n}\n", "void f() {\n  final x = 2;\n}\n", ["var x = 2;"]],
    ["if ($X != null) $X.dispose()", "$X?.dispose()", "void f() {\n  if (c != null) c.dispose();\n}\n", "void f() {\n  c?.dispose();\n}\n", ["if (c != null) c.dispose();"]],
  ])("a Dart statement %s takes its ; and the rewrite keeps it", async (pattern, template, code, updated, texts) => {
    const r = await rewrite("a.dart", code, pattern, template);
    expect(r.texts).toEqual(texts);
    expect(r.updated).toBe(updated);
  });
});
