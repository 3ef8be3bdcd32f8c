// The check that holds a clangd rename to the files, against the real clangd: the uses of the name
// in files that include an edited one (directly or through another header) are found, and of those
// the edit leaves out, only the ones whose definition is the renamed symbol count as missed. A stale
// index cannot be made to order here, so it is stood in for by dropping two files from clangd's
// real answer; everything else (the scan, the reparse, the definitions) is clangd's.
import { expect, test } from "bun:test";
import { join } from "node:path";
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import { syncDocument, uriOf } from "../../src/lsp/documents.ts";
import { editedPaths, missedUses, usesOutsideEdit } from "../../src/lsp/rename-coverage.ts";
import { LanguageServerSupervisor } from "../../src/lsp/supervisor.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { requireBinary } from "./fixtures.ts";

const FILES = {
  "core.h": "#ifndef CORE_H\n#define CORE_H\nint compute(int value);\n#endif\n",
  "api.h": '#include "core.h"\nint twice(int value);\n',
  "core.c": '#include "core.h"\n\nint compute(int value) {\n  return value + 1;\n}\n',
  // A direct includer and one through api.h: both call the function.
  "a.c": '#include "core.h"\n\nint a(int n) {\n  return compute(n);\n}\n',
  "b.c": '#include "api.h"\n\nint b(int n) {\n  return compute(n) * 2;\n}\n',
  // A local of the same name is no use of the function.
  "c.c": '#include "core.h"\n\nint c(void) {\n  int compute = 3;\n  return compute;\n}\n',
  // Names in a comment and a string are no uses at all.
  "d.c": '#include "core.h"\n\n/* compute is called elsewhere */\nconst char *d = "compute";\n',
  // Not an includer: its own compute is another function.
  "e.c": "static int compute(int x) {\n  return x;\n}\n\nint e(void) {\n  return compute(1);\n}\n",
};

function without(edit: WorkspaceEdit, uris: readonly string[]): WorkspaceEdit {
  if (edit.documentChanges) return { documentChanges: edit.documentChanges.filter((c) => !("textDocument" in c) || !uris.includes(c.textDocument.uri)) };
  return { changes: Object.fromEntries(Object.entries(edit.changes ?? {}).filter(([uri]) => !uris.includes(uri))) };
}

test("clangd: the uses a rename's edit leaves out are found through #includes, and only those of the renamed symbol are missed", async () => {
  requireBinary("clangd", "apt-get install clangd");
  await using dir = await tempDir();
  const sources = Object.keys(FILES).filter((f) => f.endsWith(".c"));
  await dir.write({ ...FILES, "compile_commands.json": JSON.stringify(sources.map((file) => ({ directory: dir.path, file, arguments: ["cc", "-std=c11", "-I.", "-c", file] }))) });
  const supervisor = new LanguageServerSupervisor(dir.path);
  try {
    const header = join(dir.path, "core.h");
    const handle = await supervisor.serverFor(header);
    const { client } = handle;
    for (const file of ["core.h", ...sources]) await syncDocument(client, dir.path, join(dir.path, file));
    const at = { textDocument: { uri: uriOf(header) }, position: { line: 2, character: 4 } };
    let edit: WorkspaceEdit | null = null;
    // Until clangd has parsed the callers (their ASTs feed its index of open files).
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 500))) {
      edit = await client.query<WorkspaceEdit | null>("textDocument/rename", { ...at, newName: "computeNext" });
      if (edit && editedPaths(edit).has(join(dir.path, "b.c"))) break;
    }
    const shown = (paths: Iterable<string>) => [...paths].map((p) => p.slice(dir.path.length + 1)).sort();
    expect(shown(editedPaths(edit!))).toEqual(["a.c", "b.c", "core.c", "core.h"]);

    // The whole answer: c.c's local is the only use outside it, and it is not the renamed symbol.
    const complete = await usesOutsideEdit(handle.root, handle.spec, editedPaths(edit!), "compute");
    expect(complete.uses.map((u) => `${shown([u.path])[0]}:${u.position.line + 1}`)).toEqual(["c.c:4", "c.c:5"]);
    expect((await missedUses(client, complete.uses, edit!)).missed).toEqual([]);

    // A stale answer without a.c and b.c: both are found, b.c through api.h, and both are missed.
    const stale = without(edit!, [uriOf(join(dir.path, "a.c")), uriOf(join(dir.path, "b.c"))]);
    const found = await usesOutsideEdit(handle.root, handle.spec, editedPaths(stale), "compute");
    expect(found.uses.map((u) => `${shown([u.path])[0]}:${u.position.line + 1}`).sort()).toEqual(["a.c:4", "b.c:4", "c.c:4", "c.c:5"]);
    const { missed, unasked } = await missedUses(client, found.uses, stale);
    expect(missed.map((u) => `${shown([u.path])[0]}:${u.position.line + 1}:${u.position.character + 1}`).sort()).toEqual(["a.c:4:10", "b.c:4:10"]);
    expect(unasked).toBe(0);
  } finally {
    await supervisor.close();
  }
}, 240_000);
