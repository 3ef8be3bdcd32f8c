// ast-grep's `transform`: new metavariables made from the text of captured ones (a substring, a
// regex replacement, a change of case), for an ast_edit rewrite to use like any other.
import { captureSpan, type Bindings } from "../captures.ts";
import type { CaseName, Separator, TransformSpec } from "./spec.ts";

/** Each transform's text, in the order given; a later one may read an earlier one's result. */
export function transformed(transform: Readonly<Record<string, TransformSpec>>, bindings: Bindings, source: string, fallback: number): Map<string, string> {
  const out = new Map<string, string>();
  const textOf = (variable: string): string => {
    const name = variable.replace(/^\$+/, "");
    const made = out.get(name);
    if (made !== undefined) return made;
    const capture = bindings.get(name);
    if (!capture) return "";
    const span = captureSpan(capture, fallback);
    return source.slice(span.start, span.end);
  };
  for (const [name, spec] of Object.entries(transform)) {
    if ("substring" in spec) {
      const chars = [...textOf(spec.substring.source)];
      out.set(name, chars.slice(...sliceBounds(chars.length, spec.substring.startChar, spec.substring.endChar)).join(""));
    } else if ("replace" in spec) {
      const by = spec.replace.by.replace(/\$\{(\w+)\}/g, (_m, group: string) => (/^\d+$/.test(group) ? `$${group}` : `$<${group}>`));
      out.set(name, textOf(spec.replace.source).replace(new RegExp(spec.replace.replace.replaceAll("(?P<", "(?<"), "gu"), by));
    } else {
      out.set(name, convert(textOf(spec.convert.source), spec.convert.toCase, spec.convert.separatedBy));
    }
  }
  return out;
}

/** Python-like bounds, as ast-grep's substring: negative counts from the end. */
function sliceBounds(length: number, start = 0, end = length): [number, number] {
  const at = (n: number) => Math.min(length, Math.max(0, n < 0 ? length + n : n));
  return [at(start), at(end)];
}

const ALL_SEPARATORS: readonly Separator[] = ["caseChange", "dash", "dot", "slash", "space", "underscore"];
const SEPARATOR_CHARS: Record<Exclude<Separator, "caseChange">, string> = { dash: "-", dot: ".", slash: "/", space: " ", underscore: "_" };

function convert(text: string, toCase: CaseName, separatedBy: readonly Separator[] = ALL_SEPARATORS): string {
  if (toCase === "lowerCase") return text.toLowerCase();
  if (toCase === "upperCase") return text.toUpperCase();
  if (toCase === "capitalize") return text.charAt(0).toUpperCase() + text.slice(1);
  const words = split(text, separatedBy);
  const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();
  switch (toCase) {
    case "camelCase":
      return words.map((w, k) => (k === 0 ? w.toLowerCase() : capital(w))).join("");
    case "pascalCase":
      return words.map(capital).join("");
    case "snakeCase":
      return words.map((w) => w.toLowerCase()).join("_");
    case "kebabCase":
      return words.map((w) => w.toLowerCase()).join("-");
  }
}

function split(text: string, separatedBy: readonly Separator[]): string[] {
  const chars = separatedBy.filter((s): s is Exclude<Separator, "caseChange"> => s !== "caseChange").map((s) => SEPARATOR_CHARS[s]);
  let pieces = [text];
  for (const c of chars) pieces = pieces.flatMap((p) => p.split(c));
  if (separatedBy.includes("caseChange")) pieces = pieces.flatMap((p) => p.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/));
  return pieces.filter((p) => p !== "");
}
