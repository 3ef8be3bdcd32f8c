// ast-grep's `regex` is a Rust regex over a node's whole text (found anywhere in it, not anchored).
// JavaScript's RegExp reads the same common syntax; the few Rust spellings that differ are rewritten.
import { RuleConfigError } from "./rule-error.ts";

export function toJsRegex(source: string, path: string): { source: string; flags: string } {
  let body = source;
  let flags = "u";
  // Rust's leading inline flags, `(?i)` or `(?is)`, are JavaScript's flags.
  const inline = /^\(\?([imsx]+)\)/.exec(body);
  if (inline) {
    if (inline[1]!.includes("x")) throw new RuleConfigError(`\`${path}\`: the x flag (verbose regex) is not supported; write the regex without spaces and comments.`);
    flags += inline[1]!;
    body = body.slice(inline[0].length);
  }
  body = body.replaceAll("(?P<", "(?<"); // Rust's named group
  try {
    new RegExp(body, flags);
  } catch (error) {
    throw new RuleConfigError(`\`${path}\` is not a regex this search can read: ${(error as Error).message}. Write it in the syntax Rust and JavaScript share.`);
  }
  return { source: body, flags };
}

/**
 * A literal every text the regex matches must contain, for the text pre-filter, or undefined when
 * none is certain: the longest run of plain characters outside groups and classes, in a regex with
 * no alternation and no case folding. A character a quantifier makes optional ends the run.
 */
export function regexLiteral(source: string, flags: string): string | undefined {
  if (flags.includes("i") || source.includes("|")) return undefined;
  let best = "";
  let run = "";
  const end = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  for (let k = 0; k < source.length; k++) {
    const c = source[k]!;
    if (c === "\\") {
      const next = source[k + 1];
      k++;
      if (next !== undefined && /[^A-Za-z0-9]/.test(next)) run += next;
      else {
        end();
        if (next === "p" || next === "P" || next === "x" || next === "u") k = skipBraced(source, k);
      }
    } else if (c === "[") {
      end();
      k = closing(source, k, "[", "]");
    } else if (c === "(") {
      end();
      k = closing(source, k, "(", ")");
    } else if (c === "*" || c === "?" || c === "{") {
      run = run.slice(0, -1); // the quantified character may be absent
      end();
      if (c === "{") k = closing(source, k, "{", "}");
    } else if (c === "+") {
      end();
    } else if (c === "." || c === "^" || c === "$") {
      end();
    } else {
      run += c;
    }
  }
  end();
  return best === "" ? undefined : best;
}

function closing(source: string, at: number, open: string, close: string): number {
  let depth = 0;
  for (let k = at; k < source.length; k++) {
    if (source[k] === "\\") k++;
    else if (source[k] === open) depth++;
    else if (source[k] === close && --depth === 0) return k;
  }
  return source.length;
}

function skipBraced(source: string, at: number): number {
  return source[at + 1] === "{" ? closing(source, at + 1, "{", "}") : at;
}
