// Compiles a checked rule config for one language, in the worker that has its grammar: patterns
// parsed (string, or context + selector), kinds and fields looked up in the grammar, regexes and
// nthChild positions read, util references resolved, and the node kinds a match can have worked out.
import type { Parser } from "web-tree-sitter";
import { compilePattern, compileSelected, PatternError, type Pattern } from "../pattern.ts";
import type { CompiledRule, RuleNode, StopBy } from "./compiled.ts";
import { requiredLiterals } from "./literals.ts";
import { parsePosition } from "./nth-child.ts";
import { potentialKinds } from "./kinds.ts";
import { toJsRegex } from "./regex.ts";
import { RuleConfigError } from "./rule-error.ts";
import type { PatternSpec, RelationSpec, RuleConfig, RuleSpec } from "./spec.ts";

function compileRule(language: string, config: RuleConfig, parser: Parser, patterns: (source: string) => Pattern): CompiledRule {
  const compiler = new RuleCompiler(language, parser, patterns, config.utils ?? {});
  const matcher = compiler.rule(config.rule, "rule");
  const utils = compiler.compiledUtils();
  const kinds = potentialKinds(matcher, utils);
  if (kinds === undefined) {
    throw new RuleConfigError(
      "The rule does not say which node kinds it matches (ast-grep requires it: a `regex`, `not`, `nthChild`, `range` or relational rule alone could match any node). Add `kind` (or a `pattern`) at the top of `rule`.",
    );
  }
  const constraints: Record<string, RuleNode> = {};
  const bound = compiler.metavariables;
  for (const [name, spec] of Object.entries(config.constraints ?? {})) {
    if (!bound.includes(name)) throw new RuleConfigError(`\`constraints.${name}\` constrains $${name}, which the rule never binds (it binds ${bound.map((n) => `$${n}`).join(", ") || "nothing"}).`);
    constraints[name] = compiler.rule(spec, `constraints.${name}`);
  }
  const transform = config.transform ?? {};
  const { literals, wordLiterals } = requiredLiterals(matcher, utils);
  return {
    language,
    source: JSON.stringify(config),
    context: "rule",
    matcher,
    kinds,
    constraints,
    utils,
    transform,
    literals,
    wordLiterals,
    metavariables: [...new Set([...compiler.metavariables, ...Object.keys(transform)])],
    patternSource: matcher.op === "pattern" && typeof config.rule.pattern === "string" ? matcher.pattern.source : "",
  };
}

class RuleCompiler {
  readonly metavariables: string[] = [];
  private readonly utils = new Map<string, RuleNode>();
  /** Utils being compiled, to refuse a cycle (a util that matches itself). */
  private readonly open: string[] = [];

  constructor(
    private readonly language: string,
    private readonly parser: Parser,
    private readonly patterns: (source: string) => Pattern,
    private readonly utilSpecs: Record<string, RuleSpec>,
  ) {}

  compiledUtils(): Record<string, RuleNode> {
    for (const id of Object.keys(this.utilSpecs)) this.util(id, `utils.${id}`);
    return Object.fromEntries(this.utils);
  }

  /** ast-grep's order for the keys of one rule object: atomic, then composite, then relational (it decides which binds first). */
  rule(spec: RuleSpec, path: string): RuleNode {
    const rules: RuleNode[] = [];
    if (spec.pattern !== undefined) rules.push(this.pattern(spec.pattern, `${path}.pattern`));
    if (spec.kind !== undefined) rules.push({ op: "kind", kind: this.kind(spec.kind, `${path}.kind`) });
    if (spec.regex !== undefined) rules.push({ op: "regex", ...toJsRegex(spec.regex, `${path}.regex`) });
    if (spec.nthChild !== undefined) {
      const nth = spec.nthChild;
      const simple = typeof nth === "number" || typeof nth === "string";
      const { step, offset } = parsePosition(simple ? nth : nth.position, `${path}.nthChild`);
      const ofRule = !simple && nth.ofRule ? this.rule(nth.ofRule, `${path}.nthChild.ofRule`) : undefined;
      rules.push({ op: "nthChild", step, offset, reverse: !simple && nth.reverse === true, ...(ofRule ? { ofRule } : {}) });
    }
    if (spec.range !== undefined) rules.push({ op: "range", range: spec.range });
    if (spec.all !== undefined) rules.push(this.composite("all", spec.all.map((r, k) => this.rule(r, `${path}.all[${k}]`))));
    if (spec.any !== undefined) rules.push(this.composite("any", spec.any.map((r, k) => this.rule(r, `${path}.any[${k}]`))));
    if (spec.not !== undefined) rules.push({ op: "not", rule: this.rule(spec.not, `${path}.not`) });
    if (spec.matches !== undefined) rules.push(this.matches(spec.matches, `${path}.matches`));
    for (const op of ["inside", "has", "precedes", "follows"] as const) {
      const relation = spec[op];
      if (relation !== undefined) rules.push(this.relation(op, relation, `${path}.${op}`));
    }
    return rules.length === 1 ? rules[0]! : this.composite("all", rules);
  }

  private composite(op: "all" | "any", rules: RuleNode[]): RuleNode {
    const node: Extract<RuleNode, { op: "all" | "any" }> = { op, rules };
    const kinds = potentialKinds(node, Object.fromEntries(this.utils));
    return kinds === undefined ? node : { ...node, kinds };
  }

  private relation(op: "inside" | "has" | "precedes" | "follows", spec: RelationSpec, path: string): RuleNode {
    const { stopBy, field, ...target } = spec;
    const rule = this.rule(target, path);
    const stop: StopBy = stopBy === undefined || stopBy === "neighbor" || stopBy === "end" ? (stopBy ?? "neighbor") : this.rule(stopBy, `${path}.stopBy`);
    if (field === undefined) return { op, rule, stopBy: stop };
    if (this.parser.language!.fieldIdForName(field) === null) {
      const fields = this.parser.language!.fields.filter((f): f is string => typeof f === "string");
      throw new RuleConfigError(`\`${path}.field\`: ${this.language} has no field ${JSON.stringify(field)}. Its fields: ${fields.join(", ")}.`);
    }
    return { op, rule, stopBy: stop, field };
  }

  private pattern(spec: PatternSpec, path: string): RuleNode {
    try {
      if (typeof spec === "string") return this.patternNode(this.patterns(spec), "smart");
      const pattern = spec.selector === undefined ? compilePattern(this.language, spec.context, this.parser) : compileSelected(this.language, spec.context, this.kind(spec.selector, `${path}.selector`), this.parser);
      return this.patternNode(pattern, spec.strictness ?? "smart");
    } catch (error) {
      if (error instanceof PatternError && !(error instanceof RuleConfigError)) throw new RuleConfigError(`\`${path}\`: ${error.message}`);
      throw error;
    }
  }

  private patternNode(pattern: Pattern, strictness: Extract<RuleNode, { op: "pattern" }>["strictness"]): RuleNode {
    if (pattern.sequence) {
      throw new PatternError(`in ${this.language} ${JSON.stringify(pattern.source)} parses as several sibling nodes, not one node, and a rule matches one node. Use a pattern object with context and selector to name the node.`);
    }
    for (const name of pattern.metavariables) if (!this.metavariables.includes(name)) this.metavariables.push(name);
    return { op: "pattern", pattern, strictness };
  }

  private kind(kind: string, path: string): string {
    const language = this.parser.language!;
    if (language.idForNodeType(kind, true) !== null) return kind;
    const words = kind.split(/[_\s]+/).filter((w) => w.length > 2);
    const similar = new Set<string>();
    for (let id = 0; id < language.nodeTypeCount && similar.size < 12; id++) {
      const name = language.nodeTypeForId(id);
      if (name && language.nodeTypeIsNamed(id) && language.nodeTypeIsVisible(id) && words.some((w) => name.includes(w))) similar.add(name);
    }
    const hint = similar.size > 0 ? ` Kinds with a similar name: ${[...similar].join(", ")}.` : "";
    throw new RuleConfigError(`\`${path}\`: ${this.language} has no node kind ${JSON.stringify(kind)}.${hint} ast_grep's syntax_tree shows the kinds of a snippet.`);
  }

  private matches(id: string, path: string): RuleNode {
    if (!(id in this.utilSpecs)) {
      const known = Object.keys(this.utilSpecs);
      throw new RuleConfigError(`\`${path}\` names the util ${JSON.stringify(id)}, which \`utils\` does not define${known.length > 0 ? ` (it defines ${known.join(", ")})` : ""}.`);
    }
    this.util(id, path);
    return { op: "matches", id };
  }

  private util(id: string, path: string): void {
    if (this.utils.has(id)) return;
    if (this.open.includes(id)) throw new RuleConfigError(`\`${path}\`: the util ${JSON.stringify(id)} matches itself (${[...this.open, id].join(" → ")}); a util cannot refer to itself.`);
    this.open.push(id);
    try {
      this.utils.set(id, this.rule(this.utilSpecs[id]!, `utils.${id}`));
    } finally {
      this.open.pop();
    }
  }
}

/** Rules compiled before, by language and config: agents repeat a search, and each compile parses its patterns. */
export class CompiledRules {
  private static readonly MAX = 100;
  private readonly byKey = new Map<string, CompiledRule>();

  get(language: string, config: RuleConfig, parser: Parser, patterns: (source: string) => Pattern): CompiledRule {
    const key = `${language}\0${JSON.stringify(config)}`;
    let rule = this.byKey.get(key);
    if (!rule) {
      rule = compileRule(language, config, parser, patterns);
      if (this.byKey.size >= CompiledRules.MAX) this.byKey.clear();
      this.byKey.set(key, rule);
    }
    return rule;
  }
}
