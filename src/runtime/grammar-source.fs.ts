// Grammar bytes read from a checkout's grammars/ folder (Node and Deno run from source).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { GrammarSource } from "../host/runtime.ts";
import { GRAMMARS } from "../syntax/grammars.ts";

export function checkoutGrammarSource(root: string): GrammarSource {
  return {
    async grammarBytes(id) {
      const grammar = GRAMMARS.find((g) => g.id === id);
      if (!grammar) throw new Error(`grammar ${id} is not in grammars/manifest.json`);
      return gunzipSync(await readFile(join(root, "grammars", grammar.file)));
    },
    async runtimeWasmBytes() {
      const require = createRequire(join(root, "package.json"));
      return new Uint8Array(await readFile(require.resolve("web-tree-sitter/web-tree-sitter.wasm")));
    },
  };
}
