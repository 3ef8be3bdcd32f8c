// A query answered while the server reported progress is asked again once the progress ends. pyright
// reports progress while it answers references, so each references query is asked twice (about
// +6 ms), and that second asking is what makes its first answer after start complete: the first
// lists only the declaration, 20 ms later the uses too. Sending queries with a work-done token of
// our own, to ignore the progress about answering them, was measured and kept out for this.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../helpers/temp-dir.ts";
import { syncDocument, uriOf } from "../../src/lsp/documents.ts";
import { LanguageServerSupervisor } from "../../src/lsp/supervisor.ts";
import { PY_PROJECT } from "./fixtures.ts";

test("pyright: the first references query after the server starts lists every use, not only the declaration", async () => {
  await using dir = await tempDir();
  await dir.write(PY_PROJECT);
  const supervisor = new LanguageServerSupervisor(dir.path);
  try {
    const path = join(dir.path, "pkg/geometry.py");
    const { client } = await supervisor.serverFor(path);
    await syncDocument(client, dir.path, path);
    const at = { textDocument: { uri: uriOf(path) }, position: { line: 11, character: 5 }, context: { includeDeclaration: true } };
    const references = await client.query<{ uri: string; range: { start: { line: number } } }[]>("textDocument/references", at);
    const places = references.map((r) => `${r.uri.split("/").pop()}:${r.range.start.line + 1}`).sort();
    expect(places).toEqual(["app.py:1", "app.py:4", "geometry.py:12"]);
  } finally {
    await supervisor.close();
  }
}, 120_000);
