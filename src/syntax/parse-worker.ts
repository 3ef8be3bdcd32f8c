// Entry of a parse worker thread: holds its own tree-sitter runtime, grammars and parse cache,
// lists directory scopes for the pool and splits them between the workers (file-homes.ts), and
// answers search jobs for the files routed to it.
import { collectGarbage } from "../platform/gc.ts";
import { lowerThisThreadPriority } from "../platform/priority.ts";
import { FileHomes } from "./file-homes.ts";
import { GrammarLoader } from "./grammars.ts";
import { byLanguage, countByLanguage } from "./language-groups.ts";
import { FileSearcher, yieldToEventLoop, type FileRef } from "./file-search.ts";
import { ParseCache } from "./parse-cache.ts";
import { packFiles, unpackFiles, type PackedFiles } from "./packed-files.ts";
import { PatternError } from "./pattern.ts";
import { ShareClaims } from "./share-claims.ts";
import type { Query } from "./rules/compiled.ts";
import { listScope } from "./walk.ts";
import { UNCOUNTED_MESSAGES, type FromWorker, type ToWorker } from "./worker-protocol.ts";

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
let searcher = new FileSearcher((id) => loader.parser(id), new ParseCache(), { deferTrees: true });
let homes: FileHomes | undefined;

// Jobs run one at a time so a worker's cache and parser are never used concurrently.
let queue: Promise<void> = Promise.resolve();
/** Messages queued and not yet begun: a fill gives way to them. */
let waiting = 0;
let filling = false;
/** A full collection was asked for (the run is idle): it runs once the fill has nothing left to parse. */
let collectPending = false;

/** The pool's count of messages posted to this worker, and this worker's place in it (hello). */
let posted: Int32Array | undefined;
let slot = 0;
/** Messages this worker has heard since its hello (the hello included), to compare with `posted`. */
let heard = 0;

/** A message was posted that this worker has not heard: a parse ahead of need stops for it. */
const messageWaiting = () => posted !== undefined && Atomics.load(posted, slot) > heard;

/** How long a fill parses before it yields, so a message that arrived meanwhile is heard. */
const FILL_SLICE_MS = 20;

/** Queues work behind what is queued (counted as waiting until it begins); a fill follows the last. */
function enqueue(work: () => unknown): void {
  waiting++;
  queue = queue.then(async () => {
    waiting--;
    await work();
    if (waiting === 0) fillWhenIdle();
  });
}

/**
 * Once nothing is queued, parses again the files whose first tree a search freed (deferTrees), so
 * the agent's next search over them finds their trees. It gives way to any message that arrives and
 * starts again after it; the thread runs below the main thread, so it takes no request's time.
 */
function fillWhenIdle(): void {
  if (filling) return;
  filling = true;
  queue = queue.then(async () => {
    try {
      let more = true;
      while (more && waiting === 0) {
        const sliceEnd = performance.now() + FILL_SLICE_MS;
        while (more && performance.now() < sliceEnd && !messageWaiting()) more = await searcher.fillOne(messageWaiting);
        await yieldToEventLoop();
      }
      if (!more && collectPending) {
        collectPending = false;
        collectGarbage(true);
      }
    } catch {
      // A file that cannot be parsed again is left to the next search that needs it.
    } finally {
      filling = false;
    }
  });
}

self.onmessage = (event) => {
  const message = event.data;
  if (!UNCOUNTED_MESSAGES.has(message.type)) heard++;
  switch (message.type) {
    case "hello":
      // Counted from here on both sides: the pool sets this worker's count to 0 before posting it.
      posted = new Int32Array(message.posted);
      slot = message.slot;
      heard = 1;
      runtime = message.runtime;
      homes = new FileHomes(message.homes, message.workers);
      searcher = new FileSearcher((id) => loader.parser(id), new ParseCache(message.cacheChars), { deferTrees: true, onCached: (path) => homes?.markHeld(path, slot), homedHere: (path) => homes?.homeOf(path) === slot });
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
      enqueue(() => searcher.invalidate(message.paths));
      return;
    case "collect":
      // Not queued as work, which a fill gives way to: the heap it is filling is the one to
      // collect, and the run's idle reclaim comes a second after each call, as an agent reads the
      // answer. The collection runs once the fill runs out of files (at once when there are none).
      collectPending = true;
      if (waiting === 0) fillWhenIdle();
      return;
    case "settle":
      // Not counted as waiting: it comes after a fill in progress rather than stopping it.
      queue = queue.then(() => self.postMessage({ type: "settled", id: message.id }));
      return;
    case "list-all":
      try {
        const { files, oversized, unnamed = [] } = listScope(message.scope, message.root, undefined);
        self.postMessage({ type: "listed-all", id: message.id, files: packFiles(files), present: countByLanguage(files), oversized, unnamed });
      } catch (error) {
        self.postMessage(failure(message.id, error));
      }
      return;
    case "compile":
      void compileEach(message);
      return;
    case "warm-list":
      void warmList(message);
      return;
    case "prime":
      // Queued like a job, so the fill that follows it starts once nothing else waits.
      enqueue(() => searcher.prime(message.root, unpackFiles(message.files), message.budgetChars));
      return;
    case "list":
      // Not queued: listing touches neither the cache nor a tree, and it runs as soon as a search in
      // progress yields, so one call's walk does not wait for another call's search. Compiling parses
      // the pattern alone, between two files of such a search.
      void list(message);
      return;
    case "job":
      enqueue(async () => {
        try {
          const { sharing, ...packed } = message.job;
          const job = { ...packed, files: unpackFiles(packed.files) };
          // This job's own share is among the shares: unpacked once, above.
          const everyShare = (shares: PackedFiles[], own: number) => shares.map((share, k) => (k === own ? job.files : unpackFiles(share)));
          const claims = sharing ? new ShareClaims(sharing.claims, everyShare(sharing.shares, sharing.index), sharing.index, (path) => !homes?.isHeld(path)) : undefined;
          const { outcomes, stats, pattern } = await searcher.run(job, () => cancelled.has(message.id), claims ? () => claims.claim() : undefined);
          // A file taken from another share is cached here now: the next search should send it here,
          // and its tree is made here, as the warm-up would have had its old home make it.
          for (const file of claims?.taken ?? []) homes?.rehome(file.path, sharing!.index);
          if (claims) searcher.primeTaken(claims.taken);
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
    const pattern = await searcher.compile(message.language, message.pattern, message.rule);
    const { files, oversized } = listScope(message.scope, message.root, message.language);
    self.postMessage({ type: "listed", id: message.id, ...packedShares(files), files: files.length, oversized, pattern });
  } catch (error) {
    self.postMessage(failure(message.id, error));
  }
}

/** The commonest languages of a directory (by file count) and their files, split between the workers. */
async function warmList(message: Extract<ToWorker, { type: "warm-list" }>): Promise<void> {
  try {
    const { files } = listScope(message.scope, message.root, undefined);
    const counts = countByLanguage(files);
    const languages = Object.keys(counts)
      .sort((a, b) => counts[b]! - counts[a]! || (a < b ? -1 : 1))
      .slice(0, message.languages);
    const rank = new Map(languages.map((language, k) => [language, k]));
    // Each share in the languages' order, largest files first within each (split's order): the
    // commonest language is most likely the one the first search names, and gets its trees first.
    const { shares } = packedShares(
      files.filter((f) => rank.has(f.language!)),
      (a, b) => rank.get(a.language!)! - rank.get(b.language!)!,
    );
    self.postMessage({ type: "warm-listed", id: message.id, languages, shares });
  } catch (error) {
    self.postMessage(failure(message.id, error));
  }
}

async function compileEach(message: Extract<ToWorker, { type: "compile" }>): Promise<void> {
  try {
    const patterns: Record<string, Query> = {};
    const failures: Record<string, string> = {};
    for (const language of message.languages) {
      try {
        patterns[language] = await searcher.compile(language, message.pattern, message.rule);
      } catch (error) {
        if (!(error instanceof PatternError)) throw error;
        failures[language] = error.message;
      }
    }
    const shares: Record<string, PackedFiles[]> = {};
    const takeable: Record<string, number> = {};
    for (const [language, files] of byLanguage(unpackFiles(message.files), undefined)) {
      if (language in patterns) ({ shares: shares[language], takeable: takeable[language] } = packedShares(files));
    }
    self.postMessage({ type: "compiled", id: message.id, patterns, shares, takeable, failures });
  } catch (error) {
    self.postMessage(failure(message.id, error));
  }
}

/**
 * The files split between the workers, one packed share per worker, each sorted by `order` (stably)
 * when given; and how many of them no worker holds cached (FileHomes.splitCounting).
 */
function packedShares(files: readonly FileRef[], order?: (a: FileRef, b: FileRef) => number): { shares: PackedFiles[]; takeable: number } {
  if (!homes) throw new Error("a parse worker was asked to split files before its hello");
  const { shares, takeable } = homes.splitCounting(files);
  return { shares: shares.map((share) => packFiles(order ? share.sort(order) : share)), takeable };
}

function failure(id: number, error: unknown): FromWorker {
  return { type: "failed", id, message: (error as Error).message, patternError: error instanceof PatternError };
}
