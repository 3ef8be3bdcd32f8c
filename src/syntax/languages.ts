// Per-language pattern settings as data: the metavariable character and the context ladder.
// A fragment is parsed inside each scaffold in turn; the first parse without ERROR/MISSING wins.

export type ContextName = "statement" | "expression" | "class member" | "declaration";

interface Scaffold {
  context: ContextName;
  /** Text before the fragment; the fragment itself starts right after it. */
  before: string;
  /** Text after the fragment. A leading ";" lets a statement fragment omit its terminator. */
  after: string;
}

export interface PatternLanguage {
  /**
   * Stands in for `$` where `$` is not an identifier character, as ast-grep does; the substitute
   * must be one the grammar lexes as part of an identifier.
   */
  metaChar: string;
  /**
   * Wraps each metavariable where the grammar has no identifier to stand in for it: in JSON and TOML
   * `$V` is written `"µV"`, a string, which parses wherever a value or a key may stand.
   */
  quote?: string;
  /**
   * Written after a quoted `$$$` run where it stands among an object's key-value pairs, so it parses
   * as a pair (`"µµµR": 0` in JSON): a bare string there is no pair. Tried when the pattern does not
   * parse with the run as a plain string (which it must be among an array's values).
   */
  runAsPair?: string;
  /**
   * Where no character can stand in for `$` inside a name (Gleam names are `[a-z_][a-z0-9_]*`, and
   * `_A` lexes as a discard then a constructor), each metavariable is written as a lower-case name
   * with this prefix: `$A` → `zsgm_a`, `$$A` → `zsgm2_a`, `$$$B` → `zsgm3_b`. A lower-case name
   * parses wherever a value, a variable, a function or a type variable may stand.
   */
  namePrefix?: string;
  ladder: readonly Scaffold[];
}

const statement = (before: string, after: string): Scaffold => ({ context: "statement", before, after });
const expression = (before: string, after: string): Scaffold => ({ context: "expression", before, after });
const member = (before: string, after: string): Scaffold => ({ context: "class member", before, after });
const declaration = (before = "", after = ""): Scaffold => ({ context: "declaration", before, after });

/** Statement-in-a-function for C-family grammars, with and without the caller's `;`. */
function braced(fn: string, close = "\n}"): Scaffold[] {
  return [statement(`${fn} {\n`, close), statement(`${fn} {\n`, `;${close}`)];
}

const javascriptLike: PatternLanguage = {
  metaChar: "$",
  ladder: [
    statement("", ""),
    ...braced("function __sg()"),
    expression("(\n", "\n)"),
    member("class __Sg {\n", "\n}"),
    declaration(),
  ],
};

const PATTERN_LANGUAGES: Record<string, PatternLanguage> = {
  javascript: javascriptLike,
  typescript: javascriptLike,
  tsx: javascriptLike,
  python: {
    metaChar: "µ",
    ladder: [statement("", ""), expression("__sg = (\n", "\n)"), member("class __Sg:\n    ", ""), declaration()],
  },
  // Go ends every top-level declaration with a newline: without the last one, the parse has it missing.
  go: {
    metaChar: "µ",
    ladder: [
      statement("package main\nfunc __sg() {\n", "\n}\n"),
      expression("package main\nvar __sg = ", "\n"),
      member("package main\ntype __Sg struct {\n", "\n}\n"),
      declaration("package main\n", ""),
    ],
  },
  c: {
    metaChar: "µ",
    ladder: [
      ...braced("void __sg(void)"),
      expression("int __sg = ", ";"),
      member("struct __Sg {\n", "\n};"),
      declaration(),
    ],
  },
  cpp: {
    metaChar: "µ",
    ladder: [
      ...braced("void __sg()"),
      expression("auto __sg = ", ";"),
      member("struct __Sg {\n", "\n};"),
      declaration(),
    ],
  },
  rust: {
    metaChar: "µ",
    ladder: [
      ...braced("fn __sg()"),
      expression("const __SG: () = ", ";"),
      member("impl __Sg {\n", "\n}"),
      declaration(),
    ],
  },
  java: {
    metaChar: "$",
    ladder: [
      ...braced("class __Sg { void __sg()", "\n} }"),
      expression("class __Sg { Object __sg = ", "; }"),
      member("class __Sg {\n", "\n}"),
      declaration(),
    ],
  },
  c_sharp: {
    metaChar: "µ",
    ladder: [
      ...braced("class __Sg { void __sg()", "\n} }"),
      expression("class __Sg { object __sg = ", "; }"),
      member("class __Sg {\n", "\n}"),
      declaration(),
    ],
  },
  kotlin: {
    metaChar: "µ",
    ladder: [
      statement("fun __sg() {\n", "\n}"),
      expression("val __sg = ", "\n"),
      member("class __Sg {\n", "\n}"),
      declaration(),
    ],
  },
  swift: {
    metaChar: "µ",
    ladder: [
      statement("func __sg() {\n", "\n}"),
      expression("let __sg = ", "\n"),
      member("class __Sg {\n", "\n}"),
      declaration(),
    ],
  },
  scala: {
    metaChar: "$",
    ladder: [
      statement("def __sg() = {\n", "\n}"),
      expression("val __sg = ", "\n"),
      member("class __Sg {\n", "\n}"),
      declaration(),
    ],
  },
  dart: {
    metaChar: "$",
    ladder: [
      ...braced("void __sg()"),
      expression("var __sg = ", ";"),
      member("class __Sg {\n", "\n}"),
      declaration(),
    ],
  },
  php: {
    metaChar: "µ",
    ladder: [
      ...braced("<?php\nfunction __sg()"),
      expression("<?php\n$__sg = ", ";"),
      member("<?php\nclass __Sg {\n", "\n}"),
      declaration("<?php\n", ""),
    ],
  },
  ruby: {
    metaChar: "µ",
    ladder: [statement("", ""), expression("__sg = (\n", "\n)"), member("class SgScaffold\n", "\nend"), declaration()],
  },
  lua: {
    metaChar: "µ",
    ladder: [statement("", ""), expression("local __sg = ", "\n"), declaration()],
  },
  bash: {
    metaChar: "µ",
    ladder: [statement("", ""), declaration()],
  },
  // Languages added with issue 24. Where statements, expressions and members read alike, one
  // top-level context is enough; the rest get the scaffold their grammar needs.
  clojure: { metaChar: "µ", ladder: [expression("", "")] },
  elixir: { metaChar: "µ", ladder: [statement("", ""), member("defmodule SgScaffold do\n", "\nend")] },
  elm: { metaChar: "µ", ladder: [declaration("module Sg exposing (..)\n", ""), expression("module Sg exposing (..)\nsg = ", "")] },
  // Declarations, expressions, then a statement of a `do` block (`$V <- getLine`, `let $N = $E`)
  // and an alternative of a `case` (`Just $Y -> $E`), which neither of the others takes.
  haskell: { metaChar: "µ", ladder: [declaration(), expression("sg = ", ""), statement("sg = do\n  ", "\n"), statement("sg = case sg of\n  ", "\n")] },
  html: { metaChar: "µ", ladder: [declaration()] },
  nix: { metaChar: "_", ladder: [expression("", ""), member("{ ", " }")] },
  perl: { metaChar: "_", ladder: [statement("", ""), declaration()] },
  r: { metaChar: "µ", ladder: [statement("", ""), declaration()] },
  svelte: { metaChar: "µ", ladder: [declaration()] },
  vue: { metaChar: "µ", ladder: [declaration()] },
  xml: { metaChar: "µ", ladder: [declaration()] },
  yaml: { metaChar: "µ", ladder: [declaration()] },
  zig: { metaChar: "_", ladder: [declaration(), ...braced("fn sg() void")] },
  // A declaration in a rule first (`color: $C`), then a value in a declaration (`rgba($R, $G, $B,
  // $A)`, `calc($E)`: a function call is no declaration), then a rule; `_` stands in (CSS names take it).
  css: { metaChar: "_", ladder: [member("a {\n", "\n}"), member("a {\n", ";\n}"), expression("a {\n  b: ", ";\n}"), declaration()] },
  scss: { metaChar: "_", ladder: [member("a {\n", "\n}"), member("a {\n", ";\n}"), expression("a {\n  b: ", ";\n}"), declaration()] },
  // Body items (`bucket = $B`, blocks), then expressions (`var.$X`).
  hcl: { metaChar: "_", ladder: [declaration(), expression("sg = ", "\n")] },
  json: { metaChar: "µ", quote: '"', runAsPair: ": 0", ladder: [expression("", ""), member("{", "}")] },
  toml: { metaChar: "µ", quote: '"', runAsPair: " = 0", ladder: [declaration("", "\n"), expression("sg = ", "\n")] },
  // The block grammar: headings, list items, paragraphs, code blocks (their text is one leaf each).
  // A block ends with its line break, so the fragment gets one.
  markdown: { metaChar: "µ", ladder: [declaration("", "\n")] },
  gleam: {
    metaChar: "µ",
    namePrefix: "zsgm",
    ladder: [statement("fn sg() {\n", "\n}\n"), declaration(), expression("const sg = ", "\n")],
  },
  solidity: {
    metaChar: "$",
    ladder: [...braced("contract Sg { function sg() public", "\n} }"), expression("contract Sg { function sg() public { x = ", "; } }"), member("contract Sg {\n", "\n}"), declaration()],
  },
};

export function patternLanguage(id: string): PatternLanguage {
  const found = PATTERN_LANGUAGES[id];
  if (!found) throw new Error(`No pattern settings for grammar ${id}; add it to src/syntax/languages.ts.`);
  return found;
}
