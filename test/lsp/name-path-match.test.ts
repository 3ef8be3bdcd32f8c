// Name-path matching on outlines as the servers give them: segments, anchoring, duplicates, and the
// method names gopls and clangd give (no server needed: the outline is the input).
import { describe, expect, test } from "bun:test";
import type { DocumentSymbol, SymbolKind } from "vscode-languageserver-protocol";
import { ToolFailure } from "../../src/answer/failure.ts";
import { definitionsOf, nameSegments, pickDefinition, shownNamePath } from "../../src/lsp/name-path.ts";

const at = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 5 } });
const symbol = (name: string, kind: SymbolKind, line: number, children: DocumentSymbol[] = []): DocumentSymbol => ({ name, kind, range: at(line), selectionRange: at(line), children });

const outline = definitionsOf([
  symbol("Parser", 5, 0, [symbol("parse", 6, 1), symbol("run", 6, 4)]),
  symbol("parse", 12, 8),
  symbol("(*Lexer).Next", 6, 10),
  symbol("Table::lookup", 6, 12),
  symbol("outer", 12, 14, [symbol("inner", 12, 15)]),
]);

describe("name segments", () => {
  test.each([
    ["(*Parser).Parse", ["Parser", "Parse"]],
    ["(Parser).Parse", ["Parser", "Parse"]],
    ["Parser::parse", ["Parser", "parse"]],
    ["ns::Parser::parse", ["ns", "Parser", "parse"]],
    ["parse", ["parse"]],
  ])("%s", (name, segments) => expect(nameSegments(name)).toEqual(segments));
});

describe("picking a definition", () => {
  test.each([
    ["Parser/run", 4],
    ["outer/inner", 15],
    ["Lexer/Next", 10],
    ["Table/lookup", 12],
    ["/parse", 8],
    ["parse#1", 1],
    ["parse#2", 8],
  ])("%s is on line %d", (path, line) => expect(pickDefinition(outline, path, "a.go").selectionRange.start.line).toBe(line));

  test("a bare name with two matches is ambiguous_symbol", () => {
    const failure = (() => {
      try {
        pickDefinition(outline, "parse", "a.go");
      } catch (error) {
        return error as ToolFailure;
      }
    })();
    expect(failure?.code).toBe("ambiguous_symbol");
    expect(failure?.message).toContain("Parser/parse (method, line 2), parse (function, line 9)");
  });

  test("no match is symbol_not_found, nearest first", () => {
    expect(() => pickDefinition(outline, "Parser/pars", "a.go")).toThrow(/Nearest names in a\.go: Parser\/parse \(line 2\), parse \(line 9\)/);
    expect(() => pickDefinition(outline, "parse#3", "a.go")).toThrow(/#3 does not exist/);
  });

  test("paths are shown as segments joined by /", () => {
    expect(shownNamePath(pickDefinition(outline, "Next", "a.go"))).toBe("Lexer/Next");
  });
});
