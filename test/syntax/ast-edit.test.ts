// ast_edit and resolve through a real run: staging writes nothing, accept is all-or-nothing.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { chmod, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestRun } from "../helpers/sidecar.ts";
import type { RunConfig } from "../../src/config/schema.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call } from "../helpers/call.ts";

// Each test starts a run and its parse workers (or a parser); on a loaded machine, or under
// nice -n 19, that takes seconds. Speed is measured by bench/ast-grep.ts, not here.
setDefaultTimeout(30_000);

const PARSER = { resources: { parser: {} } };

describe("ast_edit stages a rewrite and writes nothing", () => {
  test("the spec's Dart rewrite is proposed with a diff and an edit id; files stay untouched", async () => {
    await using dir = await tempDir();
    const original = "void f() {\n  dispose(a);\n  dispose(b);\n}\n";
    await dir.write({ "lib/a.dart": original, "lib/b.dart": "void g() {\n  dispose(c);\n}\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const r = await call(await t.client(), "ast_edit", { pattern: "dispose($X)", rewrite: "$X.dispose()", language: "dart" });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('(proposed) 3 replacement(s) in 2 file(s)');
    expect(r.text).toContain('edit_id "edit_1"');
    expect(r.data.diff).toContain("--- a/lib/a.dart");
    expect(r.data.diff).toContain("-  dispose(a);\n-  dispose(b);\n+  a.dispose();\n+  b.dispose();");
    expect(await readFile(join(dir.path, "lib/a.dart"), "utf8")).toBe(original);
  });

  test("only the outermost of nested matches is rewritten; multi-line captures are re-indented", async () => {
    await using dir = await tempDir();
    await dir.write({
      "a.ts": "function f() {\n  wrap(wrap(1));\n  if (ok) {\n    run(() => {\n      go();\n    });\n  }\n}\n",
    });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const nested = await call(client, "ast_edit", { pattern: "wrap($A)", rewrite: "unwrap($A)", path: "a.ts" });
    expect(nested.data.replacements).toBe(1);
    expect(nested.data.diff).toContain("+  unwrap(wrap(1));");
    const block = await call(client, "ast_edit", { pattern: "run($F)", rewrite: "schedule(\n  $F,\n)", path: "a.ts" });
    expect(block.data.diff).toContain("+    schedule(\n+      () => {\n+        go();\n+      },\n+    );");
  });

  test("a rewrite naming a metavariable the pattern does not capture is an error", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.py": "print(1)\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const r = await call(await t.client(), "ast_edit", { pattern: "print($A)", rewrite: "log($B)", path: "a.py" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("$B");
  });
});

describe("resolve", () => {
  test("accept writes every file and keeps permissions; the edit cannot be resolved twice", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.py": "print(1)\n", "bin/run.py": "#!/usr/bin/env python3\nprint(2)\n" });
    await chmod(join(dir.path, "bin/run.py"), 0o755);
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const staged = await call(client, "ast_edit", { pattern: "print($A)", rewrite: "log($A)", language: "python" });
    const id = staged.data.edit_id as string;
    const accepted = await call(client, "resolve", { edit_id: id, action: "accept" });
    expect(accepted.isError).toBe(false);
    expect(accepted.text).toContain("wrote 2 file(s)");
    expect(await readFile(join(dir.path, "a.py"), "utf8")).toBe("log(1)\n");
    expect(await readFile(join(dir.path, "bin/run.py"), "utf8")).toBe("#!/usr/bin/env python3\nlog(2)\n");
    expect((await stat(join(dir.path, "bin/run.py"))).mode & 0o777).toBe(0o755);
    const again = await call(client, "resolve", { edit_id: id, action: "accept" });
    expect(again.isError).toBe(true);
    expect(again.text).toContain("already accepted");
    // The parse cache saw the write: the old code is gone from search results.
    expect((await call(client, "ast_grep", { pattern: "print($A)", language: "python" })).data.total).toBe(0);
  });

  test("a file changed since staging rejects the whole edit, naming it, and nothing is written", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.rb": "puts 1\n", "b.rb": "puts 2\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const staged = await call(client, "ast_edit", { pattern: "puts $A", rewrite: "print $A", language: "ruby" });
    await writeFile(join(dir.path, "b.rb"), "puts 2\nputs 3\n");
    const r = await call(client, "resolve", { edit_id: staged.data.edit_id, action: "accept" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("b.rb");
    expect(r.text).toContain("nothing was written");
    expect(await readFile(join(dir.path, "a.rb"), "utf8")).toBe("puts 1\n");
  });

  test("a file the writer cannot prepare fails the accept before anything is replaced", async () => {
    await using dir = await tempDir();
    // Tests run as root, so permission bits cannot make a file unwritable. A 250-character name
    // can: its temp file name (name plus a suffix) exceeds the 255-byte limit.
    const longName = `z${"x".repeat(247)}.c`;
    await dir.write({ "a.c": "int f(void) { return old(1); }\n", [longName]: "int g(void) { return old(2); }\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const staged = await call(client, "ast_edit", { pattern: "old($A)", rewrite: "new_call($A)", language: "c" });
    expect(staged.data.files).toEqual([
      { path: "a.c", replacements: 1 },
      { path: longName, replacements: 1 },
    ]);
    const r = await call(client, "resolve", { edit_id: staged.data.edit_id, action: "accept" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("nothing changed");
    expect(await readFile(join(dir.path, "a.c"), "utf8")).toBe("int f(void) { return old(1); }\n");
    expect(await readFile(join(dir.path, longName), "utf8")).toBe("int g(void) { return old(2); }\n");
    expect((await readdir(dir.path)).sort()).toEqual(["a.c", longName].sort()); // no temp file left behind
  });

  test("a rename that fails after another file was replaced restores that file", async () => {
    await using dir = await tempDir();
    // Root ignores permission bits, but not the immutable attribute: renaming over b.c fails after
    // a.c (which sorts first) was already replaced.
    await dir.write({ "a.c": "int f(void) { return old(1); }\n", "b.c": "int g(void) { return old(2); }\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const staged = await call(client, "ast_edit", { pattern: "old($A)", rewrite: "new_call($A)", language: "c" });
    execFileSync("chattr", ["+i", join(dir.path, "b.c")]);
    try {
      const r = await call(client, "resolve", { edit_id: staged.data.edit_id, action: "accept" });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("were restored");
      expect(await readFile(join(dir.path, "a.c"), "utf8")).toBe("int f(void) { return old(1); }\n");
      expect(await readFile(join(dir.path, "b.c"), "utf8")).toBe("int g(void) { return old(2); }\n");
      expect((await readdir(dir.path)).sort()).toEqual(["a.c", "b.c"]);
    } finally {
      execFileSync("chattr", ["-i", join(dir.path, "b.c")]);
    }
  });

  test("discard drops the edit; unknown and discarded ids are clear errors", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.js": "foo(1);\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const staged = await call(client, "ast_edit", { pattern: "foo($A)", rewrite: "bar($A)", path: "a.js" });
    const discarded = await call(client, "resolve", { edit_id: staged.data.edit_id, action: "discard" });
    expect(discarded.text).toContain("Discarded edit_1");
    const after = await call(client, "resolve", { edit_id: "edit_1", action: "accept" });
    expect(after.isError).toBe(true);
    expect(after.text).toContain("already discarded");
    const unknown = await call(client, "resolve", { edit_id: "edit_9", action: "accept" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('no staged edit "edit_9"');
    expect(await readFile(join(dir.path, "a.js"), "utf8")).toBe("foo(1);\n");
  });
});

describe("rewrites keep the code the pattern does not name", () => {
  test("a $$$ run that ends the pattern captures the rest, so the body survives the rewrite", async () => {
    await using dir = await tempDir();
    await dir.write({ "p.py": "def f(a):\n    x = 1\n    return x + a\n", "r.js": "function g() {\n  return a + b;\n}\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const py = await call(client, "ast_edit", { pattern: "def $F($$$P):\n    $$$B", rewrite: "def $F($$$P):\n    log()\n    $$$B", path: "p.py" });
    expect(py.data.diff).toContain("+def f(a):\n+    log()\n+    x = 1\n+    return x + a");
    const js = await call(client, "ast_edit", { pattern: "return $$$A", rewrite: "return wrap($$$A)", path: "r.js" });
    expect(js.data.diff).toContain("+  return wrap(a + b)");
  });

  test("a keyword skipped at the start of a match (async) stays; one inside stays where the template repeats the pattern there, else it is reported", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.js": "async function a() {}\nfunction b() {}\n", "e.js": "export async function c() {}\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const kept = await call(client, "ast_edit", { pattern: "function $A() {}", rewrite: "function $A() { log(); }", path: "a.js" });
    expect(kept.data.diff).toContain("+async function a() { log(); }\n+function b() { log(); }");
    expect(kept.data.notes).toEqual([]);
    const repeated = await call(client, "ast_edit", { pattern: "export function $A() {}", rewrite: "export function $A() { log(); }", path: "e.js" });
    expect(repeated.data.diff).toContain("+export async function c() { log(); }");
    expect(repeated.data.notes).toEqual([]);
    const inside = await call(client, "ast_edit", { pattern: "export function $A() {}", rewrite: "export const $A = () => { log(); }", path: "e.js" });
    expect(inside.data.diff).toContain("+export const c = () => { log(); }");
    expect(inside.text).toContain("e.js: the rewrite replaces `async` (line 1), which the pattern does not mention");
  });

  test("a file that is not valid UTF-8 is not staged, and the answer says why", async () => {
    await using dir = await tempDir();
    await writeFile(join(dir.path, "a.c"), Buffer.concat([Buffer.from("/* caf"), Buffer.from([0xe9]), Buffer.from(" */\nint x = old(1);\n")]));
    await using t = await startTestRun(dir.path, PARSER);
    const r = await call(await t.client(), "ast_edit", { pattern: "old($A)", rewrite: "new_call($A)", path: "a.c" });
    expect(r.data.edit_id).toBeUndefined();
    expect(r.text).toContain("Nothing staged: the files that match cannot be rewritten");
    expect(r.text).toContain("a.c: not rewritten: it is not valid UTF-8");
  });

  test("the diff is a patch git applies, with or without a final newline", async () => {
    await using dir = await tempDir();
    await dir.write({ "d.js": "a();\nfoo(1);\n", "n.js": "foo(1);" });
    execFileSync("git", ["init", "-q"], { cwd: dir.path });
    await using t = await startTestRun(dir.path, PARSER);
    const r = await call(await t.client(), "ast_edit", { pattern: "foo($A)", rewrite: "bar($A)", language: "javascript" });
    expect(r.data.diff).toContain("-foo(1);\n\\ No newline at end of file\n+bar(1);\n\\ No newline at end of file");
    await writeFile(join(dir.path, "edit.patch"), `${r.data.diff}\n`);
    execFileSync("git", ["apply", "--check", "edit.patch"], { cwd: dir.path }); // throws on a malformed patch
  });
});

describe("staged edits belong to the surface that staged them", () => {
  test("another surface can neither accept nor discard them, nor learn their ids", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.js": "foo(1);\n", "b.js": "foo(2);\n" });
    const config: RunConfig = { ...PARSER, surfaces: { default: { tiers: ["read", "write", "exec"] }, reviewer: { tiers: ["read", "write"] } } };
    await using t = await startTestRun(dir.path, config);
    const main = await t.client();
    const reviewer = await t.client("reviewer");
    const mine = await call(main, "ast_edit", { pattern: "foo($A)", rewrite: "bar($A)", path: "a.js" });
    const theirs = await call(reviewer, "ast_edit", { pattern: "foo($A)", rewrite: "baz($A)", path: "b.js" });
    expect([mine.data.edit_id, theirs.data.edit_id]).toEqual(["edit_1", "edit_2"]);
    for (const action of ["accept", "discard"]) {
      const foreign = await call(reviewer, "resolve", { edit_id: "edit_1", action });
      expect(foreign.isError).toBe(true);
      // Answered as an unknown id, listing only the caller's own.
      expect(foreign.text).toBe('There is no staged edit "edit_1". Staged now: edit_2.');
    }
    const unknown = await call(main, "resolve", { edit_id: "edit_9", action: "accept" });
    expect(unknown.text).toBe('There is no staged edit "edit_9". Staged now: edit_1.');
    expect(await readFile(join(dir.path, "a.js"), "utf8")).toBe("foo(1);\n");
    expect((await call(main, "resolve", { edit_id: "edit_1", action: "accept" })).isError).toBe(false);
    expect((await call(reviewer, "resolve", { edit_id: "edit_2", action: "accept" })).isError).toBe(false);
    expect(await readFile(join(dir.path, "a.js"), "utf8")).toBe("bar(1);\n");
    expect(await readFile(join(dir.path, "b.js"), "utf8")).toBe("baz(2);\n");
  });
});

describe("a file marked read-only is never rewritten", () => {
  test("accept refuses it with a sentence, writes nothing, and keeps the edit for a second try", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.py": "print(1)\n", "ro.py": "print(2)\n" });
    await chmod(join(dir.path, "ro.py"), 0o444);
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const staged = await call(client, "ast_edit", { pattern: "print($A)", rewrite: "log($A)", language: "python" });
    const refused = await call(client, "resolve", { edit_id: staged.data.edit_id, action: "accept" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe(
      "Edit edit_1 was not applied and nothing was written: ro.py (mode 0444) is read-only for the sidecar's user, and a file marked read-only is never rewritten. " +
        "The edit stays staged: make the file(s) writable (chmod u+w) and accept again, or discard it.",
    );
    expect(await readFile(join(dir.path, "a.py"), "utf8")).toBe("print(1)\n");
    expect(await readFile(join(dir.path, "ro.py"), "utf8")).toBe("print(2)\n");
    await chmod(join(dir.path, "ro.py"), 0o644);
    expect((await call(client, "resolve", { edit_id: staged.data.edit_id, action: "accept" })).isError).toBe(false);
    expect(await readFile(join(dir.path, "ro.py"), "utf8")).toBe("log(2)\n");
  });
});

describe("resolve accepts one edit at a time", () => {
  test("two edits of one file accepted in parallel: the second is rejected, the first is kept", async () => {
    await using dir = await tempDir();
    await dir.write({ "r.js": "foo(0);\nbar(0);\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const first = await call(client, "ast_edit", { pattern: "foo($A)", rewrite: "FOO($A)", path: "r.js" });
    const second = await call(client, "ast_edit", { pattern: "bar($A)", rewrite: "BAR($A)", path: "r.js" });
    const [a, b] = await Promise.all([
      call(client, "resolve", { edit_id: first.data.edit_id, action: "accept" }),
      call(client, "resolve", { edit_id: second.data.edit_id, action: "accept" }),
    ]);
    expect(a.isError).toBe(false);
    expect(b.isError).toBe(true);
    expect(b.text).toContain("changed since it was staged");
    expect(await readFile(join(dir.path, "r.js"), "utf8")).toBe("FOO(0);\nbar(0);\n");
  });
});

describe("rewrites of real code stay valid and keep what the pattern does not name", () => {
  const cases: Array<{ name: string; file: string; code: string; pattern: string; rewrite: string; expected: string }> = [
    {
      name: "a Go function declaration (parsed as a declaration, not a function literal)",
      file: "a.go",
      code: "package main\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n",
      pattern: "func $F($$$P) $R { $$$B }",
      rewrite: "func $F($$$P) $R {\n\ttrace()\n\t$$$B\n}",
      expected: "package main\n\nfunc Add(a, b int) int {\n\ttrace()\n\treturn a + b\n}\n",
    },
    {
      name: "a Python line continuation is not captured",
      file: "a.py",
      code: "total = total + \\\n    1\n",
      pattern: "$X = $X + $Y",
      rewrite: "$X += $Y",
      expected: "total += 1\n",
    },
    {
      name: "comments at the edges of a body are kept (Python puts the first one beside the block)",
      file: "a.py",
      code: "def f(code=None):\n    # why it exits\n    raise SystemExit(code)\n",
      pattern: "def $F($$$P):\n    $$$B",
      rewrite: "def $F($$$P):\n    log()\n    $$$B",
      expected: "def f(code=None):\n    log()\n    # why it exits\n    raise SystemExit(code)\n",
    },
    {
      name: "a parenthesised import keeps its parentheses",
      file: "a.py",
      code: "from os import (path,\n                sep)\n",
      pattern: "from $M import $$$N",
      rewrite: "from $M import $$$N  # checked",
      expected: "from os import (path,\n                sep)  # checked\n",
    },
    {
      name: "a for loop's else clause stays after its rewritten body",
      file: "a.py",
      code: "def f(xs):\n    for i in xs:\n        d(i)\n    else:\n        e()\n",
      pattern: "for $X in $Y:\n    $$$B",
      rewrite: "for $X in $Y:\n    log($X)\n    $$$B",
      expected: "def f(xs):\n    for i in xs:\n        log(i)\n        d(i)\n    else:\n        e()\n",
    },
    {
      name: "a JavaScript else stays after its rewritten if",
      file: "a.js",
      code: "if (x) { y(); } else { z(); }\n",
      pattern: "if ($C) { $$$B }",
      rewrite: "if ($C) { log(); $$$B }",
      expected: "if (x) { log(); y(); } else { z(); }\n",
    },
    {
      name: "a C case takes every statement of the case",
      file: "a.c",
      code: "int f(int c) {\n    switch (c) {\n    case 1:\n        a();\n        break;\n    }\n    return 0;\n}\n",
      pattern: "case $V: $$$B",
      rewrite: "case $V: { $$$B }",
      // The statements began their own lines, so they keep them (and their indentation).
      expected: "int f(int c) {\n    switch (c) {\n    case 1: {\n        a();\n        break; }\n    }\n    return 0;\n}\n",
    },
    {
      name: "a run that captured nothing takes its comma out of the rewrite",
      file: "a.c",
      code: "int f(int a) { return g(a); }\n",
      pattern: "g($A, $$$R)",
      rewrite: "wrap_g($A, $$$R)",
      expected: "int f(int a) { return wrap_g(a); }\n",
    },
  ];
  test.each(cases)("$name", async ({ file, code, pattern, rewrite, expected }) => {
    await using dir = await tempDir();
    await dir.write({ [file]: code });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const staged = await call(client, "ast_edit", { pattern, rewrite, path: file });
    expect(staged.data.edit_id).toBeDefined();
    expect((await call(client, "resolve", { edit_id: staged.data.edit_id, action: "accept" })).isError).toBe(false);
    expect(await readFile(join(dir.path, file), "utf8")).toBe(expected);
  });

  test("a repeated metavariable matches the same name whatever kind of token holds it", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.js": "class A { constructor(x) { this.x = x; this.y = x; } }\n", "a.c": "void f(struct s *p, int len) { p->len = len; }\n" });
    await using t = await startTestRun(dir.path, PARSER);
    const client = await t.client();
    const texts = async (pattern: string, path: string) => ((await call(client, "ast_grep", { pattern, path })).data.matches as { text: string }[]).map((m) => m.text);
    expect(await texts("this.$A = $A", "a.js")).toEqual(["this.x = x"]);
    expect(await texts("$P->$F = $F", "a.c")).toEqual(["p->len = len"]);
  });
});
