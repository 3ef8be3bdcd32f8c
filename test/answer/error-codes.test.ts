// Every error result carries a stable code in structuredContent, in a shape each tool's outputSchema
// declares, and the official SDK client accepts it (it validates structuredContent on errors too).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { ERROR_CODES } from "../../src/answer/error-codes.ts";
import { ToolFailure } from "../../src/answer/failure.ts";
import { embeddedDefaults } from "../../src/config/defaults.ts";
import { defineTool } from "../../src/tool/define.ts";
import { invokeTool } from "../../src/tool/invoke.ts";
import { PROBE_TOOLS } from "../helpers/probe-tools.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/** Fails in each way a tool can: a coded failure with details, an uncoded one, a bug, an error reply with data. */
const failing = defineTool({
  name: "test_failing",
  tier: "read",
  description: "Fails as asked (test tool).",
  input: v.strictObject({ how: v.picklist(["coded", "uncoded", "bug", "reply"]) }),
  output: v.object({ done: v.boolean() }),
  async run({ how }) {
    if (how === "coded") throw new ToolFailure("There is no worker w9 in this run.", { code: "unknown_worker", known: ["w1"] });
    if (how === "uncoded") throw new ToolFailure("Something went wrong in words.");
    if (how === "bug") throw new TypeError("x is undefined");
    return { text: "The cell raised ValueError.", data: { done: false }, isError: true, errorCode: "cell_error" };
  },
});

interface ErrorContent {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

describe("error results through the SDK client", () => {
  test("each kind of failure carries its code, message and details, and the client validates it against the listed schema", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: [...PROBE_TOOLS, failing] });
    const client = await t.client();
    const listed = (await client.listTools()).tools; // from here on the SDK checks structuredContent against outputSchema
    const schema = listed.find((tool) => tool.name === "test_failing")!.outputSchema as { type: string; anyOf: object[] };
    expect(schema.type).toBe("object");
    expect(schema.anyOf).toHaveLength(2);

    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBe(true);
      const text = (result.content as { text: string }[])[0]!.text;
      return { text, structured: result.structuredContent as unknown as ErrorContent & Record<string, unknown> };
    };

    const invalid = await call("test_echo", { text: 5, extra: true });
    expect(invalid.structured.error.code).toBe("invalid_arguments");
    expect(invalid.structured.error.message).toBe(invalid.text);
    expect(invalid.structured.error.details).toEqual({
      problems: [
        { path: "text", problem: expect.any(String) },
        { path: "extra", problem: "unknown argument `extra`; test_echo takes `text`, `times`" },
      ],
    });

    const coded = await call("test_failing", { how: "coded" });
    expect(coded.structured).toEqual({ error: { code: "unknown_worker", message: "There is no worker w9 in this run.", details: { known: ["w1"] } } });
    expect((await call("test_failing", { how: "uncoded" })).structured.error.code).toBe("failed");
    const bug = await call("test_failing", { how: "bug" });
    expect(bug.structured.error.code).toBe("internal_error");
    expect(bug.text).toContain("This is a sidecar bug");
    // An error reply keeps its own fields beside the error.
    expect((await call("test_failing", { how: "reply" })).structured).toEqual({ done: false, error: { code: "cell_error", message: "The cell raised ValueError." } });
  });

  test("ask_user's failed outcomes are error codes too, beside the outcome field", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, { resources: { questions: { space: "local" } } });
    const client = await t.client();
    await client.listTools();
    const result = await client.callTool({ name: "ask_user", arguments: { question: "Proceed?", allow_free_text: true } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ outcome: "no_human", error: { code: "no_human" } });
  });

  test("every tool of the embedded defaults lists the error shape beside its answer", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, embeddedDefaults());
    const tools = (await (await t.client()).listTools()).tools;
    expect(tools.length).toBeGreaterThan(5);
    for (const tool of tools) {
      const schema = tool.outputSchema as { type: string; anyOf: { required?: string[] }[] };
      expect(schema.type).toBe("object");
      expect(schema.anyOf[1]!.required).toEqual(["error"]);
    }
  });

  test("a call cancelled while it runs ends as cancelled", async () => {
    const controller = new AbortController();
    const slow = defineTool({
      name: "test_wait",
      tier: "read",
      description: "Waits to be cancelled (test tool).",
      input: v.strictObject({}),
      output: v.object({}),
      run: () => new Promise<never>((_, reject) => controller.signal.addEventListener("abort", () => reject(new Error("aborted")))),
    });
    const ctx = { signal: controller.signal, progress() {}, describeWork() {}, surface: "default", tiers: ["read"] as const };
    const result = invokeTool(slow, {}, ctx);
    controller.abort();
    expect((await result).structuredContent).toMatchObject({ error: { code: "cancelled" } });
  });
});

test("docs/harness.md lists every error code, and no code the sidecar does not have", () => {
  const doc = readFileSync(join(import.meta.dir, "..", "..", "docs", "harness.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Errors a program can read"));
  const end = section.search(/\n##+ (?!Errors a program)/); // up to the next heading: the route codes follow
  const listed = [...(end > 0 ? section.slice(0, end) : section).matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
  expect(listed.sort()).toEqual(Object.keys(ERROR_CODES).sort());
});
