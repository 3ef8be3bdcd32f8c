// symbol_edit's re-indentation and blank-line habits: text written in any unit lands in the file's.
import { describe, expect, test } from "bun:test";
import { blankLinesBetween, indentUnit, reindent } from "../../src/tools/symbol-edit-text.ts";

describe("the file's indentation unit", () => {
  test.each([
    ["tabs", ["func f() {", "\tx := 1", "\tif x {", "\t\treturn", "\t}", "}"], "\t"],
    ["two spaces, JSDoc's one-space steps ignored", ["/**", " * doc", " */", "class A {", "  f() {", "    return 1;", "  }", "}"], "  "],
    ["four spaces", ["class A:", "    def f(self):", "        return 1"], "    "],
    ["nothing indented: four", ["a = 1", "b = 2"], "    "],
  ])("%s", (_name, lines, unit) => expect(indentUnit(lines)).toBe(unit));
});

describe("re-indenting the given text", () => {
  test.each([
    ["tabs into two spaces under a base", "if (x) {\n\treturn 1;\n}", "  ", "  ", ["  if (x) {", "    return 1;", "  }"]],
    ["four spaces into tabs", "for {\n    x++\n}", "\t", "\t", ["\tfor {", "\t\tx++", "\t}"]],
    ["common indentation taken off, blank ends dropped", "\n    a()\n\n    b()\n\n", "", "    ", ["a()", "", "b()"]],
    ["an odd extra space kept after the levels", "x = [\n    1,\n     2]", "", "  ", ["x = [", "  1,", "   2]"]],
  ])("%s", (_name, text, base, unit, lines) => expect(reindent(text, base, unit)).toEqual(lines));
});

describe("blank lines between definitions", () => {
  const lines = ["def a():", "    pass", "", "", "def b():", "    pass", "", "", "def c():", "    pass"];
  test("the most common gap between siblings", () => expect(blankLinesBetween(lines, [{ start: 0, end: 1 }, { start: 4, end: 5 }, { start: 8, end: 9 }], false)).toBe(2));
  test("no siblings: two at Python's top level, else one", () => {
    expect(blankLinesBetween(lines, [{ start: 0, end: 1 }], true)).toBe(2);
    expect(blankLinesBetween(lines, [{ start: 0, end: 1 }], false)).toBe(1);
  });
});
