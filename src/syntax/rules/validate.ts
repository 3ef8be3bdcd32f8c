// Reads an ast-grep rule config (YAML text, JSON text or an object) and checks its shape: every key
// known, every value of its type, each error naming the key's path and the keys valid there. Needs
// no grammar, so a malformed rule is refused before any worker or file is touched.
import { ToolFailure } from "../../answer/failure.ts";
import { RuleConfigError } from "./rule-error.ts";
import { ruleTextValue } from "./rule-text.ts";
import { CASE_NAMES, RULE_KEYS, SEPARATORS, type NthChildSpec, type PatternSpec, type RangeSpec, type RelationSpec, type RuleConfig, type RuleSpec, type TransformSpec } from "./spec.ts";

const STRICTNESS = ["cst", "smart", "ast", "relaxed", "signature"];
/** Keys of a rule file that describe it and change no match; accepted so a whole ast-grep rule file can be pasted. */
const DESCRIPTIVE_KEYS = ["id", "message", "severity", "note", "url", "metadata"];

type Json = unknown;
type Obj = Record<string, Json>;

/** readRuleConfig for a tool's argument: a malformed config is an invalid_pattern failure naming the key. */
export async function ruleConfigArgument(input: string | Obj, forEdit: boolean): Promise<RuleConfig> {
  try {
    return await readRuleConfig(input, forEdit);
  } catch (error) {
    if (error instanceof RuleConfigError) throw new ToolFailure(error.message, { code: "invalid_pattern" });
    throw error;
  }
}

/** The config, read and checked; `forEdit` admits `transform` and `fix` (ast_edit). */
export async function readRuleConfig(input: string | Obj, forEdit: boolean): Promise<RuleConfig> {
  const value = typeof input === "string" ? await ruleTextValue(input) : input;
  const top = [...["rule", "constraints", "utils", "language"], ...(forEdit ? ["transform", "fix"] : []), ...DESCRIPTIVE_KEYS];
  const config = object(value, "the rule config", top, forEdit ? undefined : { transform: "ast_grep only searches: pass transform to ast_edit", fix: "ast_grep only searches: pass fix (or rewrite) to ast_edit" });
  if (!("rule" in config)) throw new RuleConfigError(`The rule config has no \`rule\` key. Write the rule under it, as in ast-grep: {"rule": {"pattern": "foo($A)"}}.`);
  const out: RuleConfig = { rule: rule(config.rule, "rule") };
  if (config.constraints !== undefined) out.constraints = mapOf(config.constraints, "constraints", (v, p) => rule(v, p), metavariableName);
  if (config.utils !== undefined) out.utils = mapOf(config.utils, "utils", (v, p) => rule(v, p));
  if (config.transform !== undefined) out.transform = mapOf(config.transform, "transform", transform, metavariableName);
  if (config.language !== undefined) out.language = text(config.language, "language");
  if (config.fix !== undefined) out.fix = text(config.fix, "fix");
  return out;
}

function rule(value: Json, path: string, extra: readonly string[] = []): RuleSpec {
  const keys = [...RULE_KEYS, ...extra];
  const spec = object(value, `\`${path}\``, keys);
  const out: RuleSpec & RelationSpec = {};
  if (spec.pattern !== undefined) out.pattern = pattern(spec.pattern, `${path}.pattern`);
  if (spec.kind !== undefined) out.kind = text(spec.kind, `${path}.kind`);
  if (spec.regex !== undefined) out.regex = text(spec.regex, `${path}.regex`);
  if (spec.nthChild !== undefined) out.nthChild = nthChild(spec.nthChild, `${path}.nthChild`);
  if (spec.range !== undefined) out.range = range(spec.range, `${path}.range`);
  for (const key of ["inside", "has", "precedes", "follows"] as const) {
    if (spec[key] !== undefined) out[key] = relation(spec[key], `${path}.${key}`, key);
  }
  for (const key of ["all", "any"] as const) {
    if (spec[key] === undefined) continue;
    if (!Array.isArray(spec[key])) throw wrongType(`${path}.${key}`, "a list of rule objects", spec[key]);
    out[key] = spec[key].map((item, k) => rule(item, `${path}.${key}[${k}]`));
  }
  if (spec.not !== undefined) out.not = rule(spec.not, `${path}.not`);
  if (spec.matches !== undefined) out.matches = text(spec.matches, `${path}.matches`);
  if ("stopBy" in spec) out.stopBy = stopBy(spec.stopBy, `${path}.stopBy`);
  if ("field" in spec) out.field = text(spec.field, `${path}.field`);
  if (!RULE_KEYS.some((key) => key in out)) {
    throw new RuleConfigError(`\`${path}\` has no key that matches a node, so it can match nothing. Give it at least one of: ${RULE_KEYS.join(", ")}.`);
  }
  return out;
}

function relation(value: Json, path: string, key: string): RelationSpec {
  const spec = rule(value, path, key === "inside" || key === "has" ? ["stopBy", "field"] : ["stopBy"]);
  return spec as RelationSpec;
}

function stopBy(value: Json, path: string): RelationSpec["stopBy"] {
  if (value === "neighbor" || value === "end") return value;
  if (typeof value === "string") throw new RuleConfigError(`\`${path}\` is ${JSON.stringify(value)}; expected "neighbor", "end" or a rule object (the search stops at the first node it matches).`);
  return rule(value, path);
}

function pattern(value: Json, path: string): PatternSpec {
  if (typeof value === "string") return value;
  const spec = object(value, `\`${path}\``, ["context", "selector", "strictness"]);
  if (spec.context === undefined) throw new RuleConfigError(`\`${path}\` is an object without \`context\`: give the code as context, and optionally selector (the kind of the node to match in it) and strictness.`);
  const out: Exclude<PatternSpec, string> = { context: text(spec.context, `${path}.context`) };
  if (spec.selector !== undefined) out.selector = text(spec.selector, `${path}.selector`);
  if (spec.strictness !== undefined) {
    const strictness = text(spec.strictness, `${path}.strictness`);
    if (!STRICTNESS.includes(strictness)) {
      const why = strictness === "template" ? ' ("template" is not supported here)' : "";
      throw new RuleConfigError(`\`${path}.strictness\` is ${JSON.stringify(strictness)}${why}; expected one of: ${STRICTNESS.join(", ")}.`);
    }
    out.strictness = strictness as Exclude<PatternSpec, string>["strictness"];
  }
  return out;
}

function nthChild(value: Json, path: string): NthChildSpec {
  if (typeof value === "number" || typeof value === "string") return position(value, path);
  const spec = object(value, `\`${path}\``, ["position", "ofRule", "reverse"]);
  if (spec.position === undefined) throw new RuleConfigError(`\`${path}\` is an object without \`position\`: give position (a number or An+B), and optionally ofRule and reverse.`);
  const out: Exclude<NthChildSpec, number | string> = { position: position(spec.position, `${path}.position`) };
  if (spec.ofRule !== undefined) out.ofRule = rule(spec.ofRule, `${path}.ofRule`);
  if (spec.reverse !== undefined) {
    if (typeof spec.reverse !== "boolean") throw wrongType(`${path}.reverse`, "true or false", spec.reverse);
    out.reverse = spec.reverse;
  }
  return out;
}

function position(value: Json, path: string): number | string {
  if (typeof value === "number") {
    if (!Number.isInteger(value) || value < 1) throw new RuleConfigError(`\`${path}\` is ${value}; a position counts from 1 (the first named child).`);
    return value;
  }
  if (typeof value !== "string" || !/^\s*[+-]?\s*(\d+\s*)?(n\s*([+-]\s*\d+\s*)?)?$/i.test(value) || !/\d|n/i.test(value)) {
    throw wrongType(path, "a position: a number from 1, or An+B such as 2n+1", value);
  }
  return value;
}

function range(value: Json, path: string): RangeSpec {
  const spec = object(value, `\`${path}\``, ["start", "end"]);
  const point = (v: Json, p: string) => {
    const o = object(v, `\`${p}\``, ["line", "column"]);
    const whole = (n: Json, q: string) => {
      if (typeof n !== "number" || !Number.isInteger(n) || n < 0) throw wrongType(q, "a whole number from 0 (ast-grep counts lines and columns from 0)", n);
      return n;
    };
    return { line: whole(o.line, `${p}.line`), column: whole(o.column, `${p}.column`) };
  };
  if (spec.start === undefined || spec.end === undefined) throw new RuleConfigError(`\`${path}\` needs both start and end, each {line, column} counted from 0.`);
  return { start: point(spec.start, `${path}.start`), end: point(spec.end, `${path}.end`) };
}

function transform(value: Json, path: string): TransformSpec {
  if (typeof value === "string") throw new RuleConfigError(`\`${path}\` is a string; write the object form, such as {substring: {source: $A, startChar: 1}}, {replace: {source: $A, replace: "x", by: "y"}} or {convert: {source: $A, toCase: snakeCase}}.`);
  const spec = object(value, `\`${path}\``, ["substring", "replace", "convert"]);
  const kinds = Object.keys(spec);
  if (kinds.length !== 1) throw new RuleConfigError(`\`${path}\` must have exactly one of substring, replace, convert.`);
  const source = (o: Obj, p: string) => {
    const s = text(o.source, `${p}.source`);
    if (!/^\$\$?\$?[A-Z_][A-Z0-9_]*$/.test(s)) throw wrongType(`${p}.source`, "a metavariable such as $A", s);
    return s;
  };
  const count = (n: Json, q: string) => {
    if (n === undefined) return undefined;
    if (typeof n !== "number" || !Number.isInteger(n)) throw wrongType(q, "a whole number (negative counts from the end)", n);
    return n;
  };
  if (spec.substring !== undefined) {
    const o = object(spec.substring, `\`${path}.substring\``, ["source", "startChar", "endChar"]);
    return { substring: { source: source(o, `${path}.substring`), startChar: count(o.startChar, `${path}.substring.startChar`), endChar: count(o.endChar, `${path}.substring.endChar`) } };
  }
  if (spec.replace !== undefined) {
    const o = object(spec.replace, `\`${path}.replace\``, ["source", "replace", "by"]);
    return { replace: { source: source(o, `${path}.replace`), replace: text(o.replace, `${path}.replace.replace`), by: text(o.by, `${path}.replace.by`) } };
  }
  const o = object(spec.convert, `\`${path}.convert\``, ["source", "toCase", "separatedBy"]);
  const toCase = text(o.toCase, `${path}.convert.toCase`);
  if (!(CASE_NAMES as readonly string[]).includes(toCase)) throw wrongType(`${path}.convert.toCase`, `one of ${CASE_NAMES.join(", ")}`, toCase);
  const out: TransformSpec & { convert: object } = { convert: { source: source(o, `${path}.convert`), toCase: toCase as (typeof CASE_NAMES)[number] } };
  if (o.separatedBy !== undefined) {
    if (!Array.isArray(o.separatedBy) || o.separatedBy.some((s) => !(SEPARATORS as readonly unknown[]).includes(s))) throw wrongType(`${path}.convert.separatedBy`, `a list of ${SEPARATORS.join(", ")}`, o.separatedBy);
    out.convert.separatedBy = o.separatedBy;
  }
  return out;
}

/** An object with only `keys`; `refused` names keys known but not accepted here, with why. */
function object(value: Json, what: string, keys: readonly string[], refused: Record<string, string> = {}): Obj {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw wrongType(what.replaceAll("`", ""), `an object with keys among ${keys.join(", ")}`, value);
  for (const key of Object.keys(value)) {
    if (key in refused) throw new RuleConfigError(`${what} has \`${key}\`: ${refused[key]}.`);
    if (!keys.includes(key)) throw new RuleConfigError(`${what} has an unknown key \`${key}\`${nearest(key, keys)}. Valid keys there: ${keys.join(", ")}.`);
  }
  return value as Obj;
}

function mapOf<T>(value: Json, path: string, each: (v: Json, p: string) => T, checkKey?: (key: string, path: string) => void): Record<string, T> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw wrongType(path, "an object from names to rules", value);
  const out: Record<string, T> = {};
  for (const [key, item] of Object.entries(value)) {
    checkKey?.(key, `${path}.${key}`);
    out[key] = each(item, `${path}.${key}`);
  }
  return out;
}

function metavariableName(key: string, path: string): void {
  if (!/^[A-Z_][A-Z0-9_]*$/.test(key)) throw new RuleConfigError(`\`${path}\`: keys here are metavariable names without the $ (A, ARGS), not ${JSON.stringify(key)}.`);
}

function text(value: Json, path: string): string {
  if (typeof value !== "string") throw wrongType(path, "a string", value);
  return value;
}

function wrongType(path: string, expected: string, value: Json): RuleConfigError {
  const got = value === null ? "null" : Array.isArray(value) ? "a list" : typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
  return new RuleConfigError(`\`${path}\` is ${got}; expected ${expected}.`);
}

/** " (did you mean `kind`?)" for a near miss of a valid key. */
function nearest(key: string, keys: readonly string[]): string {
  const close = keys.find((k) => k.toLowerCase() === key.toLowerCase() || editDistance(k, key) <= 2);
  return close ? ` (did you mean \`${close}\`?)` : "";
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, k) => k);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}
