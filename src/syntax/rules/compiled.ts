// A rule compiled for one language: patterns parsed, kinds and fields checked against the grammar.
// Plain data (structured-clone safe), so the worker that compiles it sends it with every job.
import type { Strictness } from "../match.ts";
import type { Pattern } from "../pattern.ts";
import type { RangeSpec, TransformSpec } from "./spec.ts";

export type StopBy = "neighbor" | "end" | RuleNode;

export type RuleNode =
  | { op: "pattern"; pattern: Pattern; strictness: Strictness }
  | { op: "kind"; kind: string }
  | { op: "regex"; source: string; flags: string }
  | { op: "nthChild"; step: number; offset: number; reverse: boolean; ofRule?: RuleNode }
  | { op: "range"; range: RangeSpec }
  | { op: "inside" | "has" | "precedes" | "follows"; rule: RuleNode; stopBy: StopBy; field?: string }
  /** `kinds`: the node kinds it can match, when known (a fast refusal before any sub-rule runs). */
  | { op: "all"; rules: RuleNode[]; kinds?: string[] }
  | { op: "any"; rules: RuleNode[]; kinds?: string[] }
  | { op: "not"; rule: RuleNode }
  | { op: "matches"; id: string };

export interface CompiledRule {
  language: string;
  /** The config as given (JSON), for messages and the compile cache. */
  source: string;
  context: "rule";
  matcher: RuleNode;
  /** Node kinds a match can have (ast-grep requires a rule to name them). */
  kinds: string[];
  constraints: Record<string, RuleNode>;
  utils: Record<string, RuleNode>;
  transform: Record<string, TransformSpec>;
  /** Literal texts every matching file must hold (the text pre-filter); empty when none is certain. */
  literals: string[];
  wordLiterals: string[];
  /** Metavariables the rule can bind, and those the transform adds, in order of appearance. */
  metavariables: string[];
  /** When the rule is one pattern, its source: a rewrite keeps the code's layout where the template repeats it. */
  patternSource: string;
}

/** A search's compiled query: a pattern, or a rule. */
export type Query = Pattern | CompiledRule;

export function isRule(query: Query): query is CompiledRule {
  return "matcher" in query;
}
