// JSON Schemas for tools/list, generated from each tool's valibot schemas.
import { toJsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";

export type JsonSchemaObject = { type: "object"; properties?: Record<string, object>; required?: string[] } & Record<
  string,
  unknown
>;

const cache = new WeakMap<object, JsonSchemaObject>();

/** The schema clients see: the input side of the valibot schema, without $schema noise. */
export function jsonSchemaOf(schema: v.GenericSchema): JsonSchemaObject {
  const hit = cache.get(schema);
  if (hit) return hit;
  const { $schema: _drop, ...rest } = toJsonSchema(schema, { errorMode: "ignore", typeMode: "input" }) as Record<
    string,
    unknown
  >;
  const result = { type: "object", ...rest } as JsonSchemaObject;
  cache.set(schema, result);
  return result;
}

/**
 * One object per value of a key (a valibot `variant`, JSON Schema `oneOf` of objects each with a
 * `const` for that key): the key, and each branch by its value.
 */
interface Variant {
  key: string;
  branches: Map<string, JsonSchemaObject>;
}

function variantOf(json: Record<string, unknown>): Variant | undefined {
  const options = (json.oneOf ?? json.anyOf) as Record<string, unknown>[] | undefined;
  if (!Array.isArray(options) || options.length === 0 || !options.every((o) => o.type === "object" && o.properties)) return undefined;
  const first = options[0]!.properties as Record<string, Record<string, unknown>>;
  const key = Object.keys(first).find((name) => options.every((o) => typeof (o.properties as Record<string, Record<string, unknown>>)[name]?.const === "string"));
  if (key === undefined) return undefined;
  return { key, branches: new Map(options.map((o) => [(o.properties as Record<string, { const: string }>)[key]!.const, o as JsonSchemaObject])) };
}

/**
 * The input schema as tools/list shows it. Many clients take only an object at the top (Claude's
 * API refuses a top-level oneOf), so a variant is listed as one object: the key as an enum, every
 * argument any branch takes (each has one schema, whatever the branch), and what each value takes
 * in the description. The variant itself still validates every call (tool/invoke.ts).
 */
export function inputJsonSchemaOf(schema: v.GenericSchema): JsonSchemaObject {
  const json = jsonSchemaOf(schema);
  const variant = variantOf(json);
  if (!variant) return json;
  const properties: Record<string, object> = {};
  const takes: string[] = [];
  for (const [value, branch] of variant.branches) {
    const required = new Set(branch.required ?? []);
    const names = Object.keys(branch.properties ?? {}).filter((name) => name !== variant.key);
    for (const name of names) properties[name] ??= branch.properties![name]!;
    takes.push(`${value}: ${names.map((name) => `${name}${required.has(name) ? "" : "?"}`).join(", ") || "nothing more"}`);
  }
  const { oneOf: _one, anyOf: _any, ...rest } = json;
  const keySchema = [...variant.branches.values()][0]!.properties![variant.key] as Record<string, unknown>;
  const { const: _value, ...keyWords } = keySchema;
  return {
    ...rest,
    type: "object",
    description: `What each ${variant.key} takes (? marks an optional argument): ${takes.join("; ")}.`,
    properties: { [variant.key]: { ...keyWords, type: "string", enum: [...variant.branches.keys()] }, ...properties },
    required: [variant.key],
    additionalProperties: false,
  };
}

/** The branch of a variant schema that `args` chose by its key, if the schema is one and the key names a branch. */
export function chosenBranch(schema: v.GenericSchema, args: unknown): { key: string; value: string; branch: JsonSchemaObject } | undefined {
  const variant = variantOf(jsonSchemaOf(schema));
  const value = variant && args && typeof args === "object" ? (args as Record<string, unknown>)[variant.key] : undefined;
  const branch = typeof value === "string" ? variant?.branches.get(value) : undefined;
  return branch && variant ? { key: variant.key, value: value as string, branch } : undefined;
}

/**
 * A one-line picture of a correct call, e.g. `{pattern: string, path?: string}`, for error
 * messages; of a variant, the branch `args` chose (or the listed object when it chose none).
 */
export function describeArguments(schema: v.GenericSchema, args?: unknown): string {
  const json = chosenBranch(schema, args)?.branch ?? inputJsonSchemaOf(schema);
  const required = new Set(json.required ?? []);
  const fields = Object.entries(json.properties ?? {}).map(([key, prop]) => {
    return `${key}${required.has(key) ? "" : "?"}: ${typeName(prop as Record<string, unknown>)}`;
  });
  return `{${fields.join(", ")}}`;
}

function typeName(prop: Record<string, unknown>): string {
  if (Array.isArray(prop.enum)) return prop.enum.map((e) => JSON.stringify(e)).join(" | ");
  if (prop.const !== undefined) return JSON.stringify(prop.const);
  if (Array.isArray(prop.anyOf)) return prop.anyOf.map((p) => typeName(p as Record<string, unknown>)).join(" | ");
  if (prop.type === "array") return `${typeName((prop.items ?? {}) as Record<string, unknown>)}[]`;
  return typeof prop.type === "string" ? prop.type : "value";
}

/**
 * The keys the object at `path` (keys from the root; array indexes too) takes: what an unknown-key
 * problem can offer instead. A union's object branches all count, since any of them may be meant.
 */
export function keysAt(schema: object, path: readonly string[]): string[] {
  const keys = new Set<string>();
  const visit = (node: Record<string, unknown>, rest: readonly string[]) => {
    for (const branch of (node.anyOf ?? node.oneOf ?? []) as Record<string, unknown>[]) visit(branch, rest);
    if (rest.length === 0) {
      for (const key of Object.keys((node.properties ?? {}) as object)) keys.add(key);
      return;
    }
    const [head, ...tail] = rest;
    const child = /^\d+$/.test(head!) ? node.items : (node.properties as Record<string, unknown> | undefined)?.[head!];
    if (child && typeof child === "object") visit(child as Record<string, unknown>, tail);
  };
  visit(schema as Record<string, unknown>, path);
  return [...keys];
}
