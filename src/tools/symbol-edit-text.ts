// symbol_edit's text work: the file's indentation and blank-line habits, and the given text re-indented to the definition's place.

export const OPERATIONS = ["replace", "replace_body", "insert_before", "insert_after", "delete"] as const;
export type Operation = (typeof OPERATIONS)[number];

/** One edit of the file, in string offsets: what unifiedDiff and the stage take. */
export interface TextReplacement {
  start: number;
  end: number;
  text: string;
}

/** The file's unit of indentation: a tab, or the step most of its indented lines take. */
export function indentUnit(lines: readonly string[]): string {
  let tabs = 0;
  let spaces = 0;
  const steps = new Map<number, number>();
  let previous = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    const lead = /^[ \t]*/.exec(line)![0];
    if (lead.startsWith("\t")) tabs++;
    else if (lead.length > 0) spaces++;
    const width = lead.replace(/\t/g, "    ").length;
    // JSDoc's " * " continuation lines step by one space: no file indents so.
    if (width > previous && !line.trimStart().startsWith("*")) steps.set(width - previous, (steps.get(width - previous) ?? 0) + 1);
    previous = width;
  }
  if (tabs > spaces) return "\t";
  // A one-space step is an alignment (a continued argument list), not a unit, unless it is all there is.
  if (steps.size > 1) steps.delete(1);
  const step = [...steps].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
  return " ".repeat(step && step <= 8 ? step : 4);
}

/**
 * The text with its common indentation taken off and each level redone in the file's unit under
 * `base`: a method written flush left, or with tabs in a file of four spaces, lands as its
 * neighbours are written. Blank lines at either end are dropped; blank lines inside stay empty.
 */
export function reindent(text: string, base: string, unit: string): string[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  while (lines.length && lines[0]!.trim() === "") lines.shift();
  while (lines.length && lines[lines.length - 1]!.trim() === "") lines.pop();
  const given = indentUnit(lines);
  const givenWidth = given === "\t" ? 1 : given.length;
  const widthOf = (lead: string) => (given === "\t" ? lead.replace(/ {4}/g, "\t").length : lead.replace(/\t/g, given).length);
  const leads = lines.filter((l) => l.trim() !== "").map((l) => widthOf(/^[ \t]*/.exec(l)![0]));
  const common = leads.length ? Math.min(...leads) : 0;
  return lines.map((line) => {
    if (line.trim() === "") return "";
    const relative = widthOf(/^[ \t]*/.exec(line)![0]) - common;
    const levels = Math.floor(relative / givenWidth);
    return `${base}${unit.repeat(levels)}${" ".repeat(relative - levels * givenWidth)}${line.trimStart()}`;
  });
}

/** The leading whitespace of a line. */
export function leadOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/**
 * How many blank lines the file puts between neighbouring definitions at this level: the most common
 * gap between siblings that nothing else separates, else two around Python's top-level definitions
 * and one elsewhere.
 */
export function blankLinesBetween(lines: readonly string[], siblings: readonly { start: number; end: number }[], topLevelPython: boolean): number {
  const gaps = new Map<number, number>();
  const sorted = [...siblings].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    const between = lines.slice(sorted[i - 1]!.end + 1, sorted[i]!.start);
    if (between.some((l) => l.trim() !== "")) continue;
    gaps.set(between.length, (gaps.get(between.length) ?? 0) + 1);
  }
  const habit = [...gaps].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0];
  return habit ?? (topLevelPython ? 2 : 1);
}

/** Offsets of each line's start in the text, and the text's length as the end of the last. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  return starts;
}

/** The end of line `line` (0-based) with its line break, or the text's end. */
export function afterLine(text: string, starts: readonly number[], line: number): number {
  return starts[line + 1] ?? text.length;
}

/** The file's line break: \r\n when its first line ends so. */
export function lineBreakOf(text: string): string {
  const first = text.indexOf("\n");
  return first > 0 && text[first - 1] === "\r" ? "\r\n" : "\n";
}
