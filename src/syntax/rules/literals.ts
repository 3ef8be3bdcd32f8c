// The literal texts a file must hold for a rule to match in it, for the text pre-filter: a file
// lacking one is never parsed. Only what every match needs counts (`any` keeps what all its
// alternatives share; `not`, `kind` and a `stopBy` rule need nothing).
import type { RuleNode } from "./compiled.ts";
import { regexLiteral } from "./regex.ts";

interface Needs {
  literals: Set<string>;
  words: Set<string>;
}

export function requiredLiterals(rule: RuleNode, utils: Readonly<Record<string, RuleNode>>): { literals: string[]; wordLiterals: string[] } {
  const needs = needsOf(rule, utils, new Set());
  return { literals: [...needs.literals], wordLiterals: [...needs.words].filter((w) => needs.literals.has(w)) };
}

function needsOf(rule: RuleNode, utils: Readonly<Record<string, RuleNode>>, seen: ReadonlySet<string>): Needs {
  const none = (): Needs => ({ literals: new Set(), words: new Set() });
  switch (rule.op) {
    case "pattern":
      // Only "smart" and "cst" compare every token's text; the others skip keywords or ignore names.
      if (rule.strictness !== "smart" && rule.strictness !== "cst") return none();
      return { literals: new Set(rule.pattern.literals), words: new Set(rule.pattern.wordLiterals) };
    case "regex": {
      const literal = regexLiteral(rule.source, rule.flags);
      return literal === undefined ? none() : { literals: new Set([literal]), words: new Set() };
    }
    case "inside":
    case "has":
    case "precedes":
    case "follows":
      // The related node is in the same file, so what it needs the file needs.
      return needsOf(rule.rule, utils, seen);
    case "all": {
      const all = none();
      for (const sub of rule.rules) {
        const own = needsOf(sub, utils, seen);
        for (const l of own.literals) all.literals.add(l);
        for (const w of own.words) all.words.add(w);
      }
      return all;
    }
    case "any": {
      const [first, ...rest] = rule.rules.map((sub) => needsOf(sub, utils, seen));
      if (!first) return none();
      // A literal counts only if every alternative needs it, as a word only if every one needs it whole.
      const literals = [...first.literals].filter((l) => rest.every((r) => r.literals.has(l)));
      const words = [...first.words].filter((w) => rest.every((r) => r.words.has(w)));
      return { literals: new Set(literals), words: new Set(words) };
    }
    case "matches": {
      const util = utils[rule.id];
      return util && !seen.has(rule.id) ? needsOf(util, utils, new Set([...seen, rule.id])) : none();
    }
    default:
      return none();
  }
}
