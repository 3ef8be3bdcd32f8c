// Matches a compiled rule at one node, with ast-grep's semantics: the keys of a rule object and the
// items of `all` bind metavariables in order, each seeing what the earlier bound; `any` keeps the
// bindings of its first alternative that matches; `not` and a failed attempt bind nothing.
import type { Node } from "web-tree-sitter";
import type { Bindings } from "../captures.ts";
import { MatchBudgetExceeded, matchPatternAt, type NodeMatch, type Steps } from "../match.ts";
import type { CompiledRule, RuleNode } from "./compiled.ts";
import { isAtPosition } from "./nth-child.ts";
import { related, type RuleEvaluation as Relating } from "./relations.ts";

/** What one file's matching shares: the step budget, the utils, regexes compiled once. */
export class RuleEvaluation implements Relating {
  private readonly regexes = new Map<string, RegExp>();

  constructor(
    readonly rule: CompiledRule,
    readonly steps: Steps,
  ) {}

  /** The rule matched at `node`, its constraints held, or undefined. */
  matchAt(node: Node): NodeMatch | undefined {
    const { matcher } = this.rule;
    // A rule that is one pattern keeps what the pattern match knows (skipped keywords, where a rewrite ends).
    const match = matcher.op === "pattern" ? this.pattern(matcher, node, new Map()) : this.bindings(matcher, node, new Map());
    if (!match) return undefined;
    const bindings = "node" in match ? match.bindings : match;
    const checked = this.constrained(bindings);
    if (!checked) return undefined;
    if ("node" in match) return { ...match, bindings: checked };
    return { node, end: node.endIndex, rewriteEnd: node.endIndex, bindings: checked, skippedWords: [] };
  }

  /** The bindings after `rule` matched at `node`, or undefined. */
  bindings(rule: RuleNode, node: Node, env: Bindings): Bindings | undefined {
    if (--this.steps.left < 0) throw new MatchBudgetExceeded();
    switch (rule.op) {
      case "pattern":
        return this.pattern(rule, node, env)?.bindings;
      case "kind":
        return node.isNamed && node.type === rule.kind ? env : undefined;
      case "regex":
        return this.regex(rule.source, rule.flags).test(node.text) ? env : undefined;
      case "nthChild":
        return this.nthChild(rule, node, env);
      case "range": {
        const { start, end } = rule.range;
        const s = node.startPosition;
        const e = node.endPosition;
        return s.row === start.line && s.column === start.column && e.row === end.line && e.column === end.column ? env : undefined;
      }
      case "inside":
      case "has":
      case "precedes":
      case "follows":
        return related(this, rule, node, env);
      case "all": {
        if (rule.kinds && !rule.kinds.includes(node.type)) return undefined;
        let bound: Bindings | undefined = env;
        for (const sub of rule.rules) {
          bound = this.bindings(sub, node, bound);
          if (!bound) return undefined;
        }
        return bound;
      }
      case "any": {
        if (rule.kinds && !rule.kinds.includes(node.type)) return undefined;
        for (const sub of rule.rules) {
          const bound = this.bindings(sub, node, env);
          if (bound) return bound;
        }
        return undefined;
      }
      case "not":
        return this.bindings(rule.rule, node, env) ? undefined : env;
      case "matches": {
        const util = this.rule.utils[rule.id];
        return util ? this.bindings(util, node, env) : undefined;
      }
    }
  }

  /** Whether `node` matches, its bindings discarded (a `stopBy` rule). */
  test(rule: RuleNode, node: Node, env: Bindings): boolean {
    return this.bindings(rule, node, env) !== undefined;
  }

  private pattern(rule: Extract<RuleNode, { op: "pattern" }>, node: Node, env: Bindings): NodeMatch | undefined {
    this.steps.strictness = rule.strictness;
    return matchPatternAt(rule.pattern, node, env, this.steps);
  }

  /**
   * 1-based among the named siblings (those `ofRule` matches, when given), counted from the end
   * when `reverse`. As in ast-grep, `ofRule` then also binds at the node itself.
   */
  private nthChild(rule: Extract<RuleNode, { op: "nthChild" }>, node: Node, env: Bindings): Bindings | undefined {
    const parent = node.parent;
    if (!parent) return undefined;
    // ast-grep finds the node among the siblings `ofRule` returns, and a bare relational rule
    // returns the node it related to (a child, an ancestor), never the sibling itself: no match.
    if (rule.ofRule && this.isBareRelation(rule.ofRule)) return undefined;
    let siblings = parent.children.filter((c): c is Node => c !== null && c.isNamed);
    if (rule.ofRule) siblings = siblings.filter((c) => this.test(rule.ofRule!, c, env));
    if (rule.reverse) siblings.reverse();
    const index = siblings.findIndex((c) => c.id === node.id);
    if (index < 0 || !isAtPosition(rule, index)) return undefined;
    return rule.ofRule ? (this.bindings(rule.ofRule, node, env) ?? env) : env;
  }

  private isBareRelation(rule: RuleNode, seen: ReadonlySet<string> = new Set()): boolean {
    if (rule.op === "inside" || rule.op === "has" || rule.op === "precedes" || rule.op === "follows") return true;
    if (rule.op !== "matches" || seen.has(rule.id)) return false;
    const util = this.rule.utils[rule.id];
    return util !== undefined && this.isBareRelation(util, new Set([...seen, rule.id]));
  }

  /** Each bound single metavariable with a constraint must match it (ast-grep ignores runs and unbound names). */
  private constrained(bindings: Bindings): Bindings | undefined {
    let env = bindings;
    for (const [name, capture] of bindings) {
      const constraint = this.rule.constraints[name];
      if (!constraint || !("single" in capture)) continue;
      const next = this.bindings(constraint, capture.single, env);
      if (!next) return undefined;
      env = next;
    }
    return env;
  }

  private regex(source: string, flags: string): RegExp {
    const key = `${flags}/${source}`;
    let regex = this.regexes.get(key);
    if (!regex) {
      regex = new RegExp(source, flags);
      this.regexes.set(key, regex);
    }
    return regex;
  }
}
