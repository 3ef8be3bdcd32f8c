// The run's syntax service: resolves a search's scope and language, runs it on the parse pool,
// keeps staged edits, and forgets cached trees of files written by anyone in the run.
import { realpathSync, statSync, type Stats } from "node:fs";
import { availableParallelism } from "node:os";
import type { Parser } from "web-tree-sitter";
import { ToolFailure } from "../answer/failure.ts";
import type { GrammarSource } from "../host/runtime.ts";
import { readFileInsideAsync, resolveInWorkdir } from "../workspace/paths.ts";
import { WriteHooks } from "../workspace/write-hooks.ts";
import { byPath, type FileOutcome, type JobStats } from "./file-search.ts";
import { GRAMMAR_IDS, GrammarLoader, grammarForPath, isGrammarId } from "./grammars.ts";
import { DEFAULT_CACHE_CHARS } from "./parse-cache.ts";
import { ParsePool } from "./parse-pool.ts";
import { MOST_PARSE_WORKERS } from "./file-homes.ts";
import type { SearchPhases } from "./search-phases.ts";
import type { SpawnWorker } from "./worker-slots.ts";
import { compilePattern, PatternError } from "./pattern.ts";
import { drawPattern, drawTree, type DrawnTree, type TreeView } from "./syntax-tree.ts";
import type { Query } from "./rules/compiled.ts";
import type { RuleConfig } from "./rules/spec.ts";
import { StagedEdits } from "./staged-edits.ts";
import { fileRef, type SearchScope } from "./walk.ts";

/** A grammar's parser as other layers hold it: handed back to syntax/ functions, its trees walked only here. */
export type LanguageParser = Parser;

const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

interface SyntaxOptions {
  workdir: string;
  source: GrammarSource;
  spawnWorker?: SpawnWorker;
  maxFileBytes?: number;
  workers?: number;
  cacheChars?: number;
  /** Source parsed ahead per worker once the run serves (warmUp); 0 starts nothing before the first search. */
  warmChars?: number;
}

/** Source each worker parses ahead by default: trees cost about ten times their source in memory. */
const DEFAULT_WARM_CHARS = 8 * 1024 * 1024;

interface SearchRequest {
  /** The pattern's source; ignored when `rule` is given. */
  pattern: string;
  /** An ast-grep rule config, read and checked (rules/validate.ts): searched instead of the pattern. */
  rule?: RuleConfig;
  path?: string;
  language?: string;
  rewrite?: string;
  /** Match records wanted (the rest are only counted); default all. */
  maxRecords?: number;
  /** Aborting stops the search between files. */
  signal?: AbortSignal;
  /** Told how many of the files have been searched, as shares of the work finish. */
  progress?: (update: { progress: number; total: number; message: string }) => void;
}

export interface SearchAnswer {
  /** The language given or inferred, or the languages searched ("python, go") when none was. */
  language: string;
  /** The compiled pattern or rule; undefined only when a search of every language found no file with a grammar. */
  pattern: Query | undefined;
  /** Searches of every language: the languages searched, and those left out because the pattern does not parse there. */
  languages: string[];
  unparsed: Array<{ language: string; files: number }>;
  /** Files matched, sorted by path; each file's matches in position order. */
  outcomes: FileOutcome[];
  filesSearched: number;
  oversized: number;
  /** A search of every language: files of languages searched only when named, left out (by language). */
  unnamed: Array<{ language: string; files: number }>;
  stats: JobStats;
  /** Where the search's time went, when workers ran it (bench/ast-grep-phases.ts). */
  phases?: SearchPhases;
}

interface TreeRequest extends TreeView {
  /** A snippet to parse (needs language); else the file at path. */
  code?: string;
  path?: string;
  language?: string;
  /** A pattern whose parse to show (its context and its tree). */
  pattern?: string;
}

interface TreeAnswer {
  language: string;
  /** The tree of the snippet or file; absent when only a pattern was asked about. */
  tree?: DrawnTree;
  pattern?: string;
}

export class SyntaxService {
  readonly root: string;
  readonly edits: StagedEdits;
  /** Runs after every write in this run (resolve, lsp_rename, the harness's write hook). */
  readonly writeHooks = new WriteHooks();
  private readonly pool: ParsePool;
  private readonly maxFileBytes: number;
  private readonly warmChars: number;
  private readonly source: GrammarSource;
  /** Main-thread parsers for one-file parses outside a search; made on first use. */
  private loader: GrammarLoader | undefined;
  private readonly parsers = new Map<string, Promise<Parser>>();

  constructor(options: SyntaxOptions) {
    this.root = realpathSync(options.workdir);
    this.source = options.source;
    this.edits = new StagedEdits(this.root);
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.warmChars = Math.min(options.warmChars ?? DEFAULT_WARM_CHARS, options.cacheChars ?? DEFAULT_CACHE_CHARS);
    this.pool = new ParsePool({
      source: options.source,
      spawnWorker: options.spawnWorker,
      workers: options.workers ?? defaultParseWorkers(availableParallelism()),
      cacheChars: options.cacheChars ?? DEFAULT_CACHE_CHARS,
    });
    this.writeHooks.add(async (paths) => {
      this.pool.invalidate(paths);
      return undefined;
    });
  }

  /** A main-thread parser for an embedded grammar, made once per language (the debugger checks breakpoint lines with it). */
  parser(language: string): Promise<Parser> {
    let parser = this.parsers.get(language);
    if (!parser) {
      this.loader ??= new GrammarLoader(this.source);
      parser = this.loader.parser(language);
      this.parsers.set(language, parser);
    }
    return parser;
  }

  /**
   * Starts the parse workers and has them parse the workdir's files of its commonest languages
   * ahead, in the background, below every search. A warm-up that fails leaves the first search to
   * start the workers and say what went wrong.
   */
  warmUp(): void {
    if (this.warmChars <= 0) return;
    this.pool.warm(this.root, { kind: "tree", start: this.root, maxFileBytes: this.maxFileBytes }, this.warmChars).catch(() => {});
  }

  /** The run is idle: parse workers collect their garbage (each holds its own heap). */
  collectGarbage(): void {
    this.pool.collectGarbage();
  }

  /** Resolves once the parse workers are done with everything given them, trees kept for later included. */
  whenIdle(): Promise<void> {
    return this.pool.whenIdle();
  }

  get fallbackReason(): string | undefined {
    return this.pool.fallbackReason;
  }

  async search(request: SearchRequest): Promise<SearchAnswer> {
    const scope = resolveInWorkdir(this.root, request.path ?? ".");
    const info = statOrUndefined(scope); // one system call: cheaper here than a trip through the thread pool
    if (!info) throw new ToolFailure(`Nothing exists at ${JSON.stringify(request.path)}. Pass an existing file or directory inside the workspace, or omit path to search it all.`, { code: "file_not_found" });
    const language = this.languageFor(request, scope, info.isDirectory());
    let searchScope: SearchScope;
    if (info.isDirectory()) {
      searchScope = { kind: "tree", start: scope, maxFileBytes: this.maxFileBytes };
    } else {
      const ref = fileRef(scope, info, this.maxFileBytes);
      if (typeof ref === "string") throw new ToolFailure(`Cannot search ${JSON.stringify(request.path)}: ${ref}.`, { code: ref === "it is not a regular file" ? "not_a_regular_file" : "failed" });
      searchScope = { kind: "files", files: [ref] };
    }
    let result;
    try {
      result = await this.pool.run({ root: this.root, language, pattern: request.pattern, rule: request.rule, scope: searchScope, rewrite: request.rewrite, maxRecords: request.maxRecords }, request.signal, (done, total) =>
        request.progress?.({ progress: done, total, message: done === 0 ? `searching ${total} ${language ?? ""}${language ? " " : ""}file(s)` : `${done} of ${total} file(s) searched` }),
      );
    } catch (error) {
      if (error instanceof PatternError) throw new ToolFailure(error.message, { code: "invalid_pattern" });
      throw error;
    }
    const outcomes = result.outcomes.sort(byPath);
    const languageNames = language ?? (result.languages.length > 0 ? result.languages.join(", ") : "no");
    return { language: languageNames, pattern: result.pattern, languages: result.languages, unparsed: result.unparsed, outcomes, filesSearched: result.files, oversized: result.oversized, unnamed: result.unnamed, stats: result.stats, ...(result.phases ? { phases: result.phases } : {}) };
  }

  /**
   * The syntax tree of a snippet or of a file's lines, and how a pattern parsed. Parsed on this
   * thread with its own parser (as the debugger's line checks are): one snippet or one file, asked
   * for now and then, not worth a trip to a worker.
   */
  async syntaxTree(request: TreeRequest): Promise<TreeAnswer> {
    let source = request.code;
    let language = request.language;
    if (source === undefined && request.path !== undefined) {
      const file = resolveInWorkdir(this.root, request.path);
      const info = statOrUndefined(file);
      if (!info?.isFile()) throw new ToolFailure(`${JSON.stringify(request.path)} is not a file in the workspace. Pass one file as path, or the code itself.`, { code: "file_not_found" });
      if (info.size > this.maxFileBytes) throw new ToolFailure(`${JSON.stringify(request.path)} is over the size limit (${this.maxFileBytes} bytes); pass the lines you want as code instead.`);
      source = (await readFileInsideAsync(this.root, file)).toString("utf8");
      language ??= this.languageFor({ pattern: "", path: request.path }, file, false);
    }
    if (language === undefined) throw new ToolFailure("Showing a syntax tree of code needs its language: pass language (or a file as path).", { code: "invalid_arguments" });
    language = this.languageFor({ pattern: "", language }, "", false)!;
    const parser = await this.parser(language);
    const answer: TreeAnswer = { language };
    if (request.pattern !== undefined) {
      try {
        answer.pattern = drawPattern(compilePattern(language, request.pattern, parser));
      } catch (error) {
        if (error instanceof PatternError) throw new ToolFailure(error.message, { code: "invalid_pattern" });
        throw error;
      }
    }
    if (source !== undefined) answer.tree = drawTree(parser, source, request);
    return answer;
  }

  /** After a write: cached trees of those files are dropped, then other hooks (diagnostics) run. */
  afterWrite(paths: readonly string[]): Promise<string[]> {
    return this.writeHooks.run(paths);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  /** The request's language, the file's by its extension, or undefined: a directory searched in every language. */
  private languageFor(request: SearchRequest, scope: string, isDirectory: boolean): string | undefined {
    const given = request.language ?? request.rule?.language;
    if (request.language !== undefined && request.rule?.language !== undefined && request.language !== request.rule.language) {
      throw new ToolFailure(`language is ${JSON.stringify(request.language)} but the rule config says ${JSON.stringify(request.rule.language)}. Give one language, or the same in both.`, { code: "invalid_arguments" });
    }
    if (given !== undefined) {
      if (!isGrammarId(given)) {
        throw new ToolFailure(`There is no grammar ${JSON.stringify(given)}. Use one of: ${GRAMMAR_IDS.join(", ")}.`, { code: "unknown_language" });
      }
      return given;
    }
    if (isDirectory && request.rule !== undefined) {
      // A rule's kinds and fields belong to one grammar, as in ast-grep, where every rule names its language.
      throw new ToolFailure(`A rule search of a directory needs its language: pass language (${GRAMMAR_IDS.slice(0, 8).join(", ")}, …) or put it in the rule config.`, { code: "invalid_arguments" });
    }
    if (isDirectory) return undefined;
    const inferred = grammarForPath(scope);
    if (!inferred) {
      throw new ToolFailure(`No grammar is known for ${JSON.stringify(request.path)} by its extension. Pass language as one of: ${GRAMMAR_IDS.join(", ")}.`, {
        code: "unknown_language",
      });
    }
    return inferred;
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** One parse worker per core, up to MOST_PARSE_WORKERS (each has its own heap and cache). */
export function defaultParseWorkers(cores: number): number {
  return Math.min(cores, MOST_PARSE_WORKERS);
}
