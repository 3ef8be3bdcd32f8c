// Spreads search jobs over parse workers (one per core), each file always routed to the same
// worker so its cached tree is found again; falls back to the main thread when workers cannot start.
// Workers start on the first search, not with the run: an idle run holds no parse thread or heap.
// A directory is walked in a worker too, which also compiles the pattern once for the whole search
// and splits the files between the workers (file-homes.ts): the main thread, where every request
// waits its turn, passes each share on unopened. The threads themselves (start, messages, restarts)
// are worker-slots.ts.
import type { GrammarSource } from "../host/runtime.ts";
import { compiledGrammars, GrammarLoader, type CompiledGrammars } from "./grammars.ts";
import { FileSearcher, type FileOutcome, type FileRef, type JobStats, type SearchJob } from "./file-search.ts";
import { addJobPhases, noJobPhases, type SearchPhases } from "./search-phases.ts";
import { FileHomes } from "./file-homes.ts";
import { byLanguage, countByLanguage } from "./language-groups.ts";
import { packFiles, type PackedFiles } from "./packed-files.ts";
import { ShareClaims } from "./share-claims.ts";
import { ParseCache } from "./parse-cache.ts";
import { PatternError } from "./pattern.ts";
import type { Query } from "./rules/compiled.ts";
import { listScope, type SearchScope } from "./walk.ts";
import { ParseWorkers, WorkerDied, type WorkerOptions, type WorkerSlot } from "./worker-slots.ts";

/** A search over a scope the pool lists itself (a directory is walked in a worker). */
interface ScopedJob extends Omit<SearchJob, "files" | "compiled" | "language"> {
  scope: SearchScope;
  /** Undefined: every file with a grammar, each in its language (a directory scope). */
  language: string | undefined;
}

interface PoolAnswer {
  outcomes: FileOutcome[];
  stats: JobStats;
  /** Where the search's time went, when workers ran it. */
  phases?: SearchPhases;
  /** The pattern as compiled (once) for this search, in its first language; none when no file was found to search. */
  pattern: Query | undefined;
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

interface PoolOptions extends WorkerOptions {
  source: GrammarSource;
}

/** Languages a warm-up parses ahead: a checkout's code is mostly in one to three. */
const WARM_LANGUAGES = 3;

export class ParsePool {
  private readonly workers: ParseWorkers;
  private inThread: FileSearcher | undefined;
  /** Searches so far: the worker that lists (walks) takes turns. */
  private searches = 0;
  /** Which worker holds each file's cached tree, shared with the workers (they split what they list). */
  private readonly homes: FileHomes;
  /**
   * Compiled once for all workers, and kept: a worker restarted later, or one getting a language
   * another already has, instantiates the same module instead of compiling and optimising anew.
   */
  private readonly modules: CompiledGrammars;
  /** Searches in flight, and who waits for none to be (quiet). */
  private inFlight = 0;
  private readonly quietWaiters: Array<() => void> = [];
  /** Settles once a warm-up has given each worker its files (whenIdle waits for that first). */
  private warming: Promise<void> = Promise.resolve();

  constructor(private readonly options: PoolOptions) {
    this.modules = compiledGrammars(options.source);
    const memory = FileHomes.memory();
    this.homes = new FileHomes(memory, options.workers);
    this.workers = new ParseWorkers(options, this.modules, memory);
  }

  /** Why workers are not used, when they are not (reported by doctor and the tool's stats). */
  get fallbackReason(): string | undefined {
    return this.workers.fallbackReason;
  }

  /**
   * Lists the scope's files (a worker walks a directory), then searches them split between the
   * workers; `progress` hears how many files are searched of how many, once listed and as shares finish.
   */
  async run(job: ScopedJob, signal?: AbortSignal, progress: (done: number, total: number) => void = () => {}): Promise<PoolAnswer> {
    this.inFlight++;
    try {
      return await this.runOnce(job, signal, progress);
    } catch (error) {
      // Once, on the replacement (or the main thread past the restart limit): a worker that died
      // on its own is not this call's fault. A second death is reported.
      if (!(error instanceof WorkerDied)) throw error;
      return await this.runOnce(job, signal, progress);
    } finally {
      if (--this.inFlight === 0) for (const resolve of this.quietWaiters.splice(0)) resolve();
    }
  }

  /** Resolves when no search is in flight: a warm-up's walk and grammars never compete with one. */
  private quiet(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.quietWaiters.push(resolve));
  }

  private async runOnce(job: ScopedJob, signal: AbortSignal | undefined, progress: (done: number, total: number) => void): Promise<PoolAnswer> {
    const { scope, language, ...search } = job;
    // The grammar compiles on this thread while the workers start (the first search) or list.
    if (language !== undefined) this.modules.grammarModule(language).catch(() => {});
    const began = performance.now();
    const slots = await this.workers.start();
    const started = performance.now();
    if (slots.length === 0 || this.fallbackReason !== undefined) return this.runInThread(job, signal, progress);
    // Every worker starts loading the grammar now, while one compiles the pattern and walks: the
    // others would otherwise compile it only once their share arrives, after the walk.
    if (language !== undefined) for (const slot of slots) void this.workers.sendGrammars(slot, [language]).catch(() => {});
    const plan = await this.plan(job, slots, signal);
    const planned = performance.now();
    const skipped = skippedLanguages(plan.present, plan.failures, job.pattern, plan.unnamed);
    const { patterns } = plan;
    let done = 0;
    progress(0, plan.files);
    const jobs: Array<{ slot: WorkerSlot; language: string; share: PackedFiles; sharing?: { claims: SharedArrayBuffer; shares: PackedFiles[]; index: number } }> = [];
    for (const [lang, shares] of plan.shares) {
      // Files are claimed through shared flags once two workers or more have some, and some may be
      // taken (ShareClaims).
      const claims = plan.takeable.has(lang) && shares.filter((share) => share.sizes.length > 0).length > 1 ? ShareClaims.memory(shares.map((share) => share.sizes.length)) : undefined;
      // Without a listing the pattern is compiled by a job: the first worker gets one, even with no file.
      shares.forEach((share, k) => {
        if (share.sizes.length > 0 || (!patterns.has(lang) && k === 0)) jobs.push({ slot: slots[k]!, language: lang, share, ...(claims ? { sharing: { claims, shares, index: k } } : {}) });
      });
    }
    const results = await Promise.all(
      jobs.map(async ({ slot, language: lang, share, sharing }) => {
        const answer = await this.workers.send(slot, { type: "job", job: { ...search, language: lang, compiled: patterns.get(lang), files: share, ...(sharing ? { sharing } : {}) } }, signal);
        if (answer.type !== "result") throw new Error(`a parse worker answered a search with ${answer.type}`);
        progress((done += share.sizes.length), plan.files);
        if (!patterns.has(lang)) patterns.set(lang, answer.pattern);
        return answer;
      }),
    );
    const answered = performance.now();
    const stats = { ...emptyStats(), compiled: scope.kind === "tree" ? patterns.size + skipped.length : 0 };
    for (const r of results) addJobStats(stats, r.stats);
    const phases = { start: started - began, plan: planned - started, jobs: answered - planned, work: stats.ms };
    const languages = [...patterns.keys()].sort();
    return { phases, outcomes: results.flatMap((r) => r.outcomes), stats, pattern: languages.length > 0 ? patterns.get(languages[0]!) : undefined, languages, unparsed: skipped, files: plan.files, oversized: plan.oversized, unnamed: plan.unnamed };
  }

  /**
   * What each worker searches, per language in language order. A directory is listed, its pattern
   * compiled and its files split by a worker (taking turns), which answers with one packed share per
   * worker: this thread only passes them on. A list of files the caller named is split here.
   */
  private async plan(job: ScopedJob, slots: WorkerSlot[], signal: AbortSignal | undefined): Promise<SearchPlan> {
    const { scope, language } = job;
    const lister = slots[this.searches++ % slots.length]!;
    const plan: SearchPlan = { shares: new Map(), takeable: new Set(), patterns: new Map(), present: {}, failures: {}, files: 0, oversized: 0, unnamed: [] };
    if (scope.kind === "files") {
      for (const [lang, files] of byLanguage(scope.files, language)) {
        const { shares, takeable } = this.homes.splitCounting(files);
        plan.shares.set(lang, shares.map(packFiles));
        if (takeable > 0) plan.takeable.add(lang);
      }
      plan.files = scope.files.length;
    } else if (language !== undefined) {
      const answer = await this.workers.send(lister, { type: "list", scope, root: job.root, language, pattern: job.pattern, rule: job.rule }, signal);
      if (answer.type !== "listed") throw new Error(`a parse worker answered a listing with ${answer.type}`);
      plan.shares.set(language, answer.shares);
      if (answer.takeable > 0) plan.takeable.add(language);
      plan.patterns.set(language, answer.pattern);
      ({ files: plan.files, oversized: plan.oversized } = answer);
    } else {
      const listed = await this.workers.send(lister, { type: "list-all", scope, root: job.root }, signal);
      if (listed.type !== "listed-all") throw new Error(`a parse worker answered a listing with ${listed.type}`);
      ({ present: plan.present, oversized: plan.oversized, unnamed: plan.unnamed } = listed);
      const languages = Object.keys(listed.present).sort();
      if (languages.length > 0) {
        // The listing goes back as it came: this thread never unpacks it.
        const compiled = await this.workers.send(lister, { type: "compile", languages, pattern: job.pattern, rule: job.rule, files: listed.files }, signal);
        if (compiled.type !== "compiled") throw new Error(`a parse worker answered a compile with ${compiled.type}`);
        plan.failures = compiled.failures;
        for (const lang of languages) {
          if (lang in compiled.failures) continue;
          plan.patterns.set(lang, compiled.patterns[lang]!);
          plan.shares.set(lang, compiled.shares[lang]!);
          if (compiled.takeable[lang]! > 0) plan.takeable.add(lang);
          plan.files += listed.present[lang]!;
        }
      }
    }
    return plan;
  }

  /** Without workers: the same steps on this thread. */
  private async runInThread(job: ScopedJob, signal: AbortSignal | undefined, progress: (done: number, total: number) => void): Promise<PoolAnswer> {
    const { scope, language, ...search } = job;
    const searcher = this.searcher();
    const listed = listScope(scope, job.root, language);
    const patterns = new Map<string, Query>();
    const failures: Record<string, string> = {};
    for (const lang of language !== undefined ? [language] : [...new Set(listed.files.map((f) => f.language!))].sort()) {
      try {
        patterns.set(lang, await searcher.compile(lang, job.pattern, job.rule));
      } catch (error) {
        if (!(error instanceof PatternError) || language !== undefined) throw error;
        failures[lang] = error.message;
      }
    }
    const skipped = skippedLanguages(countByLanguage(listed.files), failures, job.pattern, listed.unnamed ?? []);
    const files = listed.files.filter((f) => !(f.language! in failures));
    progress(0, files.length);
    const outcomes: FileOutcome[] = [];
    const stats = { ...emptyStats(), compiled: patterns.size + skipped.length };
    for (const [lang, ofLanguage] of byLanguage(files, language)) {
      const result = await searcher.run({ ...search, language: lang, files: ofLanguage, compiled: patterns.get(lang) }, () => signal?.aborted === true);
      outcomes.push(...result.outcomes);
      // Every job here gets its compiled pattern, so it adds no compile to the count.
      addJobStats(stats, result.stats);
    }
    progress(files.length, files.length);
    const languages = [...patterns.keys()].sort();
    return { outcomes, stats, pattern: languages.length > 0 ? patterns.get(languages[0]!) : undefined, languages, unparsed: skipped, files: files.length, oversized: listed.oversized, unnamed: listed.unnamed ?? [] };
  }

  /**
   * The run is ready: starts the workers, and has each parse its share of the directory's files in
   * its commonest languages, below every search (each gives way to any message), keeping the trees
   * until its cache holds `budgetChars` of source. The agent's first search, seconds later, then
   * finds its grammar compiled and optimised and many of its trees made.
   */
  warm(root: string, scope: SearchScope, budgetChars: number): Promise<void> {
    this.warming = this.warmOnce(root, scope, budgetChars);
    return this.warming;
  }

  private async warmOnce(root: string, scope: SearchScope, budgetChars: number): Promise<void> {
    const slots = await this.workers.start();
    if (slots.length === 0 || this.fallbackReason !== undefined) return;
    // A search that came first (right after the ready line) has the threads to itself.
    await this.quiet();
    const lister = slots[this.searches++ % slots.length]!;
    const listed = await this.workers.send(lister, { type: "warm-list", scope, root, languages: WARM_LANGUAGES });
    if (listed.type !== "warm-listed") throw new Error(`a parse worker answered a warm-up listing with ${listed.type}`);
    await this.quiet();
    // The grammars compile here, one at a time, while the workers parse what they already have.
    await Promise.all(slots.map((slot, k) => this.workers.post(slot, { type: "prime", root, files: listed.shares[k]!, budgetChars }, listed.languages)));
  }

  /** Forgets cached trees of files just written. */
  invalidate(paths: readonly string[]): void {
    this.inThread?.invalidate(paths);
    this.workers.tell({ type: "invalidate", paths: [...paths] });
  }

  /** Has every worker collect its garbage fully once its current job is done (the run is idle). */
  collectGarbage(): void {
    this.workers.tell({ type: "collect" });
  }

  private searcher(): FileSearcher {
    if (!this.inThread) {
      const loader = new GrammarLoader(this.modules);
      this.inThread = new FileSearcher((id) => loader.parser(id), new ParseCache(this.options.cacheChars));
    }
    return this.inThread;
  }

  /**
   * Resolves once every started worker has done all it was given, the keeping of the trees a
   * search freed included: what the next search will find cached is then cached.
   */
  async whenIdle(): Promise<void> {
    await this.warming.catch(() => {});
    return this.workers.whenIdle();
  }

  async close(): Promise<void> {
    this.inThread?.close();
    await this.workers.close();
  }
}

/**
 * The languages whose files are left out because the pattern does not parse there. When it parses
 * in none of the languages present, the search is an error, not an empty answer.
 */
function skippedLanguages(present: Record<string, number>, failures: Record<string, string>, source: string, unnamed: PoolAnswer["unnamed"]): Array<{ language: string; files: number }> {
  const failed = Object.keys(failures).sort();
  if (failed.length === 0) return [];
  const counts = failed.map((language) => ({ language, files: present[language] ?? 0 }));
  if (failed.length === Object.keys(present).length) {
    throw new PatternError(
      `The pattern ${JSON.stringify(source.trim())} does not parse in any language of the files searched (${failed.join(", ")}). ` +
        `Pass language to see where its parse broke in one of them; write a complete expression, statement or declaration, using $NAME for one node and $$$NAME for a run of nodes.` +
        unnamed.map((u) => ` ${u.files} ${u.language} file(s) were not searched: pass language: "${u.language}" to search them.`).join(""),
    );
  }
  return counts;
}

/** What a search with workers asks each of them (parse-pool.ts, plan). */
interface SearchPlan {
  /** Per language, in language order, one packed share per worker. */
  shares: Map<string, PackedFiles[]>;
  /**
   * Languages with a file no worker holds cached: a worker done with its share may take such files
   * from another's (ShareClaims). Without one, the jobs go without the other shares, which each
   * job's message would carry for nothing (0.2 ms of this thread per call over this repository).
   */
  takeable: Set<string>;
  /** The pattern compiled per language, where it was (a job compiles it otherwise). */
  patterns: Map<string, Query>;
  /** Files listed per language, those where the pattern does not parse included (a search of every language). */
  present: Record<string, number>;
  failures: Record<string, string>;
  files: number;
  oversized: number;
  unnamed: PoolAnswer["unnamed"];
}

function emptyStats(): JobStats {
  return { candidates: 0, parsed: 0, resumed: 0, cached: 0, remembered: 0, compiled: 0, taken: 0, ms: noJobPhases() };
}

/** One job's counts and phases added to the search's. */
function addJobStats(into: JobStats, from: JobStats): void {
  into.candidates += from.candidates;
  into.parsed += from.parsed;
  into.resumed += from.resumed;
  into.cached += from.cached;
  into.remembered += from.remembered;
  into.compiled += from.compiled;
  into.taken += from.taken;
  addJobPhases(into.ms, from.ms);
}
