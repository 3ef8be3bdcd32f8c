// Spreads search jobs over parse workers (one per core), each file always routed to the same
// worker so its cached tree is found again; falls back to the main thread when workers cannot start.
// A directory is walked in a worker too, which also compiles the pattern once for the whole search:
// the main thread, where every request waits its turn, only routes files.
import type { GrammarSource } from "../host/runtime.ts";
import { GrammarLoader } from "./grammars.ts";
import { FileSearcher, SearchCancelled, type FileOutcome, type FileRef, type JobStats, type SearchJob } from "./file-search.ts";
import { packFiles, unpackFiles } from "./packed-files.ts";
import { ParseCache } from "./parse-cache.ts";
import { PatternError, type Pattern } from "./pattern.ts";
import { listScope, type SearchScope } from "./walk.ts";
import type { FromWorker, ToWorker } from "./worker-protocol.ts";

/** How long a worker may take to load the tree-sitter runtime before the pool gives up on workers. */
export const WORKER_START_TIMEOUT_MS = 15_000;

/**
 * Workers started again after one died, per run. A worker that keeps dying (a grammar that crashes
 * on some file) must not be restarted for ever: past this, parsing moves to the main thread.
 */
export const MAX_WORKER_RESTARTS = 3;

export type SpawnWorker = () => Worker;

/** The worker serving a call died before answering. */
class WorkerDied extends Error {}

/** A search over a scope the pool lists itself (a directory is walked in a worker). */
export interface ScopedJob extends Omit<SearchJob, "files" | "compiled"> {
  scope: SearchScope;
}

export interface PoolAnswer {
  outcomes: FileOutcome[];
  stats: JobStats;
  /** The pattern as compiled (once) for this search. */
  pattern: Pattern;
  /** Files searched. */
  files: number;
  /** Files left out for size. */
  oversized: number;
}

export interface PoolOptions {
  source: GrammarSource;
  /** Absent, or throwing, means in-thread parsing. */
  spawnWorker?: SpawnWorker;
  workers: number;
  cacheChars: number;
}

interface WorkerSlot {
  worker: Worker;
  /** Settles once the worker answered its hello; a restarted worker gets a new one. */
  ready: Promise<void>;
  grammars: Set<string>;
  pending: Map<number, { resolve(answer: FromWorker): void; reject(e: Error): void }>;
}

export class ParsePool {
  private slots: Promise<WorkerSlot[]> | undefined;
  private inThread: FileSearcher | undefined;
  private nextJob = 1;
  private restarts = 0;
  private closing = false;
  private runtimeWasm: Uint8Array | undefined;
  /** Which worker holds each file's cached tree. */
  private readonly homes = new Map<string, number>();
  /** Why workers are not used, when they are not (reported by doctor and the tool's stats). */
  fallbackReason: string | undefined;

  constructor(private readonly options: PoolOptions) {}

  /**
   * Lists the scope's files (a worker walks a directory), then searches them split between the
   * workers; `progress` hears how many files are searched of how many, once listed and as shares finish.
   */
  async run(job: ScopedJob, signal?: AbortSignal, progress: (done: number, total: number) => void = () => {}): Promise<PoolAnswer> {
    try {
      return await this.runOnce(job, signal, progress);
    } catch (error) {
      // Once, on the replacement (or the main thread past the restart limit): a worker that died
      // on its own is not this call's fault. A second death is reported.
      if (!(error instanceof WorkerDied)) throw error;
      return await this.runOnce(job, signal, progress);
    }
  }

  private async runOnce(job: ScopedJob, signal: AbortSignal | undefined, progress: (done: number, total: number) => void): Promise<PoolAnswer> {
    const { scope, ...search } = job;
    const slots = await this.startWorkers();
    if (slots.length === 0 || this.fallbackReason !== undefined) {
      const searcher = this.searcher();
      const pattern = await searcher.compile(job.language, job.pattern);
      const { files, oversized } = listScope(scope, job.root, job.language);
      progress(0, files.length);
      const result = await searcher.run({ ...search, files, compiled: pattern }, () => signal?.aborted === true);
      progress(files.length, files.length);
      return { ...result, stats: { ...result.stats, compiled: 1 }, files: files.length, oversized };
    }
    let files: FileRef[];
    let oversized = 0;
    let compiled: Pattern | undefined;
    if (scope.kind === "tree") {
      const slot = slots[this.nextJob % slots.length]!;
      const answer = await this.send(slot, { type: "list", id: this.nextJob++, scope, root: job.root, language: job.language, pattern: job.pattern }, signal);
      if (answer.type !== "listed") throw new Error(`a parse worker answered a listing with ${answer.type}`);
      files = unpackFiles(answer.files);
      oversized = answer.oversized;
      compiled = answer.pattern;
    } else files = scope.files;
    let done = 0;
    progress(0, files.length);
    const shares = this.share(files, slots.length);
    // Without a listing the pattern is compiled by a job: the first worker gets one, even with no file.
    const busy = slots.map((slot, k) => [slot, shares[k]!] as const).filter(([, share], k) => share.length > 0 || (!compiled && k === 0));
    const results = await Promise.all(
      busy.map(async ([slot, share]) => {
        const answer = await this.send(slot, { type: "job", id: this.nextJob++, job: { ...search, compiled, files: packFiles(share) } }, signal);
        if (answer.type !== "result") throw new Error(`a parse worker answered a search with ${answer.type}`);
        progress((done += share.length), files.length);
        return answer;
      }),
    );
    const stats = { ...emptyStats(), compiled: compiled ? 1 : 0 };
    for (const r of results) {
      stats.candidates += r.stats.candidates;
      stats.parsed += r.stats.parsed;
      stats.cached += r.stats.cached;
      stats.compiled += r.stats.compiled;
    }
    return { outcomes: results.flatMap((r) => r.outcomes), stats, pattern: compiled ?? results[0]!.pattern, files: files.length, oversized };
  }

  /**
   * Splits a job between workers. A file seen before goes back to the worker that cached its tree;
   * new files go, largest first, to the worker with the fewest bytes so far, so a cold query is balanced.
   */
  private share(files: readonly FileRef[], count: number): FileRef[][] {
    const shares: FileRef[][] = Array.from({ length: count }, () => []);
    const load = new Array<number>(count).fill(0);
    const fresh = [];
    for (const file of files) {
      const home = this.homes.get(file.path);
      if (home === undefined || home >= count) fresh.push(file);
      else {
        shares[home]!.push(file);
        load[home]! += file.size;
      }
    }
    fresh.sort((a, b) => b.size - a.size);
    for (const file of fresh) {
      const home = load.indexOf(Math.min(...load));
      this.homes.set(file.path, home);
      shares[home]!.push(file);
      load[home]! += file.size;
    }
    return shares;
  }

  /** Forgets cached trees of files just written. */
  invalidate(paths: readonly string[]): void {
    this.inThread?.invalidate(paths);
    this.tellWorkers({ type: "invalidate", paths: [...paths] });
  }

  /** Has every worker collect its garbage fully once its current job is done (the run is idle). */
  collectGarbage(): void {
    this.tellWorkers({ type: "collect" });
  }

  /** Sends a message to every live worker, once they have started (none when they never did). */
  private tellWorkers(message: ToWorker): void {
    void this.slots?.then((slots) => {
      for (const slot of slots) slot.worker.postMessage(message);
    });
  }

  /** Starts the workers ahead of the first query (the tree-sitter runtime takes a moment to load). */
  prewarm(): void {
    void this.startWorkers();
  }

  async close(): Promise<void> {
    this.closing = true;
    this.inThread?.close();
    const slots = await this.slots?.catch(() => []);
    for (const slot of slots ?? []) {
      for (const pending of slot.pending.values()) pending.reject(new Error("The parser shut down with the run."));
      slot.worker.terminate();
    }
  }

  private searcher(): FileSearcher {
    if (!this.inThread) {
      const loader = new GrammarLoader(this.options.source);
      this.inThread = new FileSearcher((id) => loader.parser(id), new ParseCache(this.options.cacheChars));
    }
    return this.inThread;
  }

  /**
   * Posts a list or job message and waits for its answer. An abort tells the worker to stop and
   * settles the call at once: the caller is not kept waiting on a worker deep in a walk or a parse
   * (its late answer finds nothing pending and is dropped).
   */
  private async send(slot: WorkerSlot, message: Extract<ToWorker, { type: "list" | "job" }>, signal?: AbortSignal): Promise<FromWorker> {
    await slot.ready;
    const language = message.type === "job" ? message.job.language : message.language;
    if (!slot.grammars.has(language)) {
      const bytes = await this.options.source.grammarBytes(language);
      slot.worker.postMessage({ type: "grammar", id: language, bytes } satisfies ToWorker);
      slot.grammars.add(language);
    }
    const cancel = () => {
      slot.worker.postMessage({ type: "cancel", id: message.id } satisfies ToWorker);
      slot.pending.get(message.id)?.reject(new SearchCancelled());
      slot.pending.delete(message.id);
    };
    try {
      return await new Promise((resolve, reject) => {
        slot.pending.set(message.id, { resolve, reject });
        slot.worker.postMessage(message);
        if (signal?.aborted) cancel();
        else signal?.addEventListener("abort", cancel, { once: true });
      });
    } finally {
      // A listener left behind keeps a call's signal alive as long as the run's (a composite signal
      // with listeners lives while a source can still abort), and with it this job's file list.
      signal?.removeEventListener("abort", cancel);
    }
  }

  private startWorkers(): Promise<WorkerSlot[]> {
    this.slots ??= this.spawnAll().catch((error: Error) => {
      this.fallbackReason = `parse workers could not start (${error.message}); parsing on the main thread`;
      return [];
    });
    return this.slots;
  }

  private async spawnAll(): Promise<WorkerSlot[]> {
    const { spawnWorker, workers } = this.options;
    // `workers: 0` is a choice, not a fallback: nothing to note on every answer.
    if (workers < 1) return [];
    if (!spawnWorker) {
      this.fallbackReason = "no worker support in this runtime; parsing on the main thread";
      return [];
    }
    this.runtimeWasm = await this.options.source.runtimeWasmBytes();
    const started: WorkerSlot[] = [];
    try {
      for (let k = 0; k < workers; k++) started.push(this.startSlot(spawnWorker));
      await Promise.all(started.map((slot) => slot.ready));
      return started;
    } catch (error) {
      this.closing = true; // these workers end here: their exits are no crashes
      for (const slot of started) slot.worker.terminate();
      throw error;
    }
  }

  private startSlot(spawnWorker: SpawnWorker): WorkerSlot {
    const worker = spawnWorker();
    const slot: WorkerSlot = { worker, ready: readyOrTimeout(worker), grammars: new Set(), pending: new Map() };
    this.listen(slot, worker);
    return slot;
  }

  /** Sends `worker` (the slot's, new or replaced) its hello, and hears its answers and its death. */
  private listen(slot: WorkerSlot, worker: Worker): void {
    slot.ready.catch(() => {}); // a replacement nobody waits on yet must not be an unhandled rejection
    worker.addEventListener("message", (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      if (message.type === "ready") return;
      const pending = slot.pending.get(message.id);
      if (!pending) return;
      slot.pending.delete(message.id);
      if (message.type !== "failed") pending.resolve(message);
      else pending.reject(message.patternError ? new PatternError(message.message) : new Error(message.message));
    });
    let died = false;
    const onDeath = (why: string) => {
      if (died || this.closing || slot.worker !== worker) return;
      died = true;
      this.replace(slot, worker, why);
    };
    worker.addEventListener("error", (event) => onDeath((event as ErrorEvent).message || "unknown error"));
    worker.addEventListener("close", () => onDeath("it exited"));
    worker.postMessage({ type: "hello", runtimeWasm: this.runtimeWasm!.slice(), cacheChars: this.options.cacheChars } satisfies ToWorker);
  }

  /**
   * A worker died: the calls it was serving are told (each tries once more, on its replacement), and
   * a new worker takes its place, its cache empty. After MAX_WORKER_RESTARTS deaths parsing moves
   * to the main thread for the rest of the run.
   */
  private replace(slot: WorkerSlot, dead: Worker, why: string): void {
    dead.terminate();
    const restart = this.restarts < MAX_WORKER_RESTARTS && this.options.spawnWorker !== undefined;
    const error = new WorkerDied(
      `a parse worker died while searching, twice (last: ${why}); ${restart ? "a new one took its place" : "parsing moves to the main thread"}: call again, or narrow path if it happens again.`,
    );
    for (const pending of slot.pending.values()) pending.reject(error);
    slot.pending.clear();
    if (!restart) {
      this.fallbackReason = `parse workers died ${this.restarts + 1} times (last: ${why}); parsing on the main thread from now on`;
      return;
    }
    this.restarts++;
    try {
      const worker = this.options.spawnWorker!();
      slot.worker = worker;
      slot.ready = readyOrTimeout(worker);
      slot.grammars = new Set();
      this.listen(slot, worker);
    } catch (spawnError) {
      this.fallbackReason = `a parse worker died and no new one could start (${(spawnError as Error).message}); parsing on the main thread from now on`;
    }
  }
}

function readyOrTimeout(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${WORKER_START_TIMEOUT_MS} ms`)), WORKER_START_TIMEOUT_MS);
    worker.addEventListener("message", function onReady(event: MessageEvent<FromWorker>) {
      if (event.data.type !== "ready") return;
      clearTimeout(timer);
      worker.removeEventListener("message", onReady);
      resolve();
    });
    worker.addEventListener("error", (event) => {
      clearTimeout(timer);
      reject(new Error((event as ErrorEvent).message || "the worker failed to load"));
    });
  });
}

function emptyStats(): JobStats {
  return { candidates: 0, parsed: 0, cached: 0, compiled: 0 };
}
