// lsp definition/references must not show source lines of files outside the workdir reached through a
// symlink inside it (link_dir/mod.py -> ~/elsewhere): asking for that file directly is refused, so
// its text must not come out through a location either. Such a location is shown as a path, no text.
import { describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call } from "../helpers/call.ts";
import { LINKED_OUT_PREVIEW } from "../../src/lsp/present.ts";

/** The answer names the linked file with the note instead of its text, and shows the workspace's own lines. */
function expectHidden(answer: { text: string; isError: boolean; data: Record<string, any> }, file: string): void {
  expect(answer.isError).toBe(false);
  expect(answer.text).not.toContain(SECRET);
  expect(JSON.stringify(answer.data)).not.toContain(SECRET);
  expect(answer.data.results).toContainEqual(expect.objectContaining({ path: file, line: 1, preview: LINKED_OUT_PREVIEW }));
}

const SECRET = "OUTSIDE_SECRET_TEXT";

describe("a location outside the workdir reached through a workspace symlink", () => {
  test("python: definition and references show it without its text; a standard-library location keeps its text", async () => {
    await using outside = await tempDir("sidecar-outside-");
    await using dir = await tempDir();
    await outside.write({ "mod.py": `def leak():  # ${SECRET}\n    return 1\n` });
    await dir.write({ "pyproject.toml": "", "main.py": "from link_dir.mod import leak\n\nleak()\nimport os\nos.getcwd()\n" });
    symlinkSync(outside.path, join(dir.path, "link_dir"));
    await using t = await startTestRun(dir.path, { resources: { languageServers: {} } });
    const client = await t.client();
    expectHidden(await call(client, "lsp", { action: "definition", file: "main.py", line: 3, symbol: "leak" }), "link_dir/mod.py");
    const references = await call(client, "lsp", { action: "references", file: "main.py", line: 3, symbol: "leak" });
    expectHidden(references, "link_dir/mod.py");
    expect(references.data.results).toContainEqual(expect.objectContaining({ path: "main.py", line: 3, preview: "leak()" }));
    // A standard-library location outside the workdir, found by the server itself, keeps its text.
    const library = await call(client, "lsp", { action: "definition", file: "main.py", line: 5, symbol: "getcwd" });
    expect(library.isError).toBe(false);
    expect(library.data.results[0].path).toStartWith("/");
    expect(library.data.results[0].preview).toContain("def getcwd");
  }, 180_000);

  test("typescript: definition and references show it without its text", async () => {
    await using outside = await tempDir("sidecar-outside-");
    await using dir = await tempDir();
    await outside.write({ "mod.ts": `export function leak(): number { // ${SECRET}\n  return 1;\n}\n` });
    await dir.write({ "tsconfig.json": "{}", "main.ts": "import { leak } from './link_dir/mod';\n\nleak();\n" });
    symlinkSync(outside.path, join(dir.path, "link_dir"));
    await using t = await startTestRun(dir.path, { resources: { languageServers: {} } });
    const client = await t.client();
    expectHidden(await call(client, "lsp", { action: "definition", file: "main.ts", line: 3, symbol: "leak" }), "link_dir/mod.ts");
    const references = await call(client, "lsp", { action: "references", file: "main.ts", line: 3, symbol: "leak" });
    expectHidden(references, "link_dir/mod.ts");
    expect(references.data.results).toContainEqual(expect.objectContaining({ path: "main.ts", line: 3, preview: "leak();" }));
  }, 180_000);
});
