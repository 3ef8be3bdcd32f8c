// The node kinds a rule can match, as ast-grep works them out (`potential_kinds`): a search tries
// only nodes of those kinds, and a rule whose kinds are unknown is refused, as ast-grep refuses it.
import type { RuleNode } from "./compiled.ts";

/** The kinds, or undefined when any kind could match (a regex, a `not`, a relational rule alone). */
export function potentialKinds(rule: RuleNode, utils: Readonly<Record<string, RuleNode>>, seen: ReadonlySet<string> = new Set()): string[] | undefined {
  switch (rule.op) {
    case "pattern": {
      const root = rule.pattern.root;
      return root.kind === "meta" ? undefined : [root.type];
    }
    case "kind":
      return [rule.kind];
    case "nthChild":
      return rule.ofRule ? potentialKinds(rule.ofRule, utils, seen) : undefined;
    case "all": {
      // The kinds every sub-rule that knows them agrees on.
      let kinds: string[] | undefined;
      for (const sub of rule.rules) {
        const own = potentialKinds(sub, utils, seen);
        if (own === undefined) continue;
        kinds = kinds === undefined ? own : kinds.filter((k) => own.includes(k));
      }
      return kinds;
    }
    case "any": {
      const kinds = new Set<string>();
      for (const sub of rule.rules) {
        const own = potentialKinds(sub, utils, seen);
        if (own === undefined) return undefined;
        for (const k of own) kinds.add(k);
      }
      return [...kinds];
    }
    case "matches": {
      const util = utils[rule.id];
      if (!util || seen.has(rule.id)) return undefined;
      return potentialKinds(util, utils, new Set([...seen, rule.id]));
    }
    default:
      return undefined;
  }
}
