// Line + symbol addressing, comparing diagnostics and text edits: the pure parts of the LSP domain.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { compareDiagnostics } from "../../src/lsp/ledger.ts";
import { resolveSymbolColumn } from "../../src/lsp/position.ts";
import { applyTextEdits, planWorkspaceEdit } from "../../src/lsp/workspace-edit.ts";
import { ToolFailure } from "../../src/answer/failure.ts";
import { tempDir } from "../helpers/temp-dir.ts";

describe("resolveSymbolColumn turns a symbol on a line into a UTF-16 column", () => {
  test.each([
    ["const total = sum(a, b);", "sum", 14],
    ["const total = sum(a, b);", "total", 6],
    ["  return x.y;", "y", 11],
    ["const 😀 = 1; let value = 2;", "value", 18],
    ["é = café + 1", "café", 4],
    ["a.b(a)", "a#2", 4],
    ["f(x) + g(x)", "x#1", 2],
  ])("%p, %p → %p", (line, symbol, column) => {
    expect(resolveSymbolColumn(line, symbol, 1).character).toBe(column);
  });

  test("a symbol of several names is refused: the position would be the first name's, an answer about something else", () => {
    expect(() => resolveSymbolColumn("obj.method()", "obj.method", 1)).toThrow('symbol "obj.method" holds 2 names (obj, method); a position is one identifier. Pass the one you mean, e.g. "method".');
  });

  test("a substring inside a longer identifier does not match, and the error lists what the line holds", () => {
    const error = (() => {
      try {
        resolveSymbolColumn("const totalSum = sum(1);", "total", 7);
      } catch (e) {
        return e as ToolFailure;
      }
    })();
    expect(error).toBeInstanceOf(ToolFailure);
    expect(error!.message).toContain('"total" does not occur on line 7');
    expect(error!.message).toContain("Identifiers on that line: const, totalSum, sum");
  });

  test("an ambiguous symbol lists its occurrences and how to pick one", () => {
    expect(() => resolveSymbolColumn("x = x + 1", "x", 3)).toThrow(/occurs 2 times on line 3: x#1 .*, x#2 .*Pass symbol as one of those/);
  });

  test("the occurrences' context never cuts an emoji in half", () => {
    // f#2 is at UTF-16 offset 21, so its context would start at 9: inside the fifth emoji.
    let message = "";
    try {
      resolveSymbolColumn("🎉🎉🎉🎉🎉🎉🎉 f(a)  f(b)", "f", 1);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("f#2 (…🎉🎉🎉 f(a)  f(b))");
    expect(message).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });

  test("an occurrence number past the last one is refused", () => {
    expect(() => resolveSymbolColumn("x = x + 1", "x#3", 3)).toThrow(/occurs 2 time\(s\) on line 3; #3 does not exist/);
  });
});

describe("compareDiagnostics tells new from fixed from already there, ignoring position", () => {
  const error = (line: number, message = "Cannot find name 'nope'.") => ({ path: "a.ts", line, severity: "error", code: "2304", message });

  test.each([
    ["introduced", [], [error(3)], { new: [error(3)], fixed: [], already: [] }],
    ["unchanged", [error(3)], [error(3)], { new: [], fixed: [], already: [error(3)] }],
    ["moved four lines down: the same one", [error(3)], [error(7)], { new: [], fixed: [], already: [error(7)] }],
    ["a second identical one is new", [error(7)], [error(7), error(9)], { new: [error(9)], fixed: [], already: [error(7)] }],
    ["fixed", [error(7)], [], { new: [], fixed: [error(7)], already: [] }],
    ["another message is another diagnostic", [error(1)], [error(1, "Cannot find name 'other'.")], { new: [error(1, "Cannot find name 'other'.")], fixed: [error(1)], already: [] }],
  ] as const)("%s", (_name, before, after, expected) => {
    expect(compareDiagnostics(before, after)).toEqual(expected as never);
  });
});

describe("applyTextEdits applies LSP edits in UTF-16 positions", () => {
  test.each([
    ["one edit", "let a = 1;\nuse(a);\n", [{ range: { start: { line: 1, character: 4 }, end: { line: 1, character: 5 } }, newText: "b" }], "let a = 1;\nuse(b);\n"],
    [
      "several on one line, given in any order",
      "f(a, a)",
      [
        { range: { start: { line: 0, character: 2 }, end: { line: 0, character: 3 } }, newText: "bb" },
        { range: { start: { line: 0, character: 5 }, end: { line: 0, character: 6 } }, newText: "bb" },
      ],
      "f(bb, bb)",
    ],
    ["after an emoji", "😀 x\r\nx", [{ range: { start: { line: 0, character: 3 }, end: { line: 0, character: 4 } }, newText: "y" }], "😀 y\r\nx"],
  ])("%s", (_name, text, edits, expected) => {
    expect(applyTextEdits(text, edits)).toBe(expected);
  });
});

describe("planWorkspaceEdit turns text edits and file operations into whole files", () => {
  test("edits, a rename carrying its content, a create and a delete", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.ts": "old name\n", "b.ts": "b\n", "gone.ts": "x\n" });
    const uri = (rel: string) => `file://${join(dir.path, rel)}`;
    const plan = planWorkspaceEdit(dir.path, {
      documentChanges: [
        { textDocument: { uri: uri("a.ts"), version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } }, newText: "new" }] },
        { kind: "rename", oldUri: uri("a.ts"), newUri: uri("lib/a2.ts") },
        { kind: "create", uri: uri("fresh.ts") },
        { kind: "delete", uri: uri("gone.ts") },
      ],
    });
    expect(Object.fromEntries(plan.writes)).toEqual({ [join(dir.path, "lib/a2.ts")]: "new name\n", [join(dir.path, "fresh.ts")]: "" });
    expect(plan.removals.sort()).toEqual([join(dir.path, "a.ts"), join(dir.path, "gone.ts")]);
    expect(plan.renames).toEqual([{ from: join(dir.path, "a.ts"), to: join(dir.path, "lib/a2.ts") }]);
  });

  test("an edit reaching outside the workspace plans nothing", async () => {
    await using dir = await tempDir();
    expect(() => planWorkspaceEdit(dir.path, { changes: { "file:///etc/hosts": [] } })).toThrow(/outside the workspace/);
  });
});
