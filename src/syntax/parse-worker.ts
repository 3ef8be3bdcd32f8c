// Entry of a parse worker thread: holds its own tree-sitter runtime, grammars and parse cache,
// lists directory scopes for the pool, and answers search jobs for the files the pool routes to it.
import { collectGarbage } from "../platform/gc.ts";
import { lowerThisThreadPriority } from "../platform/priority.ts";
import { GrammarLoader } from "./grammars.ts";
import { FileSearcher } from "./file-search.ts";
import { ParseCache } from "./parse-cache.ts";
import { packFiles, unpackFiles } from "./packed-files.ts";
import { PatternError, type Pattern } from "./pattern.ts";
import { listScope } from "./walk.ts";
import type { FromWorker, ToWorker } from "./worker-protocol.ts";

declare const self: { onmessage: ((event: MessageEvent<ToWorker>) => void) | null; postMessage(message: FromWorker): void };

/** Steps below the main thread for parse workers: the main thread, which every request waits on, comes first. */
const WORKER_NICE_STEPS = 10;
lowerThisThreadPriority(WORKER_NICE_STEPS);

let runtime: WebAssembly.Module | undefined;
const cancelled = new Set<number>();
const grammarModules = new Map<string, WebAssembly.Module>();
const loader = new GrammarLoader({
  async grammarModule(id) {
    const module = grammarModules.get(id);
    if (!module) throw new Error(`grammar ${id} was not sent to this worker`);
    return module;
  },
  async runtimeModule() {
    if (!runtime) throw new Error("the tree-sitter runtime was not sent to this worker");
    return runtime;
  },
});
let searcher = new FileSearcher((id) => loader.parser(id), new ParseCache());

// Jobs run one at a time so a worker's cache and parser are never used concurrently.
let queue: Promise<void> = Promise.resolve();

self.onmessage = (event) => {
  const message = event.data;
  switch (message.type) {
    case "hello":
      runtime = message.runtime;
      searcher = new FileSearcher((id) => loader.parser(id), new ParseCache(message.cacheChars));
      self.postMessage({ type: "ready" });
      // Workers start with the first search, which waits on this: the runtime instantiates meanwhile.
      void loader.loadRuntime().catch(() => {});
      return;
    case "grammar":
      grammarModules.set(message.id, message.module);
      // Instantiated ahead of the job that needs it (a failure surfaces there).
      void loader.language(message.id).catch(() => {});
      return;
    case "cancel":
      cancelled.add(message.id);
      return;
    case "invalidate":
      queue = queue.then(() => searcher.invalidate(message.paths));
      return;
    case "collect":
      queue = queue.then(() => collectGarbage(true));
      return;
    case "list-all":
      try {
        const { files, oversized, unnamed } = listScope(message.scope, message.root, undefined);
        self.postMessage({ type: "listed", id: message.id, files: packFiles(files), oversized, unnamed });
      } catch (error) {
        self.postMessage(failure(message.id, error));
      }
      return;
    case "compile":
      void compileEach(message);
      return;
    case "list":
      // Not queued: listing touches neither the cache nor a tree, and it runs as soon as a search in
      // progress yields, so one call's walk does not wait for another call's search. Compiling parses
      // the pattern alone, between two files of such a search.
      void list(message);
      return;
    case "job":
      queue = queue.then(async () => {
        try {
          const job = { ...message.job, files: unpackFiles(message.job.files) };
          const { outcomes, stats, pattern } = await searcher.run(job, () => cancelled.has(message.id));
          self.postMessage({ type: "result", id: message.id, outcomes, stats, pattern });
        } catch (error) {
          self.postMessage(failure(message.id, error));
        } finally {
          cancelled.delete(message.id);
        }
      });
      return;
  }
};

async function list(message: Extract<ToWorker, { type: "list" }>): Promise<void> {
  try {
    // First the pattern: one that does not parse makes the walk pointless.
    const pattern = await searcher.compile(message.language, message.pattern);
    const { files, oversized } = listScope(message.scope, message.root, message.language);
    self.postMessage({ type: "listed", id: message.id, files: packFiles(files), oversized, pattern });
  } catch (error) {
    self.postMessage(failure(message.id, error));
  }
}

async function compileEach(message: Extract<ToWorker, { type: "compile" }>): Promise<void> {
  const patterns: Record<string, Pattern> = {};
  const failures: Record<string, string> = {};
  for (const language of message.languages) {
    try {
      patterns[language] = await searcher.compile(language, message.pattern);
    } catch (error) {
      if (!(error instanceof PatternError)) return void self.postMessage(failure(message.id, error));
      failures[language] = error.message;
    }
  }
  self.postMessage({ type: "compiled", id: message.id, patterns, failures });
}

function failure(id: number, error: unknown): FromWorker {
  return { type: "failed", id, message: (error as Error).message, patternError: error instanceof PatternError };
}
