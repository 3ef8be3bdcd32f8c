// The debug tool's input is one object per operation and its answer a schema per operation: what
// tools/list shows a client (one object at the top, as clients require), how a wrong call is
// worded, and every answer of a real debugpy session checked against the listed output schema by
// the official SDK client (it validates structuredContent once it has listed the tools).
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, requireDebugpy } from "./harness.ts";

async function debugRun(dir: string) {
  const t = await startTestRun(dir, { conversation: "c1", resources: { parser: {}, debugAdapters: {} } });
  const client = await t.client();
  const { tools } = await client.listTools();
  const call = async (args: Record<string, unknown>) => {
    const result = await client.callTool({ name: "debug", arguments: args }, undefined, { timeout: 180_000 });
    return { text: (result.content as { text: string }[])[0]!.text, data: result.structuredContent as Record<string, any>, isError: result.isError === true };
  };
  return { t, tool: tools.find((tool) => tool.name === "debug")!, call };
}

describe("the debug tool's listed input", () => {
  test("is one object with operation as an enum, every argument described once, and what each operation takes", async () => {
    await using dir = await tempDir();
    const { t, tool } = await debugRun(dir.path);
    await using _ = t;
    const schema = tool.inputSchema as Record<string, any>;
    expect(schema.type).toBe("object");
    for (const key of ["oneOf", "anyOf", "allOf"]) expect(schema[key]).toBeUndefined();
    expect(schema.required).toEqual(["operation"]);
    expect(schema.properties.operation.enum).toContain("set_variable");
    expect(schema.properties.operation.enum).toHaveLength(22);
    expect(schema.properties.program.description).toContain("With launch (needed)");
    expect(schema.description).toContain("launch: program, args?, env?, child_processes?, stdin?, stdin_file?, adapter?");
    expect(schema.description).toContain("adapters: nothing more");
    expect(schema.description).toContain("set_variable: name, value, reference?, frame_id?, pid?");
  });

  test.each([
    [{ operation: "launch" }, ["Invalid arguments for debug launch:", "- program: missing; launch needs program", 'Expected arguments: {operation: "launch", program: string, args?: string[]']],
    [{ operation: "breakpoints", file: "a.py" }, ["- lines: missing; breakpoints needs lines"]],
    [{ operation: "continue", file: "a.py" }, ["- file: unknown argument `file`; continue takes `thread_id`, `pid`", 'Expected arguments: {operation: "continue", thread_id?: integer, pid?: integer}']],
    [{ operation: "launch", program: "a.py", stdin: "x", stdin_file: "in.txt" }, ["pass stdin (the text) or stdin_file (a workspace file), not both"]],
    [{ operation: "jump" }, ["- operation: expected operation as one of adapters, status,"]],
    [{ operation: "launch", program: "a.py", env: { "A=B": "x" } }, ["each name non-empty, not starting with a digit, without = or NUL"]],
    [{ operation: "launch", program: "a.py", env: { A: 1 } }, ["expected each env value as a string"]],
    [{ operation: "launch", program: "a.py", env: ["A=1"] }, ["expected env as {\"NAME\": \"value\"}"]],
  ])("%j is refused in words that say what the operation needs", async (args, words) => {
    await using dir = await tempDir();
    const { t, call } = await debugRun(dir.path);
    await using _ = t;
    const reply = await call(args);
    expect(reply.isError).toBe(true);
    expect(reply.data.error.code).toBe("invalid_arguments");
    for (const word of words) expect(reply.text).toContain(word);
  });
});

describe("the debug tool's answers", () => {
  test("each operation of a debugpy session answers in its listed output schema", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    writeFileSync(join(dir.path, "app.py"), "def f(n):\n    total = n * 2\n    return total\n\nprint(f(21))\n");
    const { t, call } = await debugRun(dir.path);
    await using _ = t;
    const ok = async (args: Record<string, unknown>) => {
      const reply = await call(args); // the SDK client throws when structuredContent breaks the output schema
      if (reply.isError) throw new Error(`${JSON.stringify(args)}: ${reply.text}`);
      expect(reply.data.operation).toBe(args.operation);
      return reply.data;
    };
    expect((await ok({ operation: "adapters" })).adapters.length).toBeGreaterThan(0);
    expect((await ok({ operation: "status" })).state).toBe("none");
    expect((await ok({ operation: "breakpoints", file: "app.py", lines: [2] })).pending).toBe(true);
    await ok({ operation: "function_breakpoints", functions: [] });
    await ok({ operation: "exceptions", filters: [] });
    const launched = await ok({ operation: "launch", program: "app.py" });
    expect(launched).toMatchObject({ state: "stopped", frame: { line: 2 } });
    expect(Object.values(launched.breakpoints).flat()).toHaveLength(1);
    await ok({ operation: "threads" });
    const { frames } = await ok({ operation: "stack" });
    const [scope] = (await ok({ operation: "scopes", frame_id: frames[0].id })).scopes;
    expect((await ok({ operation: "variables", reference: scope.reference })).variables.map((x: { name: string }) => x.name)).toContain("n");
    expect((await ok({ operation: "evaluate", expression: "n + 1" })).result).toBe("22");
    expect((await ok({ operation: "set_variable", name: "n", value: "5" })).took).toBe(true);
    expect((await ok({ operation: "step_over" })).frame.line).toBe(3);
    expect((await ok({ operation: "status" })).state).toBe("stopped");
    const ended = await ok({ operation: "continue" });
    expect(ended.state).toBe("exited");
    expect((await ok({ operation: "output", offset: 0 })).output).toContain("10");
    await ok({ operation: "terminate" });
  }, ADAPTER_TEST_TIMEOUT_MS);
});
