// Where a file's comments and literals (strings, characters) lie, found by a small lexer before any
// parse: a pattern's keyword or identifier can only be matched where it stands in code, so a file
// whose every occurrence of one lies in a comment or a string need not be parsed. Rust only for now:
// its doc comments (`/// let x = y.unwrap();`) repeat the code's words, and a quarter of the bytes
// tokio's files held for `$X.unwrap()` were files with `unwrap` in comments alone.
// The lexer is conservative: whatever it does not model for certain (a block comment, which Rust
// nests; a raw string; a literal left open) makes it give up, and the whole text then counts as code.

/** Languages with a lexer here. */
const LEXERS: Record<string, (text: string) => number[] | undefined> = { rust: rustNonCode };

export function hasCodeLexer(language: string): boolean {
  return language in LEXERS;
}

/**
 * The spans of `text` that are not code (comments, strings, characters), as sorted
 * [start, end) pairs flattened; undefined when the language has no lexer or the lexer gave up.
 */
export function nonCodeSpans(language: string, text: string): number[] | undefined {
  return LEXERS[language]?.(text);
}

/** Whether `offset` lies in code, given nonCodeSpans' answer. */
export function inCode(spans: readonly number[], offset: number): boolean {
  // The last span starting at or before the offset.
  let lo = 0;
  let hi = spans.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[2 * mid]! <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 || offset >= spans[2 * (lo - 1) + 1]!;
}

const QUOTE = 34; // "
const APOSTROPHE = 39; // '
const SLASH = 47; // /
const STAR = 42; // *
const BACKSLASH = 92; // \
const NEWLINE = 10;

/**
 * Rust: `//` comments to the line's end; `"` strings (which may span lines) with `\` escapes, byte
 * strings (`b"`) alike; characters (`'x'`, `'\n'`, `'\u{1F600}'`, `b'"'`) told apart from lifetimes
 * and labels (`'a`, `'outer:`). Gives up on `/*`, on a raw string (`r"`, `r#"`, `br"`), on an
 * escape or a character the grammar does not read as one, and on a script's front matter (a `---`
 * block of TOML at the top, after an optional `#!` line).
 */
function rustNonCode(text: string): number[] | undefined {
  const firstLine = text.startsWith("#!") ? text.indexOf("\n") + 1 : 0;
  if (/^\s*---/.test(text.slice(firstLine, firstLine + 200))) return undefined;
  const spans: number[] = [];
  const length = text.length;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === SLASH) {
      const next = text.charCodeAt(i + 1);
      if (next === STAR) return undefined;
      if (next === SLASH) {
        const end = text.indexOf("\n", i + 2);
        const stop = end === -1 ? length : end;
        spans.push(i, stop);
        i = stop;
        continue;
      }
      i++;
      continue;
    }
    if (c === QUOTE) {
      const before = text.charCodeAt(i - 1);
      if (before === 114 /* r */ || before === 35 /* # */) return undefined;
      const end = closingQuote(text, i + 1);
      if (end === -1) return undefined;
      spans.push(i, end + 1);
      i = end + 1;
      continue;
    }
    if (c === APOSTROPHE) {
      const end = characterEnd(text, i);
      if (end === -1) return undefined;
      if (end > i + 1) spans.push(i, end);
      i = end;
      continue;
    }
    i++;
  }
  return spans;
}

/** The index of the `"` that closes a string whose text starts at `from`; -1 when none does or an escape is not one. */
function closingQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) {
      const end = escapeEnd(text, i);
      if (end === -1) return -1;
      i = end - 1;
    } else if (c === QUOTE) return i;
  }
  return -1;
}

/**
 * Past the escape at `at` (a `\`), as the grammar reads one: `\x` and two hex digits, `\u{…}` or
 * `\u` and four, or any other one character; -1 otherwise. Where the grammar does not read an
 * escape, its recovery splits the literal in ways this lexer does not follow, so the caller gives up.
 */
function escapeEnd(text: string, at: number): number {
  const kind = text[at + 1];
  if (kind === undefined) return -1;
  if (kind === "x") return /^[0-9a-fA-F]{2}/.test(text.slice(at + 2, at + 4)) ? at + 4 : -1;
  if (kind === "u") {
    const braced = /^\{[0-9a-fA-F]+\}/.exec(text.slice(at + 2, at + 12));
    if (braced) return at + 2 + braced[0].length;
    return /^[0-9a-fA-F]{4}/.test(text.slice(at + 2, at + 6)) ? at + 6 : -1;
  }
  return at + 2;
}

/**
 * At a `'`: the end of a character literal, or `start + 1` for a lifetime or a label (`'a`,
 * `'outer`); -1 for anything else (`''`, an escape that is not one, a `'` before a space and no
 * closing `'`), which is not Rust the grammar reads, so the caller gives up.
 */
function characterEnd(text: string, start: number): number {
  const first = text.charCodeAt(start + 1);
  if (first === BACKSLASH) {
    const end = escapeEnd(text, start + 1);
    return end !== -1 && text.charCodeAt(end) === APOSTROPHE ? end + 1 : -1;
  }
  if (Number.isNaN(first) || first === APOSTROPHE || first === NEWLINE) return -1;
  // A character outside the basic plane is two UTF-16 units.
  const width = first >= 0xd800 && first <= 0xdbff ? 2 : 1;
  if (text.charCodeAt(start + 1 + width) === APOSTROPHE) return start + 2 + width;
  return isIdentifierStart(first) ? start + 1 : -1;
}

function isIdentifierStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code >= 0x80;
}
