// The servers see the checkout as it is: files created, changed or deleted outside the sidecar reach them.
import { describe, expect, test } from "bun:test";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { WorkdirWatcher, type WatchedChange } from "../../src/lsp/workdir-watch.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call, LSP_CONFIG, PY_PROJECT, requireBinary } from "./fixtures.ts";

const GO_PROJECT = {
  "go.mod": "module example.com/w\n\ngo 1.19\n",
  "flags/flags.go": "package flags\n\n// CommandLine is the default set.\nvar CommandLine = map[string]string{}\n\n// Lookup finds a flag.\nfunc Lookup(name string) string {\n\treturn CommandLine[name]\n}\n",
  "main.go": 'package main\n\nimport "example.com/w/flags"\n\nfunc main() {\n\t_ = flags.Lookup("x")\n}\n',
};

/** Polls `check` for up to `limitMs` (a bound, not an assertion on speed). */
async function eventually<T>(check: () => Promise<T>, done: (value: T) => boolean, limitMs = 20_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  let value = await check();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    value = await check();
  }
  return value;
}

const places = (result: { data: Record<string, unknown> }) => ((result.data.results ?? []) as { path: string }[]).map((r) => r.path).sort();

describe("a file created outside the sidecar", () => {
  test("Go: gopls finds its uses in references, and a rename edits it", async () => {
    requireBinary("gopls", "apt-get install gopls golang-go");
    await using dir = await tempDir();
    await dir.write(GO_PROJECT);
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    expect(places(await call(client, "lsp", { action: "references", file: "flags/flags.go", line: 4, symbol: "CommandLine" }))).toEqual(["flags/flags.go", "flags/flags.go"]);
    // A shell command writes a new file that uses CommandLine; gopls is told by no write of ours.
    await writeFile(join(dir.path, "flags/extra.go"), "package flags\n\n// Count counts the flags.\nfunc Count() int {\n\treturn len(CommandLine)\n}\n");
    const references = await eventually(
      () => call(client, "lsp", { action: "references", file: "flags/flags.go", line: 4, symbol: "CommandLine" }),
      (r) => places(r).includes("flags/extra.go"),
    );
    expect(places(references)).toEqual(["flags/extra.go", "flags/flags.go", "flags/flags.go"]);
    const rename = await call(client, "lsp_rename", { file: "flags/flags.go", line: 4, symbol: "CommandLine", new_name: "Defaults" });
    expect(rename.isError).toBe(false);
    expect(rename.data.files).toEqual(["flags/extra.go", "flags/flags.go"]);
    expect(await readFile(join(dir.path, "flags/extra.go"), "utf8")).toContain("return len(Defaults)");
  });

  test("Python: pyright finds its uses in references", async () => {
    requireBinary("pyright-langserver", "npm i -D pyright");
    await using dir = await tempDir();
    await dir.write(PY_PROJECT);
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    const before = await call(client, "lsp", { action: "references", file: "pkg/geometry.py", line: 12, symbol: "double_area" });
    expect(places(before)).toEqual(["pkg/app.py", "pkg/app.py", "pkg/geometry.py"]);
    await writeFile(join(dir.path, "pkg/report.py"), "from pkg.geometry import Rectangle, double_area\n\n\ndef summary() -> float:\n    return double_area(Rectangle(1, 1))\n");
    const after = await eventually(
      () => call(client, "lsp", { action: "references", file: "pkg/geometry.py", line: 12, symbol: "double_area" }),
      (r) => places(r).includes("pkg/report.py"),
    );
    expect(places(after)).toEqual(["pkg/app.py", "pkg/app.py", "pkg/geometry.py", "pkg/report.py", "pkg/report.py"]);
    // The new file was never open in the server: its outline is had for the answer, so its use is
    // named with the function that holds it.
    const use = (after.data.results as { path: string; line: number; in?: string }[]).find((row) => row.path === "pkg/report.py" && row.line === 5);
    expect(use?.in).toBe("summary");
    // Deleting a file it opened for that outline leaves pyright reporting "2 files to analyze"
    // without end; once that falls silent the queries below no longer wait on it (each waited out
    // the indexing bound twice, past this test's timeout, before; src/lsp/work-progress.ts).
    // Deleted again, its uses are gone from the answer too.
    await rm(join(dir.path, "pkg/report.py"));
    const gone = await eventually(
      () => call(client, "lsp", { action: "references", file: "pkg/geometry.py", line: 12, symbol: "double_area" }),
      (r) => !places(r).includes("pkg/report.py"),
    );
    expect(places(gone)).toEqual(["pkg/app.py", "pkg/app.py", "pkg/geometry.py"]);
  });
});

describe("the workdir watcher", () => {
  test("reports files created, changed and deleted, in new folders too, and never those under skipped folders", async () => {
    await using dir = await tempDir();
    await dir.write({ "src/a.ts": "a\n", "node_modules/dep/index.js": "x\n", ".git/HEAD": "ref\n", "state/run.json": "{}\n" });
    const watcher = new WorkdirWatcher(dir.path, [join(dir.path, "state")]);
    const seen: WatchedChange[] = [];
    watcher.onChange((changes) => seen.push(...changes));
    await watcher.start();
    try {
      await writeFile(join(dir.path, "src/a.ts"), "changed\n");
      await writeFile(join(dir.path, "src/b.ts"), "new\n");
      await mkdir(join(dir.path, "src/deep/er"), { recursive: true });
      await writeFile(join(dir.path, "src/deep/er/c.ts"), "deep\n");
      await writeFile(join(dir.path, "node_modules/dep/index.js"), "y\n");
      await writeFile(join(dir.path, ".git/HEAD"), "other\n");
      await writeFile(join(dir.path, "state/run.json"), "[]\n");
      await rm(join(dir.path, "src/a.ts"));
      await eventually(
        async () => (await watcher.settled(), seen.length),
        () => seen.some((c) => c.path.endsWith("c.ts")) && seen.some((c) => c.kind === "deleted"),
        5_000,
      );
      const kinds = new Map(seen.map((c) => [c.path.slice(dir.path.length + 1), c.kind]));
      expect(kinds.get("src/a.ts")).toBe("deleted");
      expect(kinds.get("src/b.ts")).toBe("created");
      expect(kinds.get("src/deep/er/c.ts")).toBe("created");
      expect([...kinds.keys()].filter((path) => /node_modules|\.git|state/.test(path))).toEqual([]);
      expect(watcher.watching).toBe(4); // the workdir, src, src/deep, src/deep/er
    } finally {
      watcher.close();
    }
  });
});
