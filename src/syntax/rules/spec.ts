// An ast-grep rule config as the agent wrote it, once read and checked (validate.ts): plain data,
// so it travels to the parse workers as it is, where each language compiles it (compile.ts).
import type { Strictness } from "../match.ts";

export type PatternSpec = string | { context: string; selector?: string; strictness?: Strictness };

type NthChildPosition = number | string;
export type NthChildSpec = NthChildPosition | { position: NthChildPosition; ofRule?: RuleSpec; reverse?: boolean };

export interface RangeSpec {
  start: { line: number; column: number };
  end: { line: number; column: number };
}

/** A rule object: every key present must hold (ast-grep's implicit `all`). */
export interface RuleSpec {
  pattern?: PatternSpec;
  kind?: string;
  regex?: string;
  nthChild?: NthChildSpec;
  range?: RangeSpec;
  inside?: RelationSpec;
  has?: RelationSpec;
  precedes?: RelationSpec;
  follows?: RelationSpec;
  all?: RuleSpec[];
  any?: RuleSpec[];
  not?: RuleSpec;
  matches?: string;
}

/** A relational rule's target, with where the search stops and which field it looks in. */
export interface RelationSpec extends RuleSpec {
  stopBy?: "neighbor" | "end" | RuleSpec;
  field?: string;
}

export type TransformSpec =
  | { substring: { source: string; startChar?: number; endChar?: number } }
  | { replace: { source: string; replace: string; by: string } }
  | { convert: { source: string; toCase: CaseName; separatedBy?: Separator[] } };

export const CASE_NAMES = ["lowerCase", "upperCase", "capitalize", "camelCase", "snakeCase", "kebabCase", "pascalCase"] as const;
export type CaseName = (typeof CASE_NAMES)[number];
export const SEPARATORS = ["caseChange", "dash", "dot", "slash", "space", "underscore"] as const;
export type Separator = (typeof SEPARATORS)[number];

export interface RuleConfig {
  rule: RuleSpec;
  constraints?: Record<string, RuleSpec>;
  utils?: Record<string, RuleSpec>;
  /** ast_edit only: new metavariables computed from captured text, usable in the rewrite. */
  transform?: Record<string, TransformSpec>;
  language?: string;
  /** ast_edit only: the rewrite template, when the call passes none of its own. */
  fix?: string;
}

/** Keys of a rule object, in the order ast-grep's reference lists them. */
const ATOMIC_KEYS = ["pattern", "kind", "regex", "nthChild", "range"] as const;
const RELATIONAL_KEYS = ["inside", "has", "precedes", "follows"] as const;
const COMPOSITE_KEYS = ["all", "any", "not", "matches"] as const;
export const RULE_KEYS: readonly string[] = [...ATOMIC_KEYS, ...RELATIONAL_KEYS, ...COMPOSITE_KEYS];
