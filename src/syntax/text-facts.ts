// What searches ask of a file's text, kept with its cached entry: whether it holds a literal, and
// where a pattern's rarest literal stands. An agent repeats and varies searches over the same files,
// and scanning their text again was a third of a warm search once the trees were cached.
import { hasCodeLexer, inCode, nonCodeSpans } from "./code-spans.ts";
import { holdsChains, type TokenChains } from "./token-chains.ts";

/** What a search needs of a file's text: a pattern's or a rule's literals. */
interface Literals {
  literals: string[];
  wordLiterals: string[];
  /** A pattern's language; with `context` other than "rule", its word literals must stand in code. */
  language?: string;
  context?: string;
  /** A pattern's runs of adjacent tokens (token-chains.ts). */
  chains?: TokenChains;
}

/** Answers kept per file and kind; past this the oldest go (a file searched for many literals). */
const MAX_FACTS = 64;
/**
 * Longer offset lists are found again each time rather than kept: a literal like `.` occurs
 * thousands of times in a file, and 64 such lists per file across a large tree would take hundreds
 * of MB. Finding them is cheap next to matching that many candidates anyway.
 */
const MAX_KEPT_OFFSETS = 256;

export class TextFacts {
  private readonly holds = new Map<string, boolean>();
  private readonly rarest = new Map<string, readonly number[] | undefined>();
  /** The text's comments and literals (code-spans.ts), once asked; null when the lexer gave up. */
  private nonCode: number[] | null | undefined;

  /**
   * True when `text` holds every literal of the pattern, a keyword or identifier as a whole word (a
   * file lacking one cannot match, and is never parsed). `as` inside `class` and `async` does not
   * count: for `$A as $T` that leaves a third of the TypeScript files holding `as` unparsed.
   * A pattern's keyword or identifier is matched only as code: where a lexer knows the language's
   * comments and strings (code-spans.ts), an occurrence in them does not count either.
   */
  holdsAll(text: string, pattern: Literals): boolean {
    const plan = planOf(pattern);
    const literalsHeld = plan.checks.every(({ literal, whole, key }) => {
      let answer = this.holds.get(key);
      if (answer === undefined) {
        const { codeOf } = plan;
        answer = whole ? holdsWord(text, literal, codeOf === undefined ? undefined : () => this.codeSpans(text, codeOf)) : text.includes(literal);
        remember(this.holds, key, answer);
      }
      return answer;
    });
    if (!literalsHeld || !plan.chains) return literalsHeld;
    // Last: the literals rule out most files for less.
    const { chains, language, key } = plan.chains;
    let answer = this.holds.get(key);
    if (answer === undefined) {
      answer = holdsChains(text, language, chains);
      remember(this.holds, key, answer);
    }
    return answer;
  }

  private codeSpans(text: string, language: string): number[] | undefined {
    if (this.nonCode === undefined) this.nonCode = nonCodeSpans(language, text) ?? null;
    return this.nonCode ?? undefined;
  }

  /** Where the pattern's rarest literal starts in `text`, or undefined when it has no literal. */
  rarestOffsets(text: string, pattern: Literals): readonly number[] | undefined {
    const key = planOf(pattern).rarestKey;
    if (this.rarest.has(key)) return this.rarest.get(key);
    const offsets = rarestLiteralOffsets(text, pattern.literals, pattern.wordLiterals);
    if (offsets === undefined || offsets.length <= MAX_KEPT_OFFSETS) remember(this.rarest, key, offsets);
    return offsets;
  }
}

/** What the facts need of a pattern: asked for every file of a search, so worked out once per pattern. */
interface LiteralPlan {
  /** Each literal, whether it must stand as a whole word, and its key among a file's facts. */
  checks: { literal: string; whole: boolean; key: string }[];
  /** The language whose lexer tells code from comments and strings, for a pattern's word literals. */
  codeOf: string | undefined;
  /** The key of the pattern's rarest-literal offsets among a file's facts. */
  rarestKey: string;
  /** A pattern's token runs to find, and the key of the answer among a file's facts. */
  chains?: { chains: TokenChains; language: string; key: string };
}

const plans = new WeakMap<Literals, LiteralPlan>();

function planOf(pattern: Literals): LiteralPlan {
  let plan = plans.get(pattern);
  if (!plan) {
    // A rule's literal may stand in a comment or a string the rule matches (`kind: comment`): only
    // a pattern's words are known to be code.
    const codeOf = pattern.language !== undefined && pattern.context !== undefined && pattern.context !== "rule" && hasCodeLexer(pattern.language) ? pattern.language : undefined;
    plan = {
      checks: pattern.literals.map((literal) => {
        const whole = pattern.wordLiterals.includes(literal);
        // Kept apart from the same word's answer for a rule, which counts comments and strings.
        return { literal, whole, key: whole ? `${codeOf ? "\u0002" : "\u0001"}${literal}` : literal };
      }),
      codeOf,
      rarestKey: `${pattern.literals.join("\0")}\u0001${pattern.wordLiterals.join("\0")}`,
      // Only a pattern's own (smart) matching is known to skip no more than the chains allow.
      ...(pattern.chains && pattern.language !== undefined && pattern.context !== "rule"
        ? { chains: { chains: pattern.chains, language: pattern.language, key: `\u0003${pattern.chains.runs.map((run) => run.join("\0")).join("\u0001")}` } }
        : {}),
    };
    plans.set(pattern, plan);
  }
  return plan;
}

function remember<V>(facts: Map<string, V>, key: string, value: V): void {
  if (facts.size >= MAX_FACTS) facts.delete(facts.keys().next().value!);
  facts.set(key, value);
}

/**
 * Start offsets of the literal occurring least often, or undefined when the pattern has none. A
 * keyword or identifier counts only where it stands as a whole word (`as`, not the `as` in `class`).
 */
function rarestLiteralOffsets(source: string, literals: readonly string[], words: readonly string[]): number[] | undefined {
  let best: number[] | undefined;
  for (const literal of literals) {
    const whole = words.includes(literal);
    const offsets: number[] = [];
    for (let at = source.indexOf(literal); at !== -1; at = source.indexOf(literal, at + literal.length)) {
      if (whole && !standsAlone(source, at, literal.length)) continue;
      offsets.push(at);
      if (best && offsets.length >= best.length) break;
    }
    if (!best || offsets.length < best.length) best = offsets;
  }
  return best;
}

/**
 * The word stands alone somewhere in `text`; given the spans that are not code, somewhere in code.
 * The spans are asked for at the first such occurrence: a file without the word is never lexed.
 */
function holdsWord(text: string, word: string, nonCode?: () => readonly number[] | undefined): boolean {
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + word.length)) {
    if (!standsAlone(text, at, word.length)) continue;
    const spans = nonCode?.();
    if (spans === undefined || inCode(spans, at)) return true;
  }
  return false;
}

/** No ASCII word character right before or after the span. */
function standsAlone(source: string, at: number, length: number): boolean {
  return !isWordCode(source.charCodeAt(at - 1)) && !isWordCode(source.charCodeAt(at + length));
}

function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}
