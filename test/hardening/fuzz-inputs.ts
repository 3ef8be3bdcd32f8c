// Hostile inputs for the HTTP/MCP surface: random and mutated JSON-RPC, huge strings, deep nesting,
// invalid UTF-8, and tool arguments with a wrong type in every position. Deterministic from a seed.
import type { JsonSchemaObject } from "../../src/tool/json-schema.ts";

export type Rng = () => number;

/** mulberry32: small, fast, seedable. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

const METHODS = ["tools/list", "tools/call", "ping", "initialize", "resources/list", "prompts/get", "tools/explode", "", "notifications/cancelled", "notifications/progress", "completion/complete"];

/** A value of some JSON type, sometimes large or deep. */
export function randomValue(rng: Rng, depth = 0): unknown {
  const kind = Math.floor(rng() * (depth > 3 ? 6 : 9));
  switch (kind) {
    case 0: return null;
    case 1: return rng() < 0.5;
    case 2: return pick(rng, [0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1]);
    case 3: return pick(rng, ["", "x", "../../etc/passwd", "/etc/shadow", "\u0000", "$$$A", "💥".repeat(50), "a".repeat(100_000)]);
    case 4: return Math.floor(rng() * 1000);
    case 5: return String.fromCharCode(...Array.from({ length: 20 }, () => Math.floor(rng() * 0xffff)));
    case 6: return Array.from({ length: Math.floor(rng() * 4) }, () => randomValue(rng, depth + 1));
    case 7: return Object.fromEntries(Array.from({ length: Math.floor(rng() * 4) }, (_, i) => [pick(rng, ["a", "__proto__", "constructor", `k${i}`]), randomValue(rng, depth + 1)]));
    default: return { nested: randomValue(rng, depth + 1) };
  }
}

/** A value whose JSON type differs from what the schema property wants. */
export function wrongTypeFor(rng: Rng, property: Record<string, unknown>): unknown {
  const type = property.type;
  const candidates: unknown[] = [null, 42, true, "a string", ["list"], { an: "object" }, "x".repeat(200_000)];
  const wrong = candidates.filter((value) => {
    if (type === "string" || Array.isArray(property.enum)) return typeof value !== "string";
    if (type === "number" || type === "integer") return typeof value !== "number";
    if (type === "boolean") return typeof value !== "boolean";
    if (type === "array") return !Array.isArray(value);
    if (type === "object") return value === null || typeof value !== "object" || Array.isArray(value);
    return false;
  });
  return wrong.length ? pick(rng, wrong) : undefined;
}

/**
 * Arguments for a tool that must fail validation: one property of a wrong type (the rest random),
 * a missing required property, an unknown key, or not an object at all.
 */
export function invalidArguments(rng: Rng, schema: JsonSchemaObject): unknown {
  const properties = Object.entries(schema.properties ?? {}) as [string, Record<string, unknown>][];
  const typed = properties.filter(([, p]) => typeof p.type === "string" || Array.isArray(p.enum));
  const mode = Math.floor(rng() * 4);
  if (mode === 0 && typed.length) {
    const [key, prop] = pick(rng, typed);
    const args: Record<string, unknown> = {};
    for (const [k] of properties) if (rng() < 0.5) args[k] = randomValue(rng);
    args[key] = wrongTypeFor(rng, prop);
    return args;
  }
  if (mode === 1 && (schema.required ?? []).length) return {};
  if (mode === 2) return { __definitely_not_an_argument__: randomValue(rng) };
  return pick(rng, [[], "string", 5, [{}]]);
}

/** A raw request body: broken JSON, invalid UTF-8, deep nesting, huge strings, or odd JSON-RPC. */
export function hostileBody(rng: Rng): Uint8Array | string {
  switch (Math.floor(rng() * 8)) {
    case 0: return Uint8Array.from({ length: 1 + Math.floor(rng() * 200) }, () => Math.floor(rng() * 256));
    case 1: return Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","x":"'), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from('"}')]);
    case 2: { const depth = 1 + Math.floor(rng() * 20_000); return `${"[".repeat(depth)}${"]".repeat(depth)}`; }
    case 3: return JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x".repeat(1_000_000), arguments: {} } });
    case 4: return JSON.stringify({ jsonrpc: pick(rng, ["2.0", "1.0", 2, null]), id: randomValue(rng), method: pick(rng, METHODS), params: randomValue(rng) });
    case 5: return JSON.stringify(Array.from({ length: 1 + Math.floor(rng() * 5) }, () => ({ jsonrpc: "2.0", id: Math.floor(rng() * 100), method: pick(rng, METHODS), params: randomValue(rng) })));
    case 6: return JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: randomValue(rng) });
    default: return JSON.stringify(randomValue(rng)).slice(0, Math.floor(rng() * 200));
  }
}
