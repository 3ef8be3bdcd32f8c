// Diagnostics on write through POST /harness/after-write, against real servers: pull (pyright) and push (tsserver, clangd, gopls).
import { describe, expect, test } from "bun:test";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { LSP_CONFIG, requireBinary, TS_PROJECT } from "./fixtures.ts";

interface Outcome {
  status: string;
  new: { path: string; line: number; severity: string; code?: string; message: string }[];
  files: { path: string; status: string; reason?: string }[];
  text: string;
}

async function afterWrite(t: TestRun, paths: string[], surface = "default"): Promise<Outcome> {
  const response = await t.fetch("/harness/after-write", {
    method: "POST",
    headers: { Authorization: `Bearer ${t.run.surfaces[surface]}`, "Content-Type": "application/json" },
    body: JSON.stringify({ paths }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Outcome;
}

/** Introduce → reported once; rewrite unchanged → silent; move → silent; second copy → new; fix → clears. */
async function ledgerScenario(t: TestRun, root: string, file: string, clean: string, broken: (padding: string) => string, expectedMessage: RegExp) {
  const path = join(root, file);
  await writeFile(path, clean);
  const first = await afterWrite(t, [file]);
  expect(first).toMatchObject({ status: "fresh", new: [] });

  await writeFile(path, broken(""));
  const introduced = await afterWrite(t, [file]);
  expect(introduced.status).toBe("fresh");
  expect(introduced.new).toHaveLength(1);
  expect(introduced.new[0]!.message).toMatch(expectedMessage);
  expect(introduced.text).toContain("1 new diagnostic after this write:");

  await writeFile(path, broken("\n\n\n\n"));
  const moved = await afterWrite(t, [file]);
  expect(moved).toMatchObject({ status: "fresh", new: [] });

  await writeFile(path, clean);
  const fixed = await afterWrite(t, [file]);
  expect(fixed).toMatchObject({ status: "fresh", new: [] });

  await writeFile(path, broken("\n"));
  const back = await afterWrite(t, [file]);
  expect(back.new).toHaveLength(1);
  expect(back.new[0]!.line).toBeGreaterThan(1);
}

describe("diagnostics on write", () => {
  test("TypeScript (push): reported once, a move is silent, fixing clears, a second copy is new", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write(TS_PROJECT);
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    await ledgerScenario(t, dir.path, "src/extra.ts", "export const a: number = 1;\n", (pad) => `${pad}export const a: number = "one";\n`, /not assignable to type 'number'/);
    await writeFile(join(dir.path, "src/extra.ts"), '\nexport const a: number = "one";\nexport const b: number = "one";\n');
    const twice = await afterWrite(t, ["src/extra.ts"]);
    expect(twice.new).toEqual([expect.objectContaining({ path: "src/extra.ts", line: 3, code: "2322" })]);
  });

  test("TypeScript: a clean file written clean again is fresh, though typescript-language-server publishes nothing", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write(TS_PROJECT);
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const path = join(dir.path, "src/extra.ts");
    await writeFile(path, "export const a: number = 1;\n");
    expect(await afterWrite(t, ["src/extra.ts"])).toMatchObject({ status: "fresh", new: [] });
    await writeFile(path, "export const a: number = 2;\n");
    // typescript-language-server publishes nothing for it: waiting for a publish ran out the cap and
    // answered timed_out. Asking tsserver answers fresh.
    expect(await afterWrite(t, ["src/extra.ts"])).toMatchObject({ status: "fresh", new: [] });
    await writeFile(path, 'export const a: number = "two";\n');
    expect((await afterWrite(t, ["src/extra.ts"])).new).toEqual([expect.objectContaining({ code: "2322" })]);
    // An unused local is a hint (6133), an editor's greying-out: not news after a write.
    await writeFile(path, "export function f(): number {\n  const unused = 1;\n  return 2;\n}\n");
    expect(await afterWrite(t, ["src/extra.ts"])).toMatchObject({ status: "fresh", new: [] });
  });

  test("Python (pull): the same ledger behaviour through pyright", async () => {
    requireBinary("pyright-langserver", "npm i -D pyright");
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": '[project]\nname = "w"\nversion = "0"\n' });
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    await ledgerScenario(t, dir.path, "mod.py", "value = 1\n", (pad) => `${pad}value = missing_name\n`, /"missing_name" is not defined/);
  });

  test("C (clangd, push) and Go (gopls, publishes clean first): an introduced error is reported", async () => {
    requireBinary("clangd", "apt-get install clangd");
    requireBinary("gopls", "apt-get install gopls golang-go");
    await using dir = await tempDir();
    await dir.write({
      "c/compile_flags.txt": "-std=c11\n",
      "c/main.c": "int main(void) { return 0; }\n",
      "go/go.mod": "module example.com/w\n\ngo 1.19\n",
      "go/main.go": "package main\n\nfunc main() {}\n",
    });
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    expect(await afterWrite(t, ["c/main.c", "go/main.go"])).toMatchObject({ status: "fresh", new: [] });
    await writeFile(join(dir.path, "c/main.c"), "int main(void) { return undefined_thing; }\n");
    await writeFile(join(dir.path, "go/main.go"), "package main\n\nfunc main() {\n\tundefinedThing()\n}\n");
    const broken = await afterWrite(t, ["c/main.c", "go/main.go"]);
    expect(broken.status).toBe("fresh");
    expect(broken.new.map((d) => d.path).sort()).toEqual(["c/main.c", "go/main.go"]);
    expect(broken.new.find((d) => d.path === "c/main.c")!.message).toContain("undefined_thing");
    expect(broken.new.find((d) => d.path === "go/main.go")!.message).toContain("undefinedThing");
  });

  test("TypeScript: a write that breaks an open importer reports the importer's new error", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write(TS_PROJECT);
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    // The importer was written (so opened and diagnosed) before; then its import is renamed away.
    // tsserver tells nothing unasked about a file that did not change: it is asked.
    expect(await afterWrite(t, ["src/main.ts"])).toMatchObject({ status: "fresh", new: [] });
    const shapes = join(dir.path, "src/shapes.ts");
    await writeFile(shapes, (await readFile(shapes, "utf8")).replace("export function totalArea", "export function sumArea"));
    const broken = await afterWrite(t, ["src/shapes.ts"]);
    expect(broken.status).toBe("fresh");
    expect(broken.new).toEqual([expect.objectContaining({ path: "src/main.ts", line: 1, severity: "error", code: "2305", message: expect.stringContaining("totalArea") })]);
  });

  test("Go: a write that breaks another file (its caller) reports that file's new error too", async () => {
    requireBinary("gopls", "apt-get install gopls golang-go");
    await using dir = await tempDir();
    await dir.write({
      "go.mod": "module example.com/w\n\ngo 1.19\n",
      "a.go": "package main\n\nfunc main() {\n\thelper()\n}\n",
      "b.go": "package main\n\nfunc helper() {}\n",
    });
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    expect(await afterWrite(t, ["a.go", "b.go"])).toMatchObject({ status: "fresh", new: [] });
    await writeFile(join(dir.path, "b.go"), "package main\n\nfunc helper2() {}\n");
    const broken = await afterWrite(t, ["b.go"]);
    expect(broken.status).toBe("fresh");
    expect(broken.new).toEqual([expect.objectContaining({ path: "a.go", line: 4, severity: "error", message: expect.stringContaining("helper") })]);
    expect(broken.text).toContain("a.go:4: error");
    // Reported once: the next write of b.go that leaves it broken says nothing new.
    await writeFile(join(dir.path, "b.go"), "package main\n\nfunc helper2() { }\n");
    expect((await afterWrite(t, ["b.go"])).new).toEqual([]);
  });

  test("files no server can serve come back unsupported with the reason, never as 'nothing new'", async () => {
    await using dir = await tempDir();
    await dir.write({ "loose.ts": "export const x = 1;\n", "notes.md": "hi\n" });
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const outcome = await afterWrite(t, ["loose.ts", "notes.md"]);
    expect(outcome.status).toBe("unsupported");
    expect(outcome.files[0]!.reason).toContain("no root marker (tsconfig.json, jsconfig.json, package.json)");
    expect(outcome.files[1]!.reason).toContain("No language server in the catalog handles .md");
  });

  test("a server that serves the file but fails to start is timed_out (nothing known), not unsupported", async () => {
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": '[project]\nname = "w"\nversion = "0"\n', "m.py": "x = 1\n" });
    // `false` exits at once: the server is there, and down.
    await using t = await startTestRun(dir.path, { resources: { languageServers: { servers: { python: { command: "false" } } } } });
    const outcome = await afterWrite(t, ["m.py"]);
    expect(outcome.status).toBe("timed_out");
    expect(outcome.files[0]).toMatchObject({ path: "m.py", status: "timed_out" });
    expect(outcome.files[0]!.reason).toContain("The python server for . failed to start");
  });

  test("the route takes only the default surface's token and a {paths} body", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const post = (headers: Record<string, string>, body: string) => t.fetch("/harness/after-write", { method: "POST", headers, body });
    expect((await post({}, '{"paths":["a.ts"]}')).status).toBe(401);
    expect((await post({ Authorization: `Bearer ${t.run.surfaces.plan}` }, '{"paths":["a.ts"]}')).status).toBe(401);
    const bad = await post({ Authorization: `Bearer ${t.run.surfaces.default}` }, '{"files":"a.ts"}');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain('Expected {"paths": [...]}');
  });
});
