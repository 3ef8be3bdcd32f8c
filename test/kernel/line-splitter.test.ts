// The kernel protocol's line splitter: lines across chunks, and a line past the bound dropped whole.
import { describe, expect, test } from "bun:test";
import { LineSplitter, MAX_PROTOCOL_LINE_CHARS } from "../../src/kernel/protocol.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("LineSplitter", () => {
  test.each([
    { chunks: ["a\nb\n"], lines: ["a", "b"] },
    { chunks: ["a", "b", "c\nd"], lines: ["abc"] },
    { chunks: ["a", "b\nc", "d\ne\n"], lines: ["ab", "cd", "e"] },
    { chunks: ["\n\n  \nx\n"], lines: ["x"] },
    { chunks: ["é".repeat(3).slice(0, 2), "é\n"], lines: ["ééé"] },
  ])("$chunks → $lines", ({ chunks, lines }) => {
    const splitter = new LineSplitter();
    expect(chunks.flatMap((c) => splitter.push(bytes(c)))).toEqual([...lines]);
  });

  test("a line longer than the bound is dropped and reported; the lines after it still arrive", () => {
    const dropped: number[] = [];
    const splitter = new LineSplitter((chars) => dropped.push(chars));
    const piece = "x".repeat(8 * 1024 * 1024);
    const out = splitter.push(bytes("before\n"));
    for (let sent = 0; sent <= MAX_PROTOCOL_LINE_CHARS; sent += piece.length) out.push(...splitter.push(bytes(piece)));
    out.push(...splitter.push(bytes("tail\nafter\n")));
    expect(out).toEqual(["before", "after"]);
    expect(dropped).toEqual([MAX_PROTOCOL_LINE_CHARS + piece.length + 4]);
    // 72 MiB through the splitter: 4 s alone on a loaded 2-core machine, past bun's 5 s default.
  }, 60_000);
});
