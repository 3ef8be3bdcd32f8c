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

/** A one-line picture of a correct call, e.g. `{pattern: string, path?: string}`, for error messages. */
export function describeArguments(schema: v.GenericSchema): string {
  const json = jsonSchemaOf(schema);
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
