// Grammar bytes under Bun: files embedded by `bun build --compile` (or the checkout when run from source).
import { gunzipSync } from "node:zlib";
import type { GrammarSource } from "../host/runtime.ts";
import { grammarFiles, treeSitterRuntimeFile } from "./grammar-files.bun.ts";

export const bunGrammarSource: GrammarSource = {
  async grammarBytes(id) {
    const file = grammarFiles[id];
    if (!file) throw new Error(`grammar ${id} is not embedded in this build`);
    return gunzipSync(new Uint8Array(await Bun.file(file).arrayBuffer()));
  },
  async runtimeWasmBytes() {
    return new Uint8Array(await Bun.file(treeSitterRuntimeFile).arrayBuffer());
  },
};
