// One fixture per embedded language: a pattern it must find, and a rewrite it must stage. The
// languages ast-grep also has name its id there, for a differential check of the same search.

export interface LanguageCase {
  language: string;
  file: string;
  code: string;
  pattern: string;
  /** The first line of each match's text, in order. */
  expected: string[];
  rewrite: string;
  /** The file after the rewrite. */
  rewritten: string;
  /** ast-grep's name for the language, when it has one. */
  astGrep?: string;
}

export const LANGUAGE_CASES: LanguageCase[] = [
  { language: "bash", file: "a.sh", code: "echo hi\nls -la\necho $HOME\n", pattern: "echo $A", expected: ["echo hi", "echo $HOME"], rewrite: "printf '%s\\n' $A", rewritten: "printf '%s\\n' hi\nls -la\nprintf '%s\\n' $HOME\n", astGrep: "bash" },
  { language: "c", file: "a.c", code: "int main(void) {\n  free(p);\n  return 0;\n}\n", pattern: "free($P);", expected: ["free(p);"], rewrite: "xfree($P);", rewritten: "int main(void) {\n  xfree(p);\n  return 0;\n}\n", astGrep: "c" },
  { language: "c_sharp", file: "A.cs", code: "class A {\n  void F() {\n    Console.WriteLine(x);\n  }\n}\n", pattern: "Console.WriteLine($A)", expected: ["Console.WriteLine(x)"], rewrite: "Log($A)", rewritten: "class A {\n  void F() {\n    Log(x);\n  }\n}\n", astGrep: "csharp" },
  { language: "clojure", file: "a.clj", code: "(defn f [x]\n  (println x))\n(println 1)\n", pattern: "(println $A)", expected: ["(println x)", "(println 1)"], rewrite: "(log $A)", rewritten: "(defn f [x]\n  (log x))\n(log 1)\n" },
  { language: "cpp", file: "a.cpp", code: "int main() {\n  v.push_back(1);\n}\n", pattern: "$V.push_back($X)", expected: ["v.push_back(1)"], rewrite: "$V.emplace_back($X)", rewritten: "int main() {\n  v.emplace_back(1);\n}\n", astGrep: "cpp" },
  { language: "css", file: "a.css", code: "a {\n  color: red;\n}\n.b {\n  color: blue;\n  margin: 0;\n}\n", pattern: "$S { color: $C; }", expected: ["a {"], rewrite: "$S { background: $C; }", rewritten: "a { background: red;\n}\n.b {\n  color: blue;\n  margin: 0;\n}\n", astGrep: "css" },
  { language: "dart", file: "a.dart", code: "void f() {\n  print(a);\n}\n", pattern: "print($A)", expected: ["print(a)"], rewrite: "log($A)", rewritten: "void f() {\n  log(a);\n}\n" },
  { language: "elixir", file: "a.ex", code: "defmodule M do\n  def f(x), do: IO.puts(x)\nend\n", pattern: "IO.puts($A)", expected: ["IO.puts(x)"], rewrite: "Logger.info($A)", rewritten: "defmodule M do\n  def f(x), do: Logger.info(x)\nend\n", astGrep: "elixir" },
  { language: "elm", file: "A.elm", code: "module A exposing (..)\n\nf x =\n    Debug.log \"x\" x\n", pattern: "Debug.log $A $B", expected: ['Debug.log "x" x'], rewrite: "$B", rewritten: "module A exposing (..)\n\nf x =\n    x\n" },
  // ast-grep has no gleam grammar.
  { language: "gleam", file: "app.gleam", code: "pub fn main() {\n  io.debug(1)\n  io.debug(x)\n}\n", pattern: "io.debug($A)", expected: ["io.debug(1)", "io.debug(x)"], rewrite: "io.println($A)", rewritten: "pub fn main() {\n  io.println(1)\n  io.println(x)\n}\n" },
  { language: "go", file: "a.go", code: "package main\n\nfunc f() {\n\tfmt.Println(a)\n}\n", pattern: "fmt.Println($A)", expected: ["fmt.Println(a)"], rewrite: "log.Println($A)", rewritten: "package main\n\nfunc f() {\n\tlog.Println(a)\n}\n" },
  { language: "haskell", file: "a.hs", code: "main = do\n  print (f x)\n  print 2\n", pattern: "print $A", expected: ["print (f x)", "print 2"], rewrite: "putStrLn (show $A)", rewritten: "main = do\n  putStrLn (show (f x))\n  putStrLn (show 2)\n", astGrep: "haskell" },
  { language: "hcl", file: "main.tf", code: "resource \"aws_s3_bucket\" \"b\" {\n  bucket = \"x\"\n  acl    = var.acl\n}\n", pattern: "bucket = $B", expected: ['bucket = "x"'], rewrite: "bucket_prefix = $B", rewritten: "resource \"aws_s3_bucket\" \"b\" {\n  bucket_prefix = \"x\"\n  acl    = var.acl\n}\n", astGrep: "hcl" },
  { language: "html", file: "a.html", code: "<div><img src=\"a.png\"><p>x</p></div>\n", pattern: "<p>$A</p>", expected: ["<p>x</p>"], rewrite: "<span>$A</span>", rewritten: "<div><img src=\"a.png\"><span>x</span></div>\n", astGrep: "html" },
  { language: "java", file: "A.java", code: "class A {\n  void f() {\n    System.out.println(x);\n  }\n}\n", pattern: "System.out.println($A)", expected: ["System.out.println(x)"], rewrite: "log.info($A)", rewritten: "class A {\n  void f() {\n    log.info(x);\n  }\n}\n", astGrep: "java" },
  { language: "javascript", file: "a.js", code: "console.log(a, b);\n", pattern: "console.log($$$A)", expected: ["console.log(a, b)"], rewrite: "logger.debug($$$A)", rewritten: "logger.debug(a, b);\n", astGrep: "javascript" },
  { language: "json", file: "package.json", code: "{\n  \"name\": \"x\",\n  \"version\": \"1.0.0\",\n  \"deps\": { \"version\": \"2\" }\n}\n", pattern: "\"version\": $V", expected: ['"version": "1.0.0"', '"version": "2"'], rewrite: "\"version\": \"3.0.0\"", rewritten: "{\n  \"name\": \"x\",\n  \"version\": \"3.0.0\",\n  \"deps\": { \"version\": \"3.0.0\" }\n}\n" },
  { language: "kotlin", file: "a.kt", code: "fun main() {\n    println(x)\n}\n", pattern: "println($A)", expected: ["println(x)"], rewrite: "log($A)", rewritten: "fun main() {\n    log(x)\n}\n", astGrep: "kotlin" },
  { language: "lua", file: "a.lua", code: "print(x)\nlocal y = 1\n", pattern: "print($A)", expected: ["print(x)"], rewrite: "log($A)", rewritten: "log(x)\nlocal y = 1\n", astGrep: "lua" },
  // ast-grep has no markdown grammar.
  { language: "markdown", file: "README.md", code: "# Title\n\n## Install\n\nRun it.\n\n## Usage\n", pattern: "## $T", expected: ["## Install", "## Usage"], rewrite: "### $T", rewritten: "# Title\n\n### Install\n\nRun it.\n\n### Usage\n" },
  { language: "nix", file: "a.nix", code: "{ pkgs }:\n{\n  buildInputs = [ pkgs.git ];\n}\n", pattern: "buildInputs = $V;", expected: ["buildInputs = [ pkgs.git ];"], rewrite: "nativeBuildInputs = $V;", rewritten: "{ pkgs }:\n{\n  nativeBuildInputs = [ pkgs.git ];\n}\n" },
  { language: "perl", file: "a.pl", code: "print \"hi\";\nmy $x = 1;\n", pattern: "print $A;", expected: ['print "hi";'], rewrite: "say $A;", rewritten: "say \"hi\";\nmy $x = 1;\n" },
  { language: "php", file: "a.php", code: "<?php\necho strlen($s);\n", pattern: "strlen($A)", expected: ["strlen($s)"], rewrite: "mb_strlen($A)", rewritten: "<?php\necho mb_strlen($s);\n", astGrep: "php" },
  { language: "python", file: "a.py", code: "print(x)\n", pattern: "print($A)", expected: ["print(x)"], rewrite: "log($A)", rewritten: "log(x)\n", astGrep: "python" },
  { language: "r", file: "a.R", code: "x <- c(1, 2)\nprint(x)\n", pattern: "print($A)", expected: ["print(x)"], rewrite: "message($A)", rewritten: "x <- c(1, 2)\nmessage(x)\n" },
  { language: "ruby", file: "a.rb", code: "puts x\n", pattern: "puts $A", expected: ["puts x"], rewrite: "logger.info $A", rewritten: "logger.info x\n", astGrep: "ruby" },
  { language: "rust", file: "a.rs", code: "fn main() {\n    let y = x.unwrap();\n}\n", pattern: "$X.unwrap()", expected: ["x.unwrap()"], rewrite: "$X.expect(\"x\")", rewritten: "fn main() {\n    let y = x.expect(\"x\");\n}\n", astGrep: "rust" },
  { language: "scala", file: "a.scala", code: "object A {\n  def f() = println(x)\n}\n", pattern: "println($A)", expected: ["println(x)"], rewrite: "log($A)", rewritten: "object A {\n  def f() = log(x)\n}\n", astGrep: "scala" },
  { language: "scss", file: "a.scss", code: "$red: #f00;\n.a {\n  color: $red;\n  &:hover { color: blue; }\n}\n", pattern: "color: $C", expected: ["color: $red;", "color: blue;"], rewrite: "background-color: $C", rewritten: "$red: #f00;\n.a {\n  background-color: $red;\n  &:hover { background-color: blue; }\n}\n" },
  { language: "solidity", file: "A.sol", code: "contract A {\n  function f(uint x) public {\n    require(x > 0, \"neg\");\n  }\n}\n", pattern: "require($C, $M)", expected: ['require(x > 0, "neg")'], rewrite: "assert($C)", rewritten: "contract A {\n  function f(uint x) public {\n    assert(x > 0);\n  }\n}\n" },
  { language: "svelte", file: "a.svelte", code: "<script>\n  let x = 1;\n</script>\n\n<p>{x}</p>\n", pattern: "<p>$A</p>", expected: ["<p>{x}</p>"], rewrite: "<span>$A</span>", rewritten: "<script>\n  let x = 1;\n</script>\n\n<span>{x}</span>\n" },
  { language: "swift", file: "a.swift", code: "func f() {\n    print(x)\n}\n", pattern: "print($A)", expected: ["print(x)"], rewrite: "log($A)", rewritten: "func f() {\n    log(x)\n}\n", astGrep: "swift" },
  { language: "toml", file: "Cargo.toml", code: "[package]\nname = \"x\"\nversion = \"1.0\"\n\n[dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\n", pattern: "version = $V", expected: ['version = "1.0"', 'version = "1"'], rewrite: "version = \"2\"", rewritten: "[package]\nname = \"x\"\nversion = \"2\"\n\n[dependencies]\nserde = { version = \"2\", features = [\"derive\"] }\n" },
  { language: "tsx", file: "a.tsx", code: "const a = <Button onClick={f} />;\n", pattern: "<Button onClick={$F} />", expected: ["<Button onClick={f} />"], rewrite: "<Button onPress={$F} />", rewritten: "const a = <Button onPress={f} />;\n", astGrep: "tsx" },
  { language: "typescript", file: "a.ts", code: "const x = a ?? b;\n", pattern: "$A ?? $B", expected: ["a ?? b"], rewrite: "$A || $B", rewritten: "const x = a || b;\n", astGrep: "typescript" },
  { language: "vue", file: "a.vue", code: "<template>\n  <p>{{ msg }}</p>\n</template>\n", pattern: "<p>$A</p>", expected: ["<p>{{ msg }}</p>"], rewrite: "<span>$A</span>", rewritten: "<template>\n  <span>{{ msg }}</span>\n</template>\n" },
  { language: "xml", file: "a.xml", code: "<project>\n  <version>1.0</version>\n</project>\n", pattern: "<version>$V</version>", expected: ["<version>1.0</version>"], rewrite: "<version>2.0</version>", rewritten: "<project>\n  <version>2.0</version>\n</project>\n" },
  { language: "yaml", file: "a.yaml", code: "name: x\nimage: nginx:1.25\nports:\n  - 80\n", pattern: "image: $I", expected: ["image: nginx:1.25"], rewrite: "image: nginx:1.27", rewritten: "name: x\nimage: nginx:1.27\nports:\n  - 80\n", astGrep: "yaml" },
  { language: "zig", file: "a.zig", code: "pub fn main() void {\n    std.debug.print(\"hi\", .{});\n}\n", pattern: "std.debug.print($A, $B)", expected: ['std.debug.print("hi", .{})'], rewrite: "log($A, $B)", rewritten: "pub fn main() void {\n    log(\"hi\", .{});\n}\n" },
];
