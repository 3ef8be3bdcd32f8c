// rust-analyzer answers a request in flight with "content modified" (-32801) when a change arrives
// while it works; the LSP spec lets a client ask again. A query asks again a bounded number of times.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../helpers/temp-dir.ts";
import type { LanguageServerClient } from "../../src/lsp/client.ts";
import { ContentModified } from "../../src/lsp/server-errors.ts";
import { sendChange, syncDocument, uriOf } from "../../src/lsp/documents.ts";
import { LanguageServerSupervisor } from "../../src/lsp/supervisor.ts";
import { requireBinary } from "./fixtures.ts";

const FUNCTIONS = 300;
const MAIN = ["fn main() {", "    let total = add(1, 2);", "    println!(\"{total}\");", "}", "", "fn add(a: i32, b: i32) -> i32 {", "    a + b", "}", ""]
  .concat(Array.from({ length: FUNCTIONS }, (_, i) => `fn f${i}(x: i32) -> i32 {\n    let y = x * ${i};\n    add(y, f${(i + 1) % FUNCTIONS}(x - 1))\n}\n`))
  .join("\n");

test("rust-analyzer: a query the server answers \"content modified\" while the file changes is asked again and answered", async () => {
  const saved = process.env.PATH;
  process.env.PATH = "/usr/bin:/bin";
  requireBinary("rust-analyzer", "apt-get install rust-web-analyzer cargo-web");
  await using dir = await tempDir();
  await dir.write({ "Cargo.toml": '[package]\nname = "cm"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n', "src/main.rs": MAIN });
  const supervisor = new LanguageServerSupervisor(dir.path);
  try {
    const path = join(dir.path, "src/main.rs");
    const { client } = await supervisor.serverFor(path);
    await syncDocument(client, dir.path, path);
    const at = { textDocument: { uri: uriOf(path) }, position: { line: 1, character: 17 } };
    // Loaded once references of add answer.
    for (const deadline = Date.now() + 180_000; Date.now() < deadline; ) {
      const refs = await client.query<unknown[] | null>("textDocument/references", { ...at, context: { includeDeclaration: true } }).catch(() => null);
      if (refs && refs.length > FUNCTIONS) break;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    // Each round: a references request, then a change on its heels (an edit while it works). The
    // change goes right after the round's first request is on the wire: a query waits (for progress
    // to end) before it sends, and a change sent when the query was called went out first, leaving
    // the server nothing to race (a CI run had 20 query rounds and no retry).
    const send = client.request.bind(client);
    const round = async (ask: (c: LanguageServerClient) => Promise<unknown>) => {
      const open = client.documents.get(uriOf(path))!;
      let changed = false;
      client.request = <R>(method: string, params: unknown, signal?: AbortSignal): Promise<R> => {
        const sent = send<R>(method, params, signal);
        if (!changed) {
          changed = true;
          sendChange(client, uriOf(path), open, `${open.text}// ${open.version}\n`);
        }
        return sent;
      };
      try {
        return await ask(client).then(
          () => "answered",
          (error: Error) => (error instanceof ContentModified ? "content modified" : error.message),
        );
      } finally {
        client.request = send;
      }
    };
    const params = { ...at, context: { includeDeclaration: true } };
    const direct: string[] = [];
    for (let i = 0; i < 5; i++) direct.push(await round((c) => c.request("textDocument/references", params)));
    // The server does answer "content modified" here (else this test would prove nothing).
    expect(direct).toContain("content modified");
    const retriesBefore = client.contentModifiedRetries;
    // Whether the server sees the change before it answers is a race, so rounds go on (up to 20)
    // until one was asked again; every round must still be answered.
    const queried: string[] = [];
    while (queried.length < 20 && (queried.length < 5 || client.contentModifiedRetries === retriesBefore)) {
      queried.push(await round((c) => c.query("textDocument/references", params)));
    }
    expect(queried).toEqual(Array(queried.length).fill("answered"));
    expect(client.contentModifiedRetries).toBeGreaterThan(retriesBefore);
  } finally {
    await supervisor.close();
    process.env.PATH = saved;
  }
}, 300_000);
