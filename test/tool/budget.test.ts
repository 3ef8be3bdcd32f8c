// Output budgets say what they cut.
import { describe, expect, test } from "bun:test";
import { capList, capText, capValue } from "../../src/tool/budget.ts";

describe("capList", () => {
  test("says N of M shown when it cuts, nothing when it does not", () => {
    expect(capList([1, 2, 3, 4], 2)).toEqual({ items: [1, 2], shown: 2, total: 4, note: "2 of 4 shown" });
    expect(capList([1, 2], 5)).toEqual({ items: [1, 2], shown: 2, total: 2, note: "" });
  });
});

describe("capText", () => {
  test("keeps head and tail and names the bytes cut", () => {
    const text = `${"a".repeat(1000)}MIDDLE${"z".repeat(1000)}`;
    const capped = capText(text, 200);
    expect(capped.text.startsWith("a".repeat(100))).toBe(true);
    expect(capped.text.endsWith("z".repeat(100))).toBe(true);
    expect(capped.text).not.toContain("MIDDLE");
    expect(capped.cutBytes).toBe(1806);
    expect(capped.text).toContain("… 1806 bytes cut …");
  });

  test("never splits a multi-byte character into garbage", () => {
    const capped = capText("é".repeat(500), 101);
    expect(capped.text).not.toContain("\uFFFD");
  });

  test("text within the budget is untouched", () => {
    expect(capText("short", 100)).toEqual({ text: "short", cutBytes: 0 });
  });
});

test("capValue marks the cut", () => {
  expect(capValue("abcdef", 3)).toBe("abc… (3 more characters)");
  expect(capValue("abc", 3)).toBe("abc");
});
