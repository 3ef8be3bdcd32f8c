// docs/run-config.schema.json is the valibot schema's JSON Schema, kept in sync, and a real validator
// (ajv, draft-07 as editors use it) agrees with the sidecar on what a run config is.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import Ajv from "ajv";
import { SCHEMA_FILE } from "../../build/run-config-schema.ts";
import { parseConfig } from "../../src/config/load.ts";
import { runConfigJsonSchemaText } from "../../src/config/json-schema.ts";

const schema = JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as object;
const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);

function fullExample(): unknown {
  const text = readFileSync(`${import.meta.dir}/../../docs/config.md`, "utf8");
  return JSON.parse(/## Full example\s+```json\n([\s\S]*?)```/.exec(text)![1]!);
}

describe("the run config's JSON Schema", () => {
  test("docs/run-config.schema.json is what the valibot schema generates (regenerate: bun build/run-config-schema.ts)", () => {
    expect(readFileSync(SCHEMA_FILE, "utf8")).toBe(runConfigJsonSchemaText());
  });

  test.each([
    ["the docs' full example", fullExample()],
    ["listen only", { listen: "127.0.0.1:7777" }],
    ["a $schema reference", { $schema: "./docs/run-config.schema.json", resources: { kernels: false } }],
    ["every default resource off", { resources: { parser: false, languageServers: false, debugAdapters: false, kernels: false, questions: false } }],
  ])("%s: valid for the sidecar and for the JSON Schema", (_name, config) => {
    expect(() => parseConfig(config)).not.toThrow();
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
  });

  test.each([
    ["an unknown top-level key", { workdri: "." }],
    ["an unknown resource setting", { resources: { parser: { maxFileBytez: 1 } } }],
    ["true for a resource", { resources: { kernels: true } }],
    ["a short token", { surfaces: { plan: { tiers: ["read"], token: "short" } } }],
    ["an unknown tier", { surfaces: { plan: { tiers: ["admin"] } } }],
    ["a listen address without a port", { listen: "localhost:" }],
  ])("%s: refused by both", (_name, config) => {
    expect(() => parseConfig(config)).toThrow();
    expect(validate(config)).toBe(false);
  });

  test("every top-level key and every resource carries a description for editors", () => {
    const top = (schema as { properties: Record<string, { description?: string; properties?: Record<string, { description?: string }> }> }).properties;
    expect(Object.entries(top).filter(([, p]) => !p.description).map(([k]) => k)).toEqual([]);
    expect(Object.entries(top.resources!.properties!).filter(([, p]) => !p.description).map(([k]) => k)).toEqual([]);
  });
});
