// Every argument of every tool is described in its input schema, so a client that shows a tool's
// arguments (or a model that reads only the schema) learns what each one is for without the prose;
// and a bound the tool enforces is in the schema, not only in its refusal.
import { describe, expect, test } from "bun:test";
import { withEmbeddedDefaults } from "../../src/config/defaults.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { vibeConfig } from "../workers/helpers.ts";

/** The tools a run with every resource serves; the check covers whatever else it lists too. */
const EVERY_TOOL = ["lsp", "lsp_rename", "ast_grep", "ast_edit", "resolve", "symbol_edit", "code_action", "debug", "eval", "ask_user", "vibe_spawn", "vibe_send", "vibe_wait", "vibe_kill", "vibe_list"];

/** Each property of a JSON Schema, at any depth (object properties, array items, branches), by its path. */
function properties(schema: Record<string, unknown>, path = ""): [string, Record<string, unknown>][] {
  const found: [string, Record<string, unknown>][] = [];
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>)) {
    found.push([`${path}${name}`, property], ...properties(property, `${path}${name}.`));
  }
  const items = schema.items as Record<string, unknown> | undefined;
  if (items && typeof items === "object") found.push(...properties(items, `${path.replace(/\.$/, "")}[].`));
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    for (const branch of (schema[key] ?? []) as Record<string, unknown>[]) found.push(...properties(branch, path));
  }
  return found;
}

describe("input schemas", () => {
  test("every argument of every tool has a description of its own", async () => {
    await using dir = await tempDir();
    await using run = await startTestRun(dir.path, withEmbeddedDefaults(vibeConfig({}, { mode: "on" })));
    const { tools } = await (await run.client()).listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(EVERY_TOOL));
    const undescribed: string[] = [];
    const described: Record<string, string> = {};
    for (const tool of tools) {
      for (const [path, property] of properties(tool.inputSchema)) {
        const text = typeof property.description === "string" ? property.description.trim() : "";
        if (text.length < 12) undescribed.push(`${tool.name} ${path}`);
        else described[`${tool.name} ${path}`] = text;
      }
    }
    expect(undescribed).toEqual([]);
    // Said for the argument, not the tool's prose pasted again: each is shorter than a paragraph.
    const long = Object.entries(described).filter(([, text]) => text.length > 400).map(([path]) => path);
    expect(long).toEqual([]);
  });

  test("eval's description takes 3 to 15 words, and its schema says so as a pattern", async () => {
    await using dir = await tempDir();
    await using run = await startTestRun(dir.path, withEmbeddedDefaults({}));
    const client = await run.client();
    const { tools } = await client.listTools();
    const description = (tools.find((tool) => tool.name === "eval")!.inputSchema.properties as Record<string, { pattern?: string }>).description!;
    expect(typeof description.pattern).toBe("string");
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
    const pattern = new RegExp(description.pattern!);
    expect([2, 3, 15, 16].map((n) => pattern.test(words(n)))).toEqual([false, true, true, false]);
    expect(pattern.test(`  ${words(5).replaceAll(" ", " \n\t")}  `)).toBe(true);
    // The tool refuses what the pattern refuses (before any kernel starts).
    for (const n of [2, 16]) {
      const refused = await client.callTool({ name: "eval", arguments: { code: "1", description: words(n) } });
      expect(refused.isError).toBe(true);
      expect((refused.content as { text: string }[])[0]!.text).toContain("description: expected 5-10 words");
    }
  });
});
