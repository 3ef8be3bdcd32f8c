// lsp_rename through clangd on a C project with many callers of a header's function: three renames
// in a row each either write every caller with diagnostics taken after clangd reparsed the callers
// against the new header, or are refused in words — never a subset written, never "nothing new" over
// broken callers. Before this, the first answered 30 false "new" warnings, the second renamed only
// core.h and core.c (30 callers broken) and said "Diagnostics checked: nothing new".
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call, LSP_CONFIG, requireBinary } from "./fixtures.ts";

const CALLERS = 30;
const SOURCES = ["core.c", ...Array.from({ length: CALLERS }, (_, i) => `f${i}.c`)];
const FILES = ["core.h", ...SOURCES];

/** What clang itself says about the project on disk: the truth the answer is held to. */
function compilerErrors(dir: string): string {
  try {
    execFileSync("clang", ["-std=c11", "-I.", "-fsyntax-only", "-Werror=implicit-function-declaration", ...SOURCES], { cwd: dir, stdio: "pipe" });
    return "";
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}

/** The project: core.h declares compute, core.c defines it, f0.c … f29.c call it; compile_commands.json lists every .c file. */
function project(dir: string, callers = CALLERS): Record<string, string> {
  const sources = ["core.c", ...Array.from({ length: callers }, (_, i) => `f${i}.c`)];
  const files: Record<string, string> = {
    "core.h": "#ifndef CORE_H\n#define CORE_H\nint compute(int value);\n#endif\n",
    "core.c": '#include "core.h"\n\nint compute(int value) {\n  return value + 1;\n}\n',
    "compile_commands.json": JSON.stringify(sources.map((file) => ({ directory: dir, file, arguments: ["cc", "-std=c11", "-I.", "-c", file] }))),
  };
  for (let i = 0; i < callers; i++) files[`f${i}.c`] = caller(i);
  return files;
}

function caller(i: number | string): string {
  return `#include "core.h"\n\nint step${i}(int n) {\n  return compute(n) + 1;\n}\n`;
}

test("clangd: three renames in a row of a header's function with 30 callers each rename every caller, with true diagnostics, or are refused", async () => {
  requireBinary("clangd", "apt-get install clangd");
  requireBinary("clang", "apt-get install clang");
  await using dir = await tempDir();
  await dir.write(project(dir.path));
  await using t = await startTestRun(dir.path, LSP_CONFIG);
  const client = await t.client();
  const disk = async () => Object.fromEntries(await Promise.all(FILES.map(async (f) => [f, await readFile(join(dir.path, f), "utf8")] as const)));
  let written = 0;
  for (const [from, to] of [["compute", "computeNext"], ["computeNext", "compute"], ["compute", "computeNext"]] as const) {
    const before = await disk();
    const answer = await call(client, "lsp_rename", { file: "core.h", line: 3, symbol: from, new_name: to });
    const after = await disk();
    if (answer.isError) {
      // A refusal says why and what to do, and leaves every file as it was.
      expect(answer.text).toMatch(/not written|nothing was (changed|written)/i);
      expect(after).toEqual(before);
      continue;
    }
    written++;
    const note = `${from}→${to}: ${answer.text}`;
    // Every caller renamed: no file still names the old function, and clang compiles the project.
    expect(answer.data.files, note).toEqual([...FILES].sort());
    for (const f of FILES) expect(after[f], `${f} after ${note}`).not.toMatch(new RegExp(`\\b${from}\\b`));
    expect(compilerErrors(dir.path), note).toBe("");
    // The diagnostics are true: nothing new, and it says it checked.
    const diagnostics = answer.data.diagnostics as { status: string; new: unknown[] };
    expect(diagnostics.status, note).toBe("fresh");
    expect(diagnostics.new, note).toEqual([]);
    expect(answer.text, note).toContain("Diagnostics checked: nothing new");
  }
  // A refusal of every rename would pass the loop; the first one has a fresh index and must be done.
  expect(written).toBeGreaterThanOrEqual(1);
}, 300_000);

test("clangd: a caller its index has never seen (written by a shell after it started, not in compile_commands.json) is renamed too", async () => {
  requireBinary("clangd", "apt-get install clangd");
  await using dir = await tempDir();
  await dir.write(project(dir.path, 3));
  await using t = await startTestRun(dir.path, LSP_CONFIG);
  const client = await t.client();
  expect((await call(client, "lsp", { action: "references", file: "core.h", line: 3, symbol: "compute" })).isError).toBe(false);
  await writeFile(join(dir.path, "late.c"), caller("Late"));
  const answer = await call(client, "lsp_rename", { file: "core.h", line: 3, symbol: "compute", new_name: "computeNext" });
  const note = answer.text;
  // Before, clangd's rename came from its index alone: late.c kept calling compute, now undeclared.
  expect(answer.isError, note).toBe(false);
  expect(answer.data.files, note).toContain("late.c");
  expect(await readFile(join(dir.path, "late.c"), "utf8")).toBe(caller("Late").replace("compute(", "computeNext("));
}, 300_000);

test("clangd: a rename that collides with another function of the header is written, checked, put back and refused", async () => {
  requireBinary("clangd", "apt-get install clangd");
  await using dir = await tempDir();
  const files = project(dir.path, 3);
  files["core.h"] = "#ifndef CORE_H\n#define CORE_H\nint compute(int value);\nint other(void);\n#endif\n";
  await dir.write(files);
  await using t = await startTestRun(dir.path, LSP_CONFIG);
  const client = await t.client();
  const before = await Promise.all(Object.keys(files).map((f) => readFile(join(dir.path, f), "utf8")));
  const answer = await call(client, "lsp_rename", { file: "core.h", line: 3, symbol: "compute", new_name: "other" });
  // Checked in memory, clangd would have seen the callers against the old header; on disk, the clash is real.
  expect(answer.isError, answer.text).toBe(true);
  expect(answer.text).toContain("The rename of compute to other was undone: written and checked through the c server");
  expect(answer.text).toMatch(/core\.h:\d+: error/);
  expect(await Promise.all(Object.keys(files).map((f) => readFile(join(dir.path, f), "utf8")))).toEqual(before);
  // The servers have the disk's text back: a query about compute still answers.
  const refs = await call(client, "lsp", { action: "references", file: "core.h", line: 3, symbol: "compute" });
  expect(refs.isError, refs.text).toBe(false);
  expect(refs.text).toContain("f2.c:4");
}, 300_000);
