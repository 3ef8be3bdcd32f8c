// The wrapper every call goes through: whatever a tool returns, the answer's text stays bounded.
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { defineTool } from "../../src/tool/define.ts";
import { invokeTool, MAX_ANSWER_TEXT_BYTES } from "../../src/tool/invoke.ts";
import { ToolFailure } from "../../src/answer/failure.ts";

const ctx = { signal: new AbortController().signal, progress() {}, describeWork() {}, surface: "default", tiers: ["read"] as const };

/** A tool that forgot its own bound: it returns (or fails with) as much text as it is asked for. */
const unbounded = defineTool({
  name: "test_unbounded",
  tier: "read",
  description: "Returns `bytes` of text (test tool).",
  input: v.strictObject({ bytes: v.number(), fail: v.optional(v.boolean()) }),
  output: v.object({ bytes: v.number() }),
  async run({ bytes, fail }) {
    const text = `first line\n${"x".repeat(bytes)}\nlast line`;
    if (fail) throw new ToolFailure(text);
    return { text, data: { bytes } };
  },
});

function textOf(result: Awaited<ReturnType<typeof invokeTool>>): string {
  return (result.content[0] as { text: string }).text;
}

describe("the answer cap", () => {
  test.each([false, true])("a 1 MB answer (failure: %p) is cut in the middle to the cap, keeping its ends and saying so", async (fail) => {
    const result = await invokeTool(unbounded, { bytes: 1_000_000, fail }, ctx);
    const text = textOf(result);
    expect(Buffer.byteLength(text)).toBeLessThan(MAX_ANSWER_TEXT_BYTES + 500);
    expect(text).toStartWith("first line\n");
    expect(text).toContain("last line");
    expect(text).toContain(`over the ${MAX_ANSWER_TEXT_BYTES} every answer is held to`);
    if (!fail) expect(result.structuredContent).toEqual({ bytes: 1_000_000 });
  });

  test("an answer within the cap is untouched", async () => {
    const result = await invokeTool(unbounded, { bytes: 1_000 }, ctx);
    expect(textOf(result)).toBe(`first line\n${"x".repeat(1_000)}\nlast line`);
  });
});
