// Cases where ast-grep's plain top-level parse and the context ladder should agree: each pattern
// run by the real ast-grep CLI and by sidecar on the same file must find the same ranges.

export interface DifferentialCase {
  language: string;
  /** ast-grep's name for the language. */
  astGrepLanguage: string;
  file: string;
  code: string;
  patterns: string[];
}

export const DIFFERENTIAL_CASES: DifferentialCase[] = [
  {
    language: "javascript",
    astGrepLanguage: "javascript",
    file: "a.js",
    code: `const a = foo(1, 2);\nfoo(bar);\n// foo(1, 2)\nconst s = "foo(1, 2)";\nif (x) { console.log(x, y); }\nconsole.log( x , /* c */ y );\nlet z = a + a;\nlet w = a + b;\n`,
    patterns: ["foo($A, $B)", "foo($$$ARGS)", "console.log($$$)", "$X + $X", "if ($C) { $$$BODY }", "const $N = $V"],
  },
  {
    language: "typescript",
    astGrepLanguage: "typescript",
    file: "a.ts",
    code: `function f(a: number): string { return String(a); }\nconst x: Array<string> = [];\nx.push("a");\nx.push(y, z);\ninterface I { a: number }\n`,
    patterns: ["function $F($$$P): $R { $$$B }", "$O.push($V)", "String($A)", "const $N: $T = $V"],
  },
  {
    language: "python",
    astGrepLanguage: "python",
    file: "a.py",
    code: `import os\nprint(os.path.join(a, b))\nprint("print(1)")\n# print(2)\nx = x + 1\ny = x + 1\ndef f(a, b):\n    return a\nraise ValueError(a) from err\nraise KeyError()\n`,
    // `raise $E($$$A)` also matches `raise E(a) from err`: smart strictness skips trailing nodes.
    patterns: ["print($A)", "os.path.join($$$P)", "$X = $X + 1", "def $F($$$P):\n    $$$B", "return $R", "raise $E($$$A)"],
  },
  {
    language: "go",
    astGrepLanguage: "go",
    file: "a.go",
    code: `package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hi")\n\tfmt.Println(a, b)\n\tif err != nil {\n\t\treturn err\n\t}\n}\n`,
    patterns: ["if err != nil { $$$B }", "return $E"],
  },
  {
    language: "rust",
    astGrepLanguage: "rust",
    file: "a.rs",
    code: `fn main() {\n    let v = vec![1, 2];\n    let x = foo.unwrap();\n    let y = bar(1).unwrap();\n    println!("{}", x);\n}\n`,
    patterns: ["$E.unwrap()", "let $N = $V;", "fn $F() { $$$B }"],
  },
  {
    language: "c",
    astGrepLanguage: "c",
    file: "a.c",
    code: `#include <stdlib.h>\nint main(void) {\n  char *p = malloc(10);\n  free(p);\n  free(q);\n  return 0;\n}\n`,
    patterns: ["return $R;", "char *$N = $V;"],
  },
  {
    language: "cpp",
    astGrepLanguage: "cpp",
    file: "a.cpp",
    code: `#include <vector>\nint main() {\n  std::vector<int> v;\n  v.push_back(1);\n  v.push_back(x + 1);\n  return v.size();\n}\n`,
    patterns: ["$V.push_back($X)", "return $R;", "$A + 1"],
  },
  {
    // `a < b) || (c < d` read as template arguments threw the older tree-sitter-cpp off for the rest
    // of the file: it found 2 of these 3 (in imgui.cpp, 228 of 261).
    language: "cpp",
    astGrepLanguage: "cpp",
    file: "clip.cpp",
    code:
      "void f(const ImVec2* clip_min, ImVec2 pos)\n{\n    bool need = false;\n    if (clip_min)\n        need |= (pos.x < clip_min->x) || (pos.y < clip_min->y);\n" +
      '    IM_ASSERT(need);\n}\n\nvoid g(int n)\n{\n    IM_ASSERT(n > 0);\n}\n\nvoid h(ImGuiWindow* window)\n{\n    IM_ASSERT(window != NULL && "window");\n}\n',
    patterns: ["IM_ASSERT($$$A)"],
  },
  {
    // A metavariable in statement position stands for any statement, not only an expression one.
    language: "c",
    astGrepLanguage: "c",
    file: "s.c",
    code: `void f(int n) {\n  if (n) g(n);\n  if (n) { g(n); }\n  if (n) return;\n  while (n) n--;\n  while (n) { n--; }\n  for (i = 0; i < n; i++) g(i);\n  for (i = 0; i < n; i++) { g(i); }\n}\n`,
    patterns: ["if ($C) $S", "while ($C) $BODY", "for ($I; $C; $U) $BODY"],
  },
  {
    language: "cpp",
    astGrepLanguage: "cpp",
    file: "s.cpp",
    code: `void f(int n) {\n  if (n) g(n);\n  if (n) { g(n); }\n  if (n) return;\n  while (n) n--;\n  while (n) { n--; }\n  for (int i = 0; i < n; i++) g(i);\n  for (int i = 0; i < n; i++) { g(i); }\n}\n`,
    patterns: ["if ($C) $S", "while ($C) $BODY", "for (int $I = $S; $C; $U) $BODY"],
  },
  {
    language: "java",
    astGrepLanguage: "java",
    file: "S.java",
    code: `class S {\n  void f(int n) {\n    if (n > 0) g(n);\n    if (n > 1) { g(n); }\n    if (n > 2) return;\n    while (n > 0) n--;\n    while (n > 0) { n--; }\n    for (int i = 0; i < n; i++) g(i);\n    for (int i = 0; i < n; i++) { g(i); }\n  }\n}\n`,
    patterns: ["if ($C) $S", "while ($C) $BODY", "for (int $I = $S; $C; $U) $BODY"],
  },
  {
    language: "java",
    astGrepLanguage: "java",
    file: "A.java",
    code: `class A {\n  void f() {\n    System.out.println("x");\n    System.out.println(a + b);\n    if (a == null) { return; }\n  }\n}\n`,
    patterns: ["System.out.println($A)", "$X + $Y", "if ($A == null) { $$$B }"],
  },
  {
    language: "c_sharp",
    astGrepLanguage: "csharp",
    file: "A.cs",
    code: `class A {\n  void F() {\n    Console.WriteLine("x");\n    Console.WriteLine(a, b);\n    var y = a ?? b;\n  }\n}\n`,
    patterns: ["Console.WriteLine($$$A)", "$A ?? $B"],
  },
  {
    language: "kotlin",
    astGrepLanguage: "kotlin",
    file: "a.kt",
    code: `fun main() {\n    println("hi")\n    val x = listOf(1, 2)\n    x.forEach { println(it) }\n}\n`,
    patterns: ["println($A)", "listOf($$$A)"],
  },
  {
    language: "ruby",
    astGrepLanguage: "ruby",
    file: "a.rb",
    code: `def f(a)\n  puts a\n  puts "b"\n  a.each { |x| puts x }\nend\n`,
    patterns: ["puts $A", "def $F($$$P)\n  $$$B\nend"],
  },
  {
    language: "dart",
    astGrepLanguage: "dart",
    file: "a.dart",
    code: `import "a.dart";\nclass A {\n  void f() {\n    print(a);\n  }\n}\nvoid g() {}\nint h(int x) => x + 1;\n`,
    // Not "int $F(int $X) => $E;": this Dart grammar makes a top-level function two sibling nodes
    // (signature, body); ast-grep matches the pair at top level, the ladder only a local function.
    patterns: ["class $C { $$$B }"],
  },
  {
    language: "lua",
    astGrepLanguage: "lua",
    file: "a.lua",
    code: `local x = 1\nprint(x)\nprint("a", x)\nfunction f(a)\n  return a\nend\n`,
    patterns: ["print($$$A)", "return $R"],
  },
  {
    language: "php",
    astGrepLanguage: "php",
    file: "a.php",
    code: `<?php\necho strlen($s);\n$y = strlen("abc");\nfunction f($a) { return $a; }\n`,
    patterns: ["strlen($A)", "return $R;"],
  },
  // Issue 41, section 3: JSON pairs and HTML elements by one attribute, in the shapes ast-grep reads.
  {
    language: "json",
    astGrepLanguage: "json",
    file: "a.json",
    code: `{\n  "name": "x",\n  "deps": { "a": "^1", "b": 2 },\n  "list": ["name", 1],\n  "nested": { "name": { "deep": true } }\n}\n`,
    patterns: ["$K: $V", '{"name": $V}', "[$$$X]", "{$$$P}"],
  },
  {
    language: "html",
    astGrepLanguage: "html",
    file: "a.html",
    code: `<div class="a"><a href="/home" title="t">Home</a></div>\n<!-- <a href="c">x</a> -->\n<img src="p.png" alt="p">\n<a href="/b">B</a>\n<img src="q.png">\n`,
    patterns: ["<a href=$H $$$A>$$$C</a>", "<img src=$S $$$A>", "<img src=$S alt=$A>", "<img src=$S>", "<a href=$H>$$$C</a>"],
  },
  {
    language: "haskell",
    astGrepLanguage: "haskell",
    file: "A.hs",
    code: "module A where\n\nmain = do\n  line <- getLine\n  let n = length line\n  print n\n\nf x = case x of\n  Just y -> y\n  Nothing -> 0\n-- let m = 1\n",
    patterns: ["let $N = $E", "case $X of $$$A", "print $X"],
  },
];

/**
 * Patterns that ast-grep's plain top-level parse cannot place but the same pattern inside a context
 * (ast-grep's `context` + `selector` rule) can: sidecar's ladder must find what that rule finds.
 * ast-grep's Dart grammar is newer, with call and member nodes; sidecar's (the newest that loads in
 * web-tree-sitter 0.27) lays a call out flat, as an identifier and selectors side by side.
 */
export const CONTEXT_CASES: Array<DifferentialCase & { context: string; selector: string }> = [
  {
    language: "go",
    astGrepLanguage: "go",
    file: "a.go",
    code: "package main\n\ntype User struct {\n\tName string\n\tAge  int\n\tNick string `json:\"n\"`\n}\n",
    patterns: ["$F string"],
    context: "type T struct { PATTERN }",
    selector: "field_declaration",
  },
  {
    language: "dart",
    astGrepLanguage: "dart",
    file: "a.dart",
    code:
      "void f() {\n  foo(1);\n  final x = foo(2);\n  bar(foo(4));\n  foo(5).then((v) => v);\n  var l = [foo(6)];\n  if (foo(7)) {}\n" +
      "  a.dispose();\n  this.b.dispose();\n  c.d(1).e.dispose();\n  x?.dispose();\n}\nint g() {\n  return foo(3);\n}\n",
    patterns: ["foo($A)", "$O.dispose()"],
    context: "void f() { PATTERN; }",
    selector: "call_expression",
  },
  // Issue 41, section 3: a CSS function call in a declaration's value, a Haskell case alternative,
  // Dart statements with their `;`.
  {
    language: "css",
    astGrepLanguage: "css",
    file: "a.css",
    code: "a { color: rgba(0, 0, 0, 0.5); width: calc(100% - 10px); background: url(x.png) no-repeat; }\n.b { transform: translate(10px, 20px) rotate(3deg); }\n/* calc(1px) */\n.c { content: \"calc(2px)\"; margin: calc(1px + 2px) calc(3px); }\n",
    patterns: ["calc($E)", "translate($X, $Y)", "rgba($R, $G, $B, $A)", "rotate($D)", "url($U)"],
    context: "a { b: PATTERN; }",
    selector: "call_expression",
  },
  {
    language: "haskell",
    astGrepLanguage: "haskell",
    file: "A.hs",
    code: "module A where\n\nf x = case x of\n  Just y -> y\n  Nothing -> 0\n\ng m = case m of\n  Just (a, b) -> a + b\n  _ -> 1\n-- Just z -> z\n",
    patterns: ["Just $Y -> $E", "Nothing -> $E", "$P -> $E"],
    context: "f = case x of\n  PATTERN\n",
    selector: "alternative",
  },
  {
    language: "dart",
    astGrepLanguage: "dart",
    file: "a.dart",
    code: "int h() { return 4; }\nint k() {\n  return 5 ;\n}\nvoid f() {\n  return;\n}\n// return 6;\n",
    patterns: ["return $R"],
    context: "int f() { PATTERN; }",
    selector: "return_statement",
  },
  {
    language: "dart",
    astGrepLanguage: "dart",
    file: "a.dart",
    code: "void f() {\n  var x = 2;\n  final y = g(3);\n  int z = 1;\n}\n// var w = 6;\n",
    patterns: ["var $X = $Y", "final $X = $Y", "int $X = $Y"],
    context: "void f() { PATTERN; }",
    selector: "local_variable_declaration",
  },
];

/**
 * Patterns the ladder exists for: ast-grep's plain top-level parse reads them as something else (a
 * Go type conversion, a C macro type, a Dart function signature) and finds nothing; sidecar must
 * find the calls. The test asserts both halves, so a change on either side is noticed.
 */
export const LADDER_ONLY_CASES: Array<{ language: string; astGrepLanguage: string; file: string; code: string; pattern: string; expected: string[] }> = [
  {
    language: "go",
    astGrepLanguage: "go",
    file: "a.go",
    code: `package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hi")\n\tfmt.Println(a, b)\n}\n`,
    pattern: "fmt.Println($$$A)",
    expected: ['fmt.Println("hi")', "fmt.Println(a, b)"],
  },
  {
    language: "c",
    astGrepLanguage: "c",
    file: "a.c",
    code: `int main(void) {\n  char *p = malloc(10);\n  free(p);\n  return 0;\n}\n`,
    pattern: "malloc($N)",
    expected: ["malloc(10)"],
  },
  {
    language: "dart",
    astGrepLanguage: "dart",
    file: "a.dart",
    code: `class A {\n  void f() {\n    controller.dispose();\n    print(a);\n  }\n}\n`,
    pattern: "print($A)",
    expected: ["print(a)"],
  },
  {
    language: "dart",
    astGrepLanguage: "dart",
    file: "a.dart",
    code: `void f() {\n  if (c != null) c.dispose();\n  if (c != null) d.dispose();\n}\n`,
    pattern: "if ($X != null) $X.dispose()",
    // The whole if statement, its `;` included, as ast-grep reports a statement it matches.
    expected: ["if (c != null) c.dispose();"],
  },
];

/**
 * A pattern against the ast-grep rule that says the same where no context selects the node (a
 * Haskell `do` statement is a `bind`, as the declaration around it is): the ranges must agree.
 */
export const PATTERN_RULE_CASES: Array<{ language: string; file: string; code: string; pattern: string; rule: string }> = [
  ...["$V <- $E", "$V <- getLine"].map((pattern) => ({
    language: "haskell",
    file: "A.hs",
    code: "module A where\n\nmain = do\n  line <- getLine\n  putStrLn line\n\ng m = do\n  r <- readFile m\n  s <- getLine\n  return (r ++ s)\n-- x <- getLine\n",
    pattern,
    rule: pattern === "$V <- $E" ? "rule: {kind: bind, inside: {kind: do}}" : "rule: {kind: bind, inside: {kind: do}, has: {field: expression, regex: ^getLine$}}",
  })),
];
