// A JS error's position in the compiled cell is placed in the cell as written, or not at all.
import { describe, expect, test } from "bun:test";
import { cellPosition } from "../../src/kernel/cell-positions.ts";

/** What Bun's REPL-mode transpiler makes of a cell, as the kernel runs it. */
function compiled(cell: string): string[] {
  return new Bun.Transpiler({ loader: "ts", replMode: true }).transformSync(cell).split("\n");
}

describe("cellPosition", () => {
  test("a compiled line maps to the cell's line it came from, and the column to the same token", () => {
    const cell = "const a: number = 1;\n\n// note\nconst o: any = null;\nconsole.log(a);\no.foo;";
    const program = compiled(cell);
    const at = program.findIndex((line) => line.includes("o.foo"));
    const column = program[at]!.indexOf("foo") + 1;
    expect(cellPosition(cell.split("\n"), program, at + 1, column)).toEqual({ line: 6, column: 3, code: "o.foo;" });
  });

  test("of several lines holding the tokens, the one they fill; quotes rewritten by the transpiler still match", () => {
    const cell = "function inner() { throw new RangeError('too far') }\ninner()";
    const program = compiled(cell);
    const call = program.findIndex((line) => line.trim() === "value: inner()");
    expect(cellPosition(cell.split("\n"), program, call + 1, program[call]!.indexOf("inner") + 1)?.line).toBe(2);
    const thrown = program.findIndex((line) => line.includes("throw"));
    expect(cellPosition(cell.split("\n"), program, thrown + 1, program[thrown]!.indexOf("RangeError") + 1)).toEqual({ line: 1, column: 30, code: "function inner() { throw new RangeError('too far') }" });
  });

  test("a line found nowhere, or in two lines alike, has no position rather than a guess", () => {
    const cell = "let x = f();\nlet y = 2;\nx = f();\nx = f();";
    const program = compiled(cell);
    const twice = program.findIndex((line) => line.trim() === "x = f();");
    expect(cellPosition(cell.split("\n"), program, twice + 1, 5)).toBeUndefined();
    expect(cellPosition(cell.split("\n"), ["(() => {"], 1, 1)).toBeUndefined();
    expect(cellPosition(cell.split("\n"), program, program.length + 5, 1)).toBeUndefined();
  });
});
