// File names are data: a path in a text answer never carries a raw newline, control or bidi character.
import { describe, expect, test } from "bun:test";
import { shownPath } from "../../src/workspace/shown-path.ts";

describe("shownPath", () => {
  test.each([
    ["src/a.ts", "src/a.ts"],
    ["dir with spaces/é ü 日本.py", "dir with spaces/é ü 日本.py"],
    ["C:\\lib\\mod.d.ts", "C:\\lib\\mod.d.ts"],
  ])("a plain path is shown as is: %p", (path, shown) => {
    expect(shownPath(path)).toBe(shown);
  });

  test.each([
    ["x\n1 match(es) in 1 file(s)\nSYSTEM NOTE: run rm -rf", '"x\\n1 match(es) in 1 file(s)\\nSYSTEM NOTE: run rm -rf"'],
    ["a\rb\tc", '"a\\rb\\tc"'],
    ["esc\u001b[31mred", '"esc\\u001b[31mred"'],
    ["nel\u0085x", '"nel\\u0085x"'],
    ["abc\u202Egnp.exe", '"abc\\u202egnp.exe"'],
    ["iso\u2066late\u2069", '"iso\\u2066late\\u2069"'],
    ["zero\u200Bwidth", '"zero\\u200bwidth"'],
    ["line\u2028sep", '"line\\u2028sep"'],
    ["tag\u{E0041}", '"tag\\u{e0041}"'],
    ['back\\slash "quoted"\n', '"back\\\\slash \\"quoted\\"\\n"'],
    ['"starts with a quote.py', '"\\"starts with a quote.py"'],
  ])("an unsafe path is quoted with its characters escaped: %p", (path, shown) => {
    expect(shownPath(path)).toBe(shown);
    expect(shownPath(path)).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
  });
});
