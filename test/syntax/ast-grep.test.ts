// ast_grep through a real run and the official MCP client: matching, scope, errors, caps.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call } from "../helpers/call.ts";

// Each test starts a run and its parse workers (or a parser); on a loaded machine, or under
// nice -n 19, that takes seconds. Speed is measured by bench/ast-grep.ts, not here.
setDefaultTimeout(30_000);

const PARSER = { resources: { parser: {} } };

const DART = `class Page {
  void close() {
    if (controller != null) controller.dispose();
    if (controller != null) other.dispose();
    // if (x != null) x.dispose();
    var s = "if (y != null) y.dispose()";
  }
}
`;

interface MatchOut {
  path: string;
  start: { line: number; column: number };
  text: string;
  bindings: Record<string, string>;
}

describe("ast_grep matches by syntax", () => {
  test("the spec's Dart guard matches what it tested, not the counter-example, strings or comments", async () => {
    await using dir = await tempDir();
    await dir.write({ "lib/page.dart": DART });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const r = await call(client, "ast_grep", { pattern: "if ($X != null) $X.dispose()", language: "dart" });
    expect(r.isError).toBe(false);
    const matches = r.data.matches as MatchOut[];
    expect(matches.map((m) => [m.path, m.start.line, m.bindings.X])).toEqual([["lib/page.dart", 3, "controller"]]);
    expect(r.text).toContain("lib/page.dart:3:5");
    expect(r.text).toContain("$X = controller");
  });

  test("a read-only surface sees ast_grep but not ast_edit or resolve; no parser, no tools", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, PARSER);
    const plan = await (await t.client("plan")).listTools();
    expect(plan.tools.map((tool) => tool.name)).toEqual(["ast_grep"]);
    const full = await (await t.client()).listTools();
    expect(full.tools.map((tool) => tool.name).sort()).toEqual(["ast_edit", "ast_grep", "resolve"]);
    await using bare = await startTestRun(dir.path, {});
    expect((await (await bare.client()).listTools()).tools).toEqual([]);
  });

  test("$ before a lower-case letter is code, and a repeated metavariable must capture equal code", async () => {
    await using dir = await tempDir();
    await dir.write({
      "a.js": "$el.hide();\nfoo.hide();\nx = a + a;\ny = a + b;\nif (user.id != null) user . /* c */ id.dispose();\nif (user.id != null) user.name.dispose();\n",
    });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const literal = await call(client, "ast_grep", { pattern: "$el.hide()", path: "a.js" });
    expect((literal.data.matches as MatchOut[]).map((m) => m.text)).toEqual(["$el.hide()"]);
    const same = await call(client, "ast_grep", { pattern: "$A + $A", path: "a.js" });
    expect((same.data.matches as MatchOut[]).map((m) => m.text)).toEqual(["a + a"]);
    const guard = await call(client, "ast_grep", { pattern: "if ($X != null) $X.dispose()", path: "a.js" });
    expect((guard.data.matches as MatchOut[]).map((m) => m.bindings.X)).toEqual(["user.id"]); // `user . id` equals `user.id`
  });

  test("a repeated metavariable matches where the grammar wraps one side (Go's append idiom)", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.go": "package main\n\nfunc f() {\n\txs = append(xs, 1)\n\tys = append(xs, 2)\n\tx = x + 1\n}\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const append = await call(client, "ast_grep", { pattern: "$X = append($X, $Y)", path: "a.go" });
    expect((append.data.matches as MatchOut[]).map((m) => m.text)).toEqual(["xs = append(xs, 1)"]);
    const increment = await call(client, "ast_grep", { pattern: "$X = $X + 1", path: "a.go" });
    expect((increment.data.matches as MatchOut[]).map((m) => m.text)).toEqual(["x = x + 1"]);
  });

  test("a comma next to an empty $$$ run is optional; keywords are skipped only before a token of the pattern", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.js": "foo(y);\nfoo(y, x);\nfoo(x, y);\nfoo(x);\nbar(async () => 1);\nbar(() => 2);\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const texts = async (pattern: string) => ((await call(client, "ast_grep", { pattern, path: "a.js" })).data.matches as MatchOut[]).map((m) => m.text);
    expect(await texts("foo($$$A, y)")).toEqual(["foo(y)", "foo(x, y)"]);
    expect(await texts("foo(y, $$$B)")).toEqual(["foo(y)", "foo(y, x)"]);
    expect(await texts("foo($$$A, y, $$$B)")).toEqual(["foo(y)", "foo(y, x)", "foo(x, y)"]);
    // As in ast-grep: `async` is not skipped where the pattern expects a whole node (the parameters).
    expect(await texts("bar(() => $B)")).toEqual(["bar(() => 2)"]);
  });

  test("equal captures of an expression 20,000 terms deep compare without exhausting the stack", async () => {
    await using dir = await tempDir();
    const deep = Array.from({ length: 20_000 }, () => "a").join("+");
    await dir.write({ "gen.js": `x = (${deep}) == (${deep});\n` });
    await using t = await startTestRun(dir.path, PARSER);
    const r = await call(await t.client(), "ast_grep", { pattern: "$X == $X", path: "gen.js" });
    expect(r.isError).toBe(false);
    expect(r.data.total).toBe(1);
  }, 30_000); // comparing 20,000-term captures takes seconds on a busy machine

  test("a file that is binary or UTF-16 is named as not searched; parse workers switched off add no note", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.py": "print(1)\n" });
    await writeFile(join(dir.path, "wide.py"), Buffer.from("print(2)\n", "utf16le"));
    await using t = await startTestRun(dir.path, { resources: { parser: { workers: 0 } } });
    const client = await t.client();
    const wide = await call(client, "ast_grep", { pattern: "print($A)", path: "wide.py" });
    expect(wide.text).toContain("wide.py: not searched: it holds NUL bytes (binary, or UTF-16 text)");
    const plain = await call(client, "ast_grep", { pattern: "print($A)", path: "a.py" });
    expect(plain.data.notes ?? []).toEqual([]);
    expect(plain.text).not.toContain("note:");
  });

  test("files that parse with errors are named, with their error-node counts, and clean files are not", async () => {
    await using dir = await tempDir();
    await dir.write({
      "ok.py": "print(1)\n",
      "broken.py": "print(2)\ndef f(:\n    print(3)\n",
      "quiet.py": "x = (\n", // broken, but without the pattern's words it is never parsed: no note
    });
    await using t = await startTestRun(dir.path, PARSER);
    const r = await call(await t.client(), "ast_grep", { pattern: "print($A)", language: "python" });
    expect(r.isError).toBe(false);
    const notes = r.data.notes as string[];
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^1 searched file\(s\) have syntax the python grammar could not parse, so matches inside those parts may be missing \(error nodes per file\): broken\.py \(\d+\)$/);
    expect(r.text).toContain("note: 1 searched file(s) have syntax");
  });

  test("an unparseable pattern is an error naming the contexts tried, never an empty search", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.py": "print(1)\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const r = await call(await t.client(), "ast_grep", { pattern: "print(1", path: "a.py" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("does not parse as python in any context");
    expect(r.text).toContain("statement");
    expect(r.text).toContain("expression");
  });

  // ast-grep 0.51 accepts `defer $F($$$A)` in these languages (its parse has an ERROR around `$F`)
  // and silently matches nothing; only a `$$$` run may sit where the grammar cannot place it.
  test.each([
    ["javascript", "a.js"],
    ["typescript", "a.ts"],
    ["python", "a.py"],
  ])("a single metavariable the %s grammar cannot place is refused, not searched", async (language, file) => {
    await using dir = await tempDir();
    await dir.write({ [file]: "defer(foo(1));\nfoo(2);\n", "b.go": "package main\nfunc f() { defer foo(1) }\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const r = await call(client, "ast_grep", { pattern: "defer $F($$$A)", language });
    expect(r.isError).toBe(true);
    expect((r.data.error as { code: string }).code).toBe("invalid_pattern");
    expect(r.text).toContain(`does not parse as ${language} in any context`);
    expect(r.text).toContain('statement: unexpected syntax at "$F($$$A)"');
    // Go has the statement: there it is found, and the other language is named as not searched.
    const all = await call(client, "ast_grep", { pattern: "defer $F($$$A)" });
    expect(all.isError).toBe(false);
    expect((all.data.matches as Array<{ path: string }>).map((m) => m.path)).toEqual(["b.go"]);
    expect((all.data.notes as string[])[0]).toContain(`the pattern does not parse as ${language} (1 file(s))`);
  });

  test("a `$$$` run the grammar holds in an ERROR or a parameter stands for itself (Solidity)", async () => {
    await using dir = await tempDir();
    await dir.write({ "A.sol": "contract A {\n  function f() public {\n    g(1);\n  }\n  function h(uint x) public returns (uint) {\n    return x;\n  }\n}\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const fn = await call(client, "ast_grep", { pattern: "function $F() public { $$$B }", language: "solidity" });
    expect((fn.data.matches as MatchOut[]).map((m) => [m.start.line, m.bindings.F, m.bindings.B])).toEqual([[2, "f", "g(1);"]]);
    // `($$$P)` parses as one parameter (a type name): the run still matches none or several.
    const any = await call(client, "ast_grep", { pattern: "function $F($$$P) public $$$M { $$$B }", language: "solidity" });
    expect((any.data.matches as MatchOut[]).map((m) => [m.bindings.F, m.bindings.P ?? "", m.bindings.M ?? ""])).toEqual([
      ["f", "", ""],
      ["h", "uint x", "returns (uint)"],
    ]);
    const contract = await call(client, "ast_grep", { pattern: "contract $C { $$$B }", language: "solidity" });
    expect((contract.data.matches as MatchOut[]).map((m) => m.bindings.C)).toEqual(["A"]);
  });

  test("language: inferred from a file, checked against the grammars", async () => {
    await using dir = await tempDir();
    await dir.write({ "src/a.rs": "fn main() { foo(1); }\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    expect((await call(client, "ast_grep", { pattern: "foo($A)", path: "src/a.rs" })).data.total).toBe(1);
    const unknown = await call(client, "ast_grep", { pattern: "foo($A)", language: "cobol" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain("dart");
  });

  describe.each([
    ["parse workers", {}],
    ["the main thread", { workers: 0 }],
  ])("without language, a directory is searched in every language the pattern parses in (%s)", (_where, parser) => {
    test("each file in its own grammar; languages where the pattern does not parse are named in notes", async () => {
      await using dir = await tempDir();
      await dir.write({
        "web/app.js": "console.log(a, b);\nconst s = 'console.log(x)';\n",
        "web/types.ts": "console.log(x as number);\n",
        "tool/run.py": "console.log(1)\n",
        "lib/main.dart": "void f() {\n  console.log(2);\n}\n",
        "util.go": "package main\nfunc f() { console.log(3) }\n",
        "README.md": "# Notes\n\n> console.log(a) in prose\n",
      });
      const markdownNote = '1 markdown file(s) were not searched: markdown is searched only when asked for, with language: "markdown" (or one such file as path)';
      await using t = await startTestRun(dir.path, { resources: { parser } });
      const r = await call(await t.client(), "ast_grep", { pattern: "console.log($$$A)" });
      expect(r.isError).toBe(false);
      const matches = (r.data.matches as Array<{ path: string; text: string }>).map((m) => `${m.path} ${m.text}`);
      expect(matches).toEqual(["lib/main.dart console.log(2)", "tool/run.py console.log(1)", "util.go console.log(3)", "web/app.js console.log(a, b)", "web/types.ts console.log(x as number)"]);
      expect(r.data.language).toBe("dart, go, javascript, python, typescript");
      expect(r.data.files_searched).toBe(5);
      // Nearly any text parses as markdown: its files join a search only when it names them.
      expect(r.data.notes).toEqual([markdownNote]);
      // `if $E != nil { $$$B }` is Go alone: the other languages are named, with their file counts, not searched in silence.
      const go = await call(await t.client(), "ast_grep", { pattern: "if $E != nil { $$$B }" });
      expect(go.isError).toBe(false);
      expect(go.data.language).toBe("go");
      expect(go.data.notes).toEqual([
        "the pattern does not parse as dart (1 file(s)), javascript (1 file(s)), python (1 file(s)), typescript (1 file(s)), so those 4 file(s) were not searched; searched as go. Pass language to search one language, and to see where the pattern's parse broke in it",
        markdownNote,
      ]);
      const none = await call(await t.client(), "ast_grep", { pattern: "console.log(" });
      expect(none.isError).toBe(true);
      expect(none.text).toContain("does not parse in any language of the files searched (dart, go, javascript, python, typescript)");
      const quote = await call(await t.client(), "ast_grep", { pattern: "> $Q" });
      expect(quote.isError).toBe(true);
      expect(quote.text).toContain('1 markdown file(s) were not searched: pass language: "markdown" to search them.');
      const named = await call(await t.client(), "ast_grep", { pattern: "> $Q", language: "markdown" });
      expect((named.data.matches as Array<{ path: string; text: string }>).map((m) => `${m.path} ${m.text}`)).toEqual(["README.md > console.log(a) in prose\n"]);
      expect(named.data.notes).toEqual([]);
    });
  });

  test("a `$$$` run stands among JSON and TOML key-value pairs", async () => {
    await using dir = await tempDir();
    await dir.write({
      "package.json": '{\n  "name": "x",\n  "version": "1.0.0",\n  "deps": { "name": "y" },\n  "files": ["a", "b"]\n}\n',
      "Cargo.toml": '[package]\nname = "x"\n\n[dependencies]\nserde = { name = "s", version = "1" }\n',
    });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const json = await call(client, "ast_grep", { pattern: '{"name": $N, $$$R}', language: "json" });
    expect(json.isError).toBe(false);
    expect((json.data.matches as Array<{ start: { line: number }; bindings: Record<string, string> }>).map((m) => [m.start.line, m.bindings])).toEqual([
      [1, { N: '"x"', R: '"version": "1.0.0",\n  "deps": { "name": "y" },\n  "files": ["a", "b"]' }],
      [4, { N: '"y"', R: "" }],
    ]);
    // Among an array's values the run is still a plain value.
    const array = await call(client, "ast_grep", { pattern: '"files": [$$$X]', language: "json" });
    expect((array.data.matches as Array<{ bindings: Record<string, string> }>).map((m) => m.bindings)).toEqual([{ X: '"a", "b"' }]);
    const toml = await call(client, "ast_grep", { pattern: "{ name = $N, $$$R }", language: "toml" });
    expect((toml.data.matches as Array<{ start: { line: number }; bindings: Record<string, string> }>).map((m) => [m.start.line, m.bindings])).toEqual([[5, { N: '"s"', R: 'version = "1"' }]]);
    const same = await call(client, "ast_edit", { pattern: '{"name": $N, $$$R}', rewrite: '{"name": $N, $$$R}', language: "json" });
    expect(same.data.replacements ?? 0).toBe(0);
  });

  test("Gleam metavariables stand as names: a module, a function, a variable, a body", async () => {
    await using dir = await tempDir();
    await dir.write({
      "app.gleam": "import gleam/io\n\npub fn main() {\n  io.debug(1)\n  let x = add(1, 2)\n  x\n}\n\nfn add(a: Int, b: Int) -> Int {\n  a + b\n}\n",
    });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const bindings = async (pattern: string) =>
      ((await call(client, "ast_grep", { pattern, language: "gleam" })).data.matches as Array<{ start: { line: number }; bindings: Record<string, string> }>).map((m) => [m.start.line, m.bindings]);
    expect(await bindings("$M.debug($A)")).toEqual([[4, { M: "io", A: "1" }]]);
    expect(await bindings("let $X = $E")).toEqual([[5, { X: "x", E: "add(1, 2)" }]]);
    expect(await bindings("pub fn $F() { $$$B }")).toEqual([[3, { F: "main", B: "io.debug(1)\n  let x = add(1, 2)\n  x" }]]);
    expect(await bindings("fn $F($$$P) -> $R { $$$B }")).toEqual([[9, { F: "add", P: "a: Int, b: Int", R: "Int", B: "a + b" }]]);
  });

  test("a path outside the workdir is refused", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, PARSER);
    const r = await call(await t.client(), "ast_grep", { pattern: "foo($A)", path: "../", language: "c" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("outside the workspace");
  });

  test("the walk honours .gitignore and skips node_modules and oversized files", async () => {
    await using dir = await tempDir();
    await dir.write({
      ".gitignore": "build/\n*.gen.py\n!keep.gen.py\n",
      "app.py": "call(1)\n",
      "build/out.py": "call(2)\n",
      "x.gen.py": "call(3)\n",
      "keep.gen.py": "call(4)\n",
      "node_modules/m/index.py": "call(5)\n",
      "big.py": `call(6)\n${"#".repeat(5000)}\n`,
    });
    await using t = await startTestRun(dir.path, { resources: { parser: { maxFileBytes: 4096 } } });
    const r = await call(await t.client(), "ast_grep", { pattern: "call($N)", language: "python" });
    expect((r.data.matches as MatchOut[]).map((m) => m.path)).toEqual(["app.py", "keep.gen.py"]);
    expect(r.data.notes).toEqual(["1 file(s) over the size limit were not searched"]);
  });

  test("past max_results the answer says N of M shown, counts them all, and offset pages on", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.go": `package main\nfunc main() {\n${"\tfmt.Println(1)\n".repeat(7)}}\n` });
    await using t = await startTestRun(dir.path, PARSER);
    const r = await call(await t.client(), "ast_grep", { pattern: "fmt.Println($A)", path: "a.go", max_results: 3 });
    expect(r.data.total).toBe(7);
    expect(r.data.shown).toBe(3);
    expect(r.text).toContain("3 of 7 shown (1–3); pass offset 3 for the next");
    // The pages of docs/tools.md: the next, the last, and past the end said plainly.
    const last = await call(await t.client(), "ast_grep", { pattern: "fmt.Println($A)", path: "a.go", max_results: 3, offset: 6 });
    expect(last.text).toContain("1 of 7 shown (7–7)");
    expect((last.data.matches as MatchOut[]).map((m) => m.start.line)).toEqual([9]);
    const past = await (await t.client()).callTool({ name: "ast_grep", arguments: { pattern: "fmt.Println($A)", path: "a.go", offset: 7 } });
    expect(past.isError).toBe(true);
    expect((past.content as { text: string }[])[0]!.text).toBe("offset 7 is past the end: there are 7 row(s). Pass an offset below 7, or omit it for the first page.");
  });

  test("a file changed on disk is searched afresh, not answered from the parse cache", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.ts": "foo(1);\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    expect((await call(client, "ast_grep", { pattern: "foo($A)", language: "typescript" })).data.total).toBe(1);
    await writeFile(join(dir.path, "a.ts"), "foo(1);\nfoo(22);\n");
    expect((await call(client, "ast_grep", { pattern: "foo($A)", language: "typescript" })).data.total).toBe(2);
  });
});

describe("progress", () => {
  test("a directory search reports progress up to the number of files searched", async () => {
    await using dir = await tempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`src/m${i}.py`] = `def f${i}(x):\n    return isinstance(x, int)\n`;
    await dir.write(files);
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const updates: { progress: number; total?: number }[] = [];
    const result = await client.callTool({ name: "ast_grep", arguments: { pattern: "isinstance($X, $T)", language: "python" } }, undefined, {
      onprogress: (p) => updates.push(p),
    });
    expect(result.isError).toBeFalsy();
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates[0]).toMatchObject({ progress: 0, total: 12 });
    expect(updates.at(-1)).toMatchObject({ progress: 12, total: 12 });
  });
});
