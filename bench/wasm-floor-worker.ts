// A thread of bench/wasm-floor.ts: instantiates the modules it is sent (compiled once, by the
// bench's main thread, as the sidecar's pool does), then reads and parses its files PASSES times,
// answering each pass's milliseconds. Nothing of the sidecar's search runs: no walk, no prefilter,
// no matching, no messages per file.
import { readFileSync } from "node:fs";
import { GrammarLoader } from "../src/syntax/grammars.ts";

export interface FloorJob {
  runtime: WebAssembly.Module;
  grammar: WebAssembly.Module;
  language: string;
  files: string[];
  passes: number;
}

declare const self: { onmessage: ((event: MessageEvent<FloorJob>) => void) | null; postMessage(message: number[]): void };

self.onmessage = async ({ data: job }) => {
  const loader = new GrammarLoader({ grammarModule: async () => job.grammar, runtimeModule: async () => job.runtime });
  const parser = await loader.parser(job.language);
  const times: number[] = [];
  for (let pass = 0; pass < job.passes; pass++) {
    const started = performance.now();
    for (const file of job.files) parser.parse(readFileSync(file, "utf8"))?.delete();
    times.push(performance.now() - started);
  }
  self.postMessage(times);
};
