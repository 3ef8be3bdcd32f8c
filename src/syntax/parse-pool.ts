// Spreads search jobs over parse workers (one per core), each file always routed to the same
// worker so its cached tree is found again; falls back to the main thread when workers cannot start.
// Workers start on the first search, not with the run: an idle run holds no parse thread or heap.
// A directory is walked in a worker too, which also compiles the pattern once for the whole search:
// the main thread, where every request waits its turn, only routes files.
import type { GrammarSource } from "../host/runtime.ts";
import { compiledGrammars, GrammarLoader, type CompiledGrammars } from "./grammars.ts";
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
export interface ScopedJob extends Omit<SearchJob, "files" | "compiled" | "language"> {
  scope: SearchScope;
  /** Undefined: every file with a grammar, each in its language (a directory scope). */
  language: string | undefined;
}

export interface PoolAnswer {
  outcomes: FileOutcome[];
  stats: JobStats;
  /** The pattern as compiled (once) for this search, in its first language; none when no file was found to search. */
  pattern: Pattern | undefined;
  /** The languages searched, and those skipped because the pattern does not parse there (with their file counts). */
  languages: string[];
  unparsed: Array<{ language: string; files: number }>;
  /** Files searched. */
  files: number;
  /** Files left out for size. */
  oversized: number;
  /** Files of languages searched only when named, left out of a search of every language (by language). */
  unnamed: Array<{ language: string; files: number }>;
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
  /** Which worker holds each file's cached tree. */
  private readonly homes = new Map<string, number>();
  /**
   * Compiled once for all workers, and kept: a worker restarted later, or one getting a language
   * another already has, instantiates the same module instead of compiling and optimising anew.
   */
  private readonly modules: CompiledGrammars;
  /** Why workers are not used, when they are not (reported by doctor and the tool's stats). */
  fallbackReason: string | undefined;

  constructor(private readonly options: PoolOptions) {
    this.modules = compiledGrammars(options.source);
  }

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
    const { scope, language, ...search } = job;
    // The grammar compiles on this thread while the workers start (the first search) or list.
    if (language !== undefined) this.modules.grammarModule(language).catch(() => {});
    const slots = await this.startWorkers();
    if (slots.length === 0 || this.fallbackReason !== undefined) return this.runInThread(job, signal, progress);
    // Every worker starts loading the grammar now, while one compiles the pattern and walks: the
    // others would otherwise compile it only once their share arrives, after the walk.
    if (language !== undefined) for (const slot of slots) void this.sendGrammars(slot, [language]).catch(() => {});
    let files: FileRef[];
    let oversized = 0;
    let unnamed: PoolAnswer["unnamed"] = [];
    const patterns = new Map<string, Pattern>();
    let failures: Record<string, string> = {};
    const lister = slots[this.nextJob % slots.length]!;
    if (scope.kind === "files") files = scope.files;
    else if (language !== undefined) {
      const answer = await this.send(lister, { type: "list", id: this.nextJob++, scope, root: job.root, language, pattern: job.pattern }, signal);
      if (answer.type !== "listed") throw new Error(`a parse worker answered a listing with ${answer.type}`);
      ({ files, oversized } = { files: unpackFiles(answer.files), oversized: answer.oversized });
      patterns.set(language, answer.pattern!);
    } else {
      const listed = await this.send(lister, { type: "list-all", id: this.nextJob++, scope, root: job.root }, signal);
      if (listed.type !== "listed") throw new Error(`a parse worker answered a listing with ${listed.type}`);
      ({ files, oversized } = { files: unpackFiles(listed.files), oversized: listed.oversized });
      unnamed = listed.unnamed ?? [];
      const present = [...new Set(files.map((f) => f.language!))].sort();
      if (present.length > 0) {
        const compiled = await this.send(lister, { type: "compile", id: this.nextJob++, languages: present, pattern: job.pattern }, signal);
        if (compiled.type !== "compiled") throw new Error(`a parse worker answered a compile with ${compiled.type}`);
        for (const [id, pattern] of Object.entries(compiled.patterns)) patterns.set(id, pattern);
        failures = compiled.failures;
      }
    }
    const skipped = skippedLanguages(files, failures, job.pattern, unnamed);
    files = files.filter((f) => !(f.language! in failures));
    let done = 0;
    progress(0, files.length);
    const jobs: Array<{ slot: WorkerSlot; language: string; share: FileRef[] }> = [];
    for (const [lang, ofLanguage] of byLanguage(files, language)) {
      const shares = this.share(ofLanguage, slots.length);
      // Without a listing the pattern is compiled by a job: the first worker gets one, even with no file.
      shares.forEach((share, k) => {
        if (share.length > 0 || (!patterns.has(lang) && k === 0)) jobs.push({ slot: slots[k]!, language: lang, share });
      });
    }
    const results = await Promise.all(
      jobs.map(async ({ slot, language: lang, share }) => {
        const answer = await this.send(slot, { type: "job", id: this.nextJob++, job: { ...search, language: lang, compiled: patterns.get(lang), files: packFiles(share) } }, signal);
        if (answer.type !== "result") throw new Error(`a parse worker answered a search with ${answer.type}`);
        progress((done += share.length), files.length);
        if (!patterns.has(lang)) patterns.set(lang, answer.pattern);
        return answer;
      }),
    );
    const stats = { ...emptyStats(), compiled: scope.kind === "tree" ? patterns.size + skipped.length : 0 };
    for (const r of results) {
      stats.candidates += r.stats.candidates;
      stats.parsed += r.stats.parsed;
      stats.cached += r.stats.cached;
      stats.compiled += r.stats.compiled;
    }
    const languages = [...patterns.keys()].sort();
    return { outcomes: results.flatMap((r) => r.outcomes), stats, pattern: languages.length > 0 ? patterns.get(languages[0]!) : undefined, languages, unparsed: skipped, files: files.length, oversized, unnamed };
  }

  /** Without workers: the same steps on this thread. */
  private async runInThread(job: ScopedJob, signal: AbortSignal | undefined, progress: (done: number, total: number) => void): Promise<PoolAnswer> {
    const { scope, language, ...search } = job;
    const searcher = this.searcher();
    const listed = listScope(scope, job.root, language);
    const patterns = new Map<string, Pattern>();
    const failures: Record<string, string> = {};
    for (const lang of language !== undefined ? [language] : [...new Set(listed.files.map((f) => f.language!))].sort()) {
      try {
        patterns.set(lang, await searcher.compile(lang, job.pattern));
      } catch (error) {
        if (!(error instanceof PatternError) || language !== undefined) throw error;
        failures[lang] = error.message;
      }
    }
    const skipped = skippedLanguages(listed.files, failures, job.pattern, listed.unnamed ?? []);
    const files = listed.files.filter((f) => !(f.language! in failures));
    progress(0, files.length);
    const outcomes: FileOutcome[] = [];
    const stats = { ...emptyStats(), compiled: patterns.size + skipped.length };
    for (const [lang, ofLanguage] of byLanguage(files, language)) {
      const result = await searcher.run({ ...search, language: lang, files: ofLanguage, compiled: patterns.get(lang) }, () => signal?.aborted === true);
      outcomes.push(...result.outcomes);
      stats.candidates += result.stats.candidates;
      stats.parsed += result.stats.parsed;
      stats.cached += result.stats.cached;
    }
    progress(files.length, files.length);
    const languages = [...patterns.keys()].sort();
    return { outcomes, stats, pattern: languages.length > 0 ? patterns.get(languages[0]!) : undefined, languages, unparsed: skipped, files: files.length, oversized: listed.oversized, unnamed: listed.unnamed ?? [] };
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

  /**
   * Resolves once every started worker has done all it was given, the keeping of the trees a
   * search freed included: what the next search will find cached is then cached.
   */
  async whenIdle(): Promise<void> {
    const slots = (await this.slots?.catch(() => [])) ?? [];
    await Promise.all(
      slots.map(async (slot) => {
        const answer = await this.send(slot, { type: "settle", id: this.nextJob++ });
        if (answer.type !== "settled") throw new Error(`a parse worker answered a settle with ${answer.type}`);
      }),
    );
  }

  /** Sends a message to every live worker, once they have started (none when they never did). */
  private tellWorkers(message: ToWorker): void {
    void this.slots?.then((slots) => {
      for (const slot of slots) slot.worker.postMessage(message);
    });
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
      const loader = new GrammarLoader(this.modules);
      this.inThread = new FileSearcher((id) => loader.parser(id), new ParseCache(this.options.cacheChars));
    }
    return this.inThread;
  }

  /**
   * Posts a message that is answered (list, compile, job, settle) and waits for the answer. An
   * abort tells the worker to stop and settles the call at once: the caller is not kept waiting on
   * a worker deep in a walk or a parse (its late answer finds nothing pending and is dropped).
   */
  private async send(slot: WorkerSlot, message: Extract<ToWorker, { type: "list" | "list-all" | "compile" | "job" | "settle" }>, signal?: AbortSignal): Promise<FromWorker> {
    await slot.ready;
    await this.sendGrammars(slot, message.type === "job" ? [message.job.language] : message.type === "list" ? [message.language] : message.type === "compile" ? message.languages : []);
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

  /** Posts `slot` the grammars it does not hold yet, in order (a message sent after them finds them there). */
  private async sendGrammars(slot: WorkerSlot, languages: readonly string[]): Promise<void> {
    await slot.ready;
    for (const language of languages) {
      if (slot.grammars.has(language)) continue;
      const worker = slot.worker;
      const module = await this.modules.grammarModule(language);
      if (slot.grammars.has(language) || slot.worker !== worker) continue;
      worker.postMessage({ type: "grammar", id: language, module } satisfies ToWorker);
      slot.grammars.add(language);
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
    // Compiled while the workers load their code, not before they start; each gets it in its hello
    // (a failure reaches every worker as an error, and with it the readiness wait).
    this.modules.runtimeModule().catch(() => {});
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
    this.modules.runtimeModule().then(
      (runtime) => worker.postMessage({ type: "hello", runtime, cacheChars: this.options.cacheChars } satisfies ToWorker),
      (error: Error) => worker.dispatchEvent(new ErrorEvent("error", { message: `the tree-sitter runtime did not compile: ${error.message}` })),
    );
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

/** Files by language, in language order; `language` stands for all of them when the search has one. */
function byLanguage(files: FileRef[], language: string | undefined): Map<string, FileRef[]> {
  const groups = new Map<string, FileRef[]>();
  if (language !== undefined) return groups.set(language, files);
  for (const file of files) {
    const group = groups.get(file.language!);
    if (group) group.push(file);
    else groups.set(file.language!, [file]);
  }
  return new Map([...groups].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * The languages whose files are left out because the pattern does not parse there. When it parses
 * in none of the languages present, the search is an error, not an empty answer.
 */
function skippedLanguages(files: FileRef[], failures: Record<string, string>, source: string, unnamed: PoolAnswer["unnamed"]): Array<{ language: string; files: number }> {
  const failed = Object.keys(failures).sort();
  if (failed.length === 0) return [];
  const counts = failed.map((language) => ({ language, files: files.filter((f) => f.language === language).length }));
  if (failed.length === new Set(files.map((f) => f.language)).size) {
    throw new PatternError(
      `The pattern ${JSON.stringify(source.trim())} does not parse in any language of the files searched (${failed.join(", ")}). ` +
        `Pass language to see where its parse broke in one of them; write a complete expression, statement or declaration, using $NAME for one node and $$$NAME for a run of nodes.` +
        unnamed.map((u) => ` ${u.files} ${u.language} file(s) were not searched: pass language: "${u.language}" to search them.`).join(""),
    );
  }
  return counts;
}

function emptyStats(): JobStats {
  return { candidates: 0, parsed: 0, cached: 0, compiled: 0 };
}
