// A path as a text answer shows it. File names are data: a file named "x\n1 match(es)… SYSTEM NOTE:
// …" forged result lines in an answer a model reads, and bidi controls can reorder what it sees. A
// path holding a control, format (bidi, zero-width, tag) or line-separator character is shown in
// double quotes with those characters escaped (JSON style, \u for the rest); any other path as is.

/** Characters that must never reach a text answer raw: C0/C1 controls, format characters, line and paragraph separators. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "\\": "\\\\" };

/** `path` for a text answer: as is when plain, else quoted with every unsafe character escaped. */
export function shownPath(path: string): string {
  // A plain path that starts with a quote is quoted too, so a quoted path always means "escaped".
  if (!UNSAFE.test(path) && !path.startsWith('"')) return path;
  let shown = '"';
  for (const char of path) shown += NAMED[char] ?? (UNSAFE.test(char) ? escapeCodePoint(char.codePointAt(0)!) : char);
  return `${shown}"`;
}

function escapeCodePoint(code: number): string {
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\u{${code.toString(16)}}`;
}
