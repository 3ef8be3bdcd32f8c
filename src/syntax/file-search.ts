// Searches (and optionally rewrites) a batch of files: text pre-filter, cached parse, match.
// The same code runs inside a parse worker or on the main thread when workers cannot start.
import type { Parser, Tree } from "web-tree-sitter";
import { readFileInside } from "../workspace/paths.ts";
import type { MatchRecord, Position } from "./match-record.ts";
import { captureSpan, findMatches, MatchBudgetExceeded, type NodeMatch } from "./match.ts";
import { isSameVersion, type ParseCache, type ParsedFile } from "./parse-cache.ts";
import { CompiledPatterns } from "./pattern.ts";
import { applyReplacements, outermost, replacementFor } from "./rewrite.ts";
import { MAX_REMEMBERED_MATCHES, RememberedOutcomes } from "./remembered-outcomes.ts";
import { isRule, type Query } from "./rules/compiled.ts";
import { CompiledRules } from "./rules/compile.ts";
import { findRuleMatches } from "./rules/find.ts";
import type { RuleConfig } from "./rules/spec.ts";
import { transformed } from "./rules/transform.ts";
import { TextFacts } from "./text-facts.ts";
import { noJobPhases, type JobPhases } from "./search-phases.ts";

export interface FileRef {
  path: string;
  size: number;
  mtimeMs: number;
  /** The grammar the file is parsed with, when the search spans several. */
  language?: string;
}

export interface SearchJob {
  /** The real workdir: a file is read only if what was opened lies inside it. */
  root: string;
  language: string;
  /** The pattern's source; compiled here unless `compiled` is given (compiled once per search). */
  pattern: string;
  /** An ast-grep rule config, searched instead of `pattern` (checked by rules/validate.ts). */
  rule?: RuleConfig;
  compiled?: Query;
  files: FileRef[];
  /** When set, each file's outermost matches are rewritten with this template. */
  rewrite?: string;
  /**
   * Match records built at most (files in path order); later matches are only counted, so a
   * pattern like `$X` over a large tree cannot flood memory. Absent means all.
   */
  maxRecords?: number;
}

export type { MatchRecord, Position } from "./match-record.ts";

/** A file a job searches, and whether it came from another worker's share (ShareClaims). */
export interface ClaimedFile {
  file: FileRef;
  /** From another worker's share: all its records are built (see run), and its home moves here. */
  taken: boolean;
}

export interface FileOutcome {
  path: string;
  /** Every match in the file, counted even when its record was not built. */
  count: number;
  matches: MatchRecord[];
  /** Present for rewrite jobs with at least one match. */
  rewrite?: {
    original: string;
    updated: string;
    replacements: Array<{ start: number; end: number; text: string }>;
    /** Keywords the rewrite overwrote that the pattern never mentioned, as "`async` (line 3)". */
    overwritten: string[];
  };
  /** Why the file could not be searched (unreadable); it is reported, not fatal. */
  skipped?: string;
  /**
   * ERROR and MISSING nodes in the file's parse: code the grammar could not read, where a match may
   * hide, so the answer names the file instead of passing its silence off as "no match".
   */
  parseErrors?: number;
}

export interface JobStats {
  candidates: number;
  parsed: number;
  /** Of those parsed, files whose parse ahead of need gave way to this job mid-file and went on from there. */
  resumed: number;
  cached: number;
  /** Candidates answered from an earlier search of the same pattern over the unchanged file: neither parsed nor matched again. */
  remembered: number;
  /** Times the pattern was compiled for the search: once, by whichever thread saw it first. */
  compiled: number;
  /** Files taken from another worker's share once this one's was done (ShareClaims). */
  taken: number;
  /** Where the job's time went. */
  ms: JobPhases;
}

export class SearchCancelled extends Error {
  override name = "SearchCancelled";
  constructor() {
    super("The search was cancelled.");
  }
}

/**
 * How long a search works before yielding to the event loop (to hear a cancel). Yielding every 64
 * files instead spent 3 ms of a 4 ms warm search of 250 cached files waiting.
 */
const WORK_BETWEEN_YIELDS_MS = 20;

/**
 * One turn of the event loop, so a message or a timer waiting is heard. setImmediate, not
 * setTimeout(0): that is clamped to 1–2 ms in a worker, and a cold search yielding every 20 ms
 * spent 7–9 % of its time waiting on it (setImmediate: about 0.01 ms; a message posted meanwhile is
 * still delivered first).
 */
/** True when work is waiting that a parse ahead of need should give way to (fillOne). */
type GiveWay = () => boolean;
const NEVER_GIVE_WAY: GiveWay = () => false;

export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A file to parse ahead of need: its text, and how its tree is kept once made (prime and refill keep it differently). */
interface AheadParse {
  path: string;
  language: string;
  text: string;
  keep(tree: Tree): void;
}

/** The parser of `language` in `parsers`, loaded once: concurrent first asks share the promise, a failed load is asked again. */
function parserIn(parsers: Map<string, Promise<Parser>>, language: string, load: (language: string) => Promise<Parser>): Promise<Parser> {
  let parser = parsers.get(language);
  if (!parser) {
    parser = load(language);
    parsers.set(language, parser);
    parser.catch(() => parsers.delete(language));
  }
  return parser;
}

/** Binary files have NUL bytes early; tree-sitter would only produce errors for them. */
const BINARY_SNIFF_BYTES = 8000;

interface JobResult {
  outcomes: FileOutcome[];
  stats: JobStats;
  /** The compiled pattern or rule, for the answer and for the other workers' jobs. */
  pattern: Query;
}

interface SearcherOptions {
  /**
   * A file's first tree is not kept: it is freed once matched, and the file is parsed again to be
   * kept by `fillOne` (when the thread has nothing else to do) or by the next search that needs it.
   * On a cold search, keeping every tree made the WebAssembly heap grow by about ten times the
   * source parsed, into pages never touched before, and parsing into fresh memory cost a quarter
   * to a third of the search's time; freed at once, the next parse reuses the same warm memory.
   */
  deferTrees?: boolean;
  /** Told each path this searcher caches (text or tree), to mark the file held by this worker (FileHomes). */
  onCached?: (path: string) => void;
  /**
   * Whether a path still goes to this searcher (FileHomes): a file of the warm-up's list that another
   * worker took during a search (ShareClaims) is parsed ahead there, not here.
   */
  homedHere?: (path: string) => boolean;
}

export class FileSearcher {
  /** Loading promises, so a listing and a job asking at once share one parser. */
  private readonly parsers = new Map<string, Promise<Parser>>();
  /** The parsers of parses ahead of need (parseAhead), apart, so that one halted mid-file waits on its own. */
  private readonly aheadParsers = new Map<string, Promise<Parser>>();
  /** The parse ahead that gave way mid-file, if any: its parser holds where it stopped. */
  private halted: (AheadParse & { parser: Parser }) | undefined;
  private readonly patterns = new CompiledPatterns();
  private readonly rules = new CompiledRules();
  /** Files whose first tree was freed, to be parsed again and kept (deferTrees). */
  private readonly unfilled = new Set<string>();
  /** Files no search has read yet, to be parsed ahead while the cache holds less than primeBudget (prime). */
  private unprimed: FileRef[] = [];
  private primeRoot = "";
  /** The languages of the files given to prime (the warm-up's). */
  private primeLanguages = new Set<string>();
  private primeBudget = 0;

  constructor(
    private readonly parserFor: (language: string) => Promise<Parser>,
    private readonly cache: ParseCache,
    private readonly options: SearcherOptions = {},
  ) {}

  /**
   * `cancelled` is polled between files; a macrotask yield now and then lets a cancel message in.
   * `claim`, when given, hands out the files (ShareClaims: the job's own share, then files of the
   * other workers' shares) in place of `job.files`.
   */
  async run(job: SearchJob, cancelled: () => boolean = () => false, claim?: () => ClaimedFile | undefined): Promise<JobResult> {
    const began = performance.now();
    const parser = await this.parser(job.language);
    const pattern = job.compiled ?? this.compileWith(parser, job.language, job.pattern, job.rule);
    const stats: JobStats = { candidates: 0, parsed: 0, resumed: 0, cached: 0, remembered: 0, compiled: job.compiled ? 0 : 1, taken: 0, ms: { ...noJobPhases(), load: performance.now() - began } };
    let filesMs = 0;
    const search = searchKey(job);
    const outcomes: FileOutcome[] = [];
    const budget = { records: job.maxRecords ?? Number.POSITIVE_INFINITY };
    const next = claim ?? inPathOrder(job.files);
    let yielded = performance.now();
    for (let claimed = next(); claimed; claimed = next()) {
      if (performance.now() - yielded >= WORK_BETWEEN_YIELDS_MS) {
        await yieldToEventLoop();
        yielded = performance.now();
      }
      if (cancelled()) throw new SearchCancelled();
      const fileBegan = performance.now();
      // The records kept are the first maxRecords in path order: a worker stops building them for
      // its own share once it has that many, all of them before the file where it stopped. A file
      // taken from another share comes after the worker's own in its order, not in the path order,
      // so it gets its own budget (its first maxRecords), and is never the one cut short.
      const fileBudget = claimed.taken ? { records: job.maxRecords ?? Number.POSITIVE_INFINITY } : budget;
      if (claimed.taken) stats.taken++;
      const file = claimed.file;
      const outcome = await this.searchFile(file, job, search, pattern, parser, stats, fileBudget);
      filesMs += performance.now() - fileBegan;
      // Only files with a match or a skip are reported: the rest would be cloned to the main thread to be dropped.
      if (outcome && (outcome.count > 0 || outcome.skipped || outcome.parseErrors)) outcomes.push(outcome);
    }
    // What the files took beyond reading, the pre-filter and parsing: matching, records, keeping.
    stats.ms.match = filesMs - stats.ms.read - stats.ms.prefilter - stats.ms.parse;
    return { outcomes, stats, pattern };
  }

  /** Compiles a pattern or a rule (throws PatternError); a worker that lists a directory compiles for the search. */
  async compile(language: string, source: string, rule?: RuleConfig): Promise<Query> {
    return this.compileWith(await this.parser(language), language, source, rule);
  }

  private compileWith(parser: Parser, language: string, source: string, rule: RuleConfig | undefined): Query {
    if (rule === undefined) return this.patterns.get(language, source, parser);
    return this.rules.get(language, rule, parser, (pattern) => this.patterns.get(language, pattern, parser));
  }

  invalidate(paths: readonly string[]): void {
    if (this.halted && paths.includes(this.halted.path)) this.dropHalted();
    for (const path of paths) {
      this.cache.invalidate(path);
      this.unfilled.delete(path);
    }
  }

  /**
   * Files to parse ahead of any search (the run's warm-up), by fillOne once the freed trees are
   * kept, until the cache holds `budgetChars` of source. Replaces any files given before.
   */
  prime(root: string, files: FileRef[], budgetChars: number): void {
    this.primeRoot = root;
    this.unprimed = files.filter((file) => file.language !== undefined).reverse();
    this.primeLanguages = new Set(this.unprimed.map((file) => file.language!));
    this.primeBudget = budgetChars;
  }

  /**
   * Files this searcher took from another worker's share in a search (ShareClaims), parsed ahead
   * here as the warm-up would have had their old home parse them (which now passes them over): only
   * in the warm-up's languages, and none in a run without a warm-up.
   */
  primeTaken(files: readonly FileRef[]): void {
    this.unprimed.push(...files.filter((file) => file.language !== undefined && this.primeLanguages.has(file.language)));
  }

  /**
   * Parses one file whose first tree was freed, from its cached text, and keeps the tree; then one
   * file given to prime. False once none is left. A file changed or evicted since is passed over.
   */
  async fillOne(giveWay: GiveWay = NEVER_GIVE_WAY): Promise<boolean> {
    return (await this.refillOne(giveWay)) || (await this.primeOne(giveWay));
  }

  /**
   * Parses a file ahead of need, on a parser of its own (not the searches'), unless `giveWay` says
   * other work is waiting, checked while the parse runs: a 600 KB C++ file takes half a second to
   * parse before the engine has optimised its grammar, and a search asked meanwhile waited for all
   * of it. A parse that gives way is halted, not dropped: tree-sitter resumes it on that parser's
   * next call, so it goes on from where it stopped when the file comes up again (the next fill, or
   * a job that must parse it: resumeHalted). Any other parse ahead resets that parser first.
   * True when the tree was made and kept.
   */
  private async parseAhead(parse: AheadParse, giveWay: GiveWay): Promise<boolean> {
    const parser = await this.aheadParser(parse.language);
    if (this.halted && !this.isHalted(parse.path, parse.language, parse.text)) this.dropHalted();
    const tree = parser.parse(parse.text, null, giveWay === NEVER_GIVE_WAY ? undefined : { progressCallback: () => giveWay() });
    if (!tree) {
      this.halted = { ...parse, parser };
      return false;
    }
    this.halted = undefined;
    parse.keep(tree);
    return true;
  }

  /**
   * The tree of a file a job must parse, when the parse ahead that gave way to the job was of that
   * very text: the parse goes on from where it stopped, instead of beginning the file again.
   */
  private resumeHalted(path: string, language: string, text: string): Tree | undefined {
    const halted = this.halted;
    if (!halted || !this.isHalted(path, language, text)) return undefined;
    this.halted = undefined;
    const tree = halted.parser.parse(text);
    if (!tree) halted.parser.reset();
    return tree ?? undefined;
  }

  /** The halted parse is of this file's very text (in its language, so on the parser that holds it). */
  private isHalted(path: string, language: string, text: string): boolean {
    const halted = this.halted;
    return halted !== undefined && halted.path === path && halted.language === language && halted.text === text;
  }

  private dropHalted(): void {
    this.halted?.parser.reset();
    this.halted = undefined;
  }

  /**
   * Parses one file given to prime, and keeps it with its tree; false once none is left (a file
   * that would take the cache past the budget is passed over). A file a search already read (kept as text alone: none of that pattern's words
   * were in it) is parsed from that text: the agent's next pattern may well be in it. The budget
   * bounds what is read from disk ahead of need; text already held is parsed whatever it holds.
   */
  private async primeOne(giveWay: GiveWay): Promise<boolean> {
    while (this.unprimed.length > 0) {
      const file = this.unprimed.pop()!;
      if (this.options.homedHere && !this.options.homedHere(file.path)) continue;
      const held = this.cache.peek(file.path);
      // Has its tree, waits for refillOne, or was since read changed or in another language.
      if (held && (held.tree || this.unfilled.has(file.path) || !isSameVersion(held, file.size, file.mtimeMs, file.language))) continue;
      if (!held && this.cache.sourceChars + file.size > this.primeBudget) continue;
      let text: string;
      if (held) text = held.text;
      else {
        let bytes: Buffer;
        try {
          bytes = readFileInside(this.primeRoot, file.path);
        } catch {
          continue; // gone or unreadable: the search that needs it will say so
        }
        if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) continue;
        text = bytes.toString("utf8");
      }
      const keep = (tree: Tree) => {
        // A search may have put or parsed the file while the parser loaded or the parse ran.
        const now = this.cache.peek(file.path);
        if (held && now === held && !held.tree) held.tree = tree;
        else if (!held && !now) this.cachePut({ ...file, language: file.language!, text, tree });
        else tree.delete();
      };
      if (!(await this.parseAhead({ path: file.path, language: file.language!, text, keep }, giveWay))) this.unprimed.push(file); // goes on later, once nothing waits
      return true;
    }
    return false;
  }

  /** Parses one file whose first tree was freed again, from its cached text, and keeps the tree; false once none is left. */
  private async refillOne(giveWay: GiveWay): Promise<boolean> {
    for (const path of this.unfilled) {
      this.unfilled.delete(path);
      const entry = this.cache.peek(path);
      if (!entry || entry.tree) continue;
      const keep = (tree: Tree) => {
        // The entry may have been evicted while the parser loaded; a tree is kept only on a live one.
        if (this.cache.peek(path) === entry && !entry.tree) entry.tree = tree;
        else tree.delete();
      };
      if (!(await this.parseAhead({ path, language: entry.language, text: entry.text, keep }, giveWay))) this.unfilled.add(path); // goes on later, once nothing waits
      return true;
    }
    return false;
  }

  private async searchFile(
    file: FileRef,
    job: SearchJob,
    search: string | undefined,
    pattern: Query,
    parser: Parser,
    stats: JobStats,
    budget: { records: number },
  ): Promise<FileOutcome | undefined> {
    const began = performance.now();
    const cached = this.cache.get(file.path, file.size, file.mtimeMs, job.language);
    let text: string;
    if (cached) {
      text = cached.text;
    } else {
      let bytes: Buffer;
      try {
        bytes = readFileInside(job.root, file.path); // a worker thread: blocking beats an await per file
      } catch (error) {
        return { path: file.path, count: 0, matches: [], skipped: `unreadable: ${(error as Error).message}` };
      }
      // Rare under a source extension, so worth a note: "No match in 1 file" would hide it was never read.
      if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { path: file.path, count: 0, matches: [], skipped: "not searched: it holds NUL bytes (binary, or UTF-16 text)" };
      text = bytes.toString("utf8");
    }
    const read = performance.now();
    stats.ms.read += read - began;
    const facts = cached ? (cached.facts ??= new TextFacts()) : new TextFacts();
    const holds = facts.holdsAll(text, pattern);
    stats.ms.prefilter += performance.now() - read;
    if (!holds) {
      if (!cached) this.cachePut({ ...file, language: job.language, text, facts });
      return undefined;
    }
    stats.candidates++;
    const known = search !== undefined ? cached?.outcomes?.get(search) : undefined;
    if (known) {
      stats.remembered++;
      const recorded = known.matches.slice(0, Math.max(0, Math.min(known.count, budget.records)));
      budget.records -= recorded.length;
      return { path: file.path, count: known.count, matches: recorded, ...(known.parseErrors ? { parseErrors: known.parseErrors } : {}) };
    }
    let tree = cached?.tree;
    if (tree) stats.cached++;
    else {
      const parsing = performance.now();
      const resumed = this.resumeHalted(file.path, job.language, text);
      const parsed = resumed ?? parser.parse(text);
      stats.ms.parse += performance.now() - parsing;
      if (!parsed) return { path: file.path, count: 0, matches: [], skipped: "the parser gave up on it" };
      tree = parsed;
      stats.parsed++;
      if (resumed) stats.resumed++;
      if (cached) cached.tree = parsed;
    }
    let matches: NodeMatch[];
    try {
      // A rule's literal may stand in a related node (an ancestor, a sibling), not in the match: no narrowing.
      matches = isRule(pattern) ? findRuleMatches(tree.rootNode, pattern) : findMatches(tree.rootNode, pattern, facts.rarestOffsets(text, pattern));
    } catch (error) {
      if (!(error instanceof MatchBudgetExceeded)) throw error;
      if (!cached) this.keep({ ...file, language: job.language, text, tree, facts });
      return { path: file.path, count: 0, matches: [], skipped: error.message };
    }
    const shown = Math.max(0, Math.min(matches.length, budget.records));
    budget.records -= shown;
    // Every record is built when the file's outcome is to be remembered, past the answer's budget:
    // the next search may want more, and one remembered without them would be parsed again.
    const remembering = search !== undefined && matches.length <= MAX_REMEMBERED_MATCHES;
    const records = (remembering ? matches : matches.slice(0, shown)).map((m) => matchRecord(text, m));
    const outcome: FileOutcome = { path: file.path, count: matches.length, matches: records.slice(0, shown) };
    const broken = cached?.parseErrors ?? brokenNodes(tree);
    if (cached) cached.parseErrors = broken;
    if (broken > 0) outcome.parseErrors = broken;
    const outcomes = cached ? (cached.outcomes ??= new RememberedOutcomes()) : new RememberedOutcomes();
    if (remembering) outcomes.remember(search, { count: matches.length, matches: records, ...(broken > 0 ? { parseErrors: broken } : {}) });
    if (job.rewrite !== undefined && matches.length > 0) {
      if (text.includes("\uFFFD") && !isValidUtf8(readFileInside(job.root, file.path))) {
        outcome.skipped = "not rewritten: it is not valid UTF-8, and writing it back would replace its undecodable bytes; fix its encoding first";
      } else {
        const kept = outermost(matches);
        const layoutSource = isRule(pattern) ? pattern.patternSource : pattern.source;
        const laid = kept.map((m) => replacementFor(text, m, job.rewrite!, layoutSource, isRule(pattern) ? transformed(pattern.transform, m.bindings, text, m.node.startIndex) : undefined));
        const replacements = laid.map(({ start, end, text: replaced }) => ({ start, end, text: replaced }));
        const overwritten = laid.flatMap((r) => r.overwritten.map((word) => `\`${word.text}\` (line ${word.startPosition.row + 1})`));
        outcome.rewrite = { original: text, updated: applyReplacements(text, replacements), replacements, overwritten };
      }
    }
    if (!cached) this.keep({ ...file, language: job.language, text, tree, facts, outcomes, parseErrors: broken });
    return outcome;
  }

  /** Caches a file parsed for the first time: with its tree, or (deferTrees) its text alone. */
  private keep(entry: ParsedFile & { tree: Tree }): void {
    if (!this.options.deferTrees) return this.cachePut(entry);
    const { tree, ...withoutTree } = entry;
    tree.delete();
    this.cachePut(withoutTree);
    this.unfilled.add(entry.path);
  }

  private cachePut(entry: ParsedFile): void {
    this.cache.put(entry);
    this.options.onCached?.(entry.path);
  }

  private parser(language: string): Promise<Parser> {
    return parserIn(this.parsers, language, this.parserFor);
  }

  private aheadParser(language: string): Promise<Parser> {
    return parserIn(this.aheadParsers, language, this.parserFor);
  }

  close(): void {
    this.halted = undefined;
    this.unfilled.clear();
    this.unprimed = [];
    this.cache.clear();
    for (const parsers of [this.parsers, this.aheadParsers]) {
      for (const parser of parsers.values()) void parser.then((p) => p.delete(), () => {});
      parsers.clear();
    }
  }
}

/**
 * What makes two jobs the same search for a file: everything but which files, where, and how many
 * records the answer wants. A rewrite's outcome holds the whole file twice, so rewrites are not remembered.
 */
function searchKey(job: SearchJob): string | undefined {
  const { files: _files, root: _root, maxRecords: _maxRecords, compiled: _compiled, ...search } = job;
  return job.rewrite === undefined ? JSON.stringify(search) : undefined;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Decoding replaced a byte sequence with U+FFFD, so the text does not round-trip to the file. */
function isValidUtf8(bytes: Buffer): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** ERROR and MISSING nodes in a tree; only subtrees that hold one are entered. */
function brokenNodes(tree: Tree): number {
  if (!tree.rootNode.hasError) return 0;
  const cursor = tree.walk();
  let count = 0;
  try {
    for (;;) {
      const node = cursor.currentNode;
      if (node.isError || node.isMissing) count++;
      if (node.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return count;
    }
  } finally {
    cursor.delete();
  }
}

/** Matched text is capped to its first lines; a binding to its first 200 characters. */
const MATCH_TEXT_LINES = 5;
const BINDING_CHARS = 200;

function matchRecord(text: string, match: NodeMatch): MatchRecord {
  const { node } = match;
  const matched = text.slice(node.startIndex, match.end);
  const lines = matched.split("\n");
  const shown = lines.length > MATCH_TEXT_LINES ? `${lines.slice(0, MATCH_TEXT_LINES).join("\n")}\n… (${lines.length - MATCH_TEXT_LINES} more lines)` : matched;
  const bindings: Record<string, string> = {};
  for (const [name, capture] of match.bindings) {
    const span = captureSpan(capture, node.startIndex);
    const value = text.slice(span.start, span.end);
    bindings[name] = value.length > BINDING_CHARS ? `${value.slice(0, BINDING_CHARS)}…` : value;
  }
  return { start: position(text, node.startPosition, node.startIndex), end: position(text, { row: node.startPosition.row + lines.length - 1 }, match.end), text: shown, bindings };
}

/** 1-based line and column (UTF-16 code units, as editors count them). */
function position(text: string, point: { row: number }, index: number): Position {
  return { line: point.row + 1, column: index - (text.lastIndexOf("\n", index - 1) + 1) + 1 };
}

/** A job's own files, one at a time in path order (the order its records are built in). */
function inPathOrder(files: readonly FileRef[]): () => ClaimedFile | undefined {
  const sorted = [...files].sort(byPath);
  let at = 0;
  return () => (at < sorted.length ? { file: sorted[at++]!, taken: false } : undefined);
}

/** Orders files (or their outcomes) by path, as every answer lists them: code-unit order, not the locale's. */
export function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
