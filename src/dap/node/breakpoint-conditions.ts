// A DAP breakpoint's condition, hit condition and log message as one V8 breakpoint condition.
// Done inside V8 (as VS Code's js-debug does for logpoints): a logpoint never pauses the program,
// and a hit count is kept by the program itself, so neither costs a round trip per hit.

/** Where hit counts live in the program: a symbol-keyed object no program code names. */
const HITS = 'globalThis[Symbol.for("sidecar.breakpointHits")]';

export interface BreakpointOptions {
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
}

/** "5" or "== 5" stops on the 5th hit only; ">= 5", "> 5", "<= 5", "< 5"; "% 5" every 5th hit. */
const HIT_CONDITION = /^\s*(==|>=|>|<=|<|%)?\s*(\d+)\s*$/;

/** The V8 condition for these options, or a sentence saying why one cannot be made. */
export function v8Condition(options: BreakpointOptions, key: string): { condition?: string } | { refused: string } {
  const parts: string[] = [];
  if (options.condition?.trim()) parts.push(`(${options.condition})`);
  if (options.hitCondition !== undefined) {
    const match = HIT_CONDITION.exec(options.hitCondition);
    if (!match) return { refused: `hit condition ${JSON.stringify(options.hitCondition)} is not one of N, == N, >= N, > N, <= N, < N, % N` };
    const [, operator = "==", count] = match;
    const hits = `((${HITS} ??= {})[${JSON.stringify(key)}] = ((${HITS})[${JSON.stringify(key)}] ?? 0) + 1)`;
    parts.push(operator === "%" ? `(${hits} % ${count} === 0)` : `(${hits} ${operator === "==" ? "===" : operator} ${count})`);
  }
  if (options.logMessage !== undefined) parts.push(`(console.log(${template(options.logMessage)}), false)`);
  return parts.length ? { condition: parts.join(" && ") } : {};
}

/** "i is {i}" as the template literal `i is ${i}`: braces hold expressions, the rest is text. */
export function template(message: string): string {
  let out = "";
  let index = 0;
  while (index < message.length) {
    const open = message.indexOf("{", index);
    const close = open < 0 ? -1 : message.indexOf("}", open);
    const text = message.slice(index, open < 0 || close < 0 ? undefined : open);
    out += text.replace(/[`\\]|\$\{/g, (c) => `\\${c}`);
    if (open < 0 || close < 0) break;
    out += `\${${message.slice(open + 1, close)}}`;
    index = close + 1;
  }
  return `\`${out}\``;
}
