// Lists the files a search covers: honours .gitignore, skips .git, node_modules, oversized files,
// and never follows a symlink out of the workdir (symlinked directories are not entered at all).
// Synchronous on purpose: it runs in a parse worker, where blocking costs nobody a turn and one
// system call per file is far cheaper than a promise per file (and a thread-pool hop) would be.
import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from "node:fs";
import { join } from "node:path";
import { isInside } from "../workspace/paths.ts";
import { readRegularFileSync } from "../workspace/regular-file.ts";
import { byPath, type FileRef } from "./file-search.ts";
import { isIgnored, parseGitignore, type IgnoreRules } from "./gitignore.ts";
import { grammarForPath, SEARCHED_WHEN_NAMED } from "./grammars.ts";

interface WalkOptions {
  /** The real workdir; symlinked files must resolve inside it. */
  root: string;
  /** Keep files this predicate accepts (by name). */
  accept(name: string): boolean;
  maxFileBytes: number;
}

/** The files a search covers: named by the caller (one file), or a directory to walk. */
export type SearchScope = { kind: "files"; files: FileRef[] } | { kind: "tree"; start: string; maxFileBytes: number };

interface WalkResult {
  files: FileRef[];
  /** Files left out for size, counted so the answer can say so. */
  oversized: number;
  /** Files of languages searched only when named (SEARCHED_WHEN_NAMED), left out of a search of every language. */
  unnamed?: Array<{ language: string; files: number }>;
}

const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);

/**
 * The scope's files of one language (of every language with a grammar when `language` is
 * undefined) under the real workdir `root`, sorted by path, each with its language.
 */
export function listScope(scope: SearchScope, root: string, language: string | undefined): WalkResult {
  if (scope.kind === "files") return { files: scope.files, oversized: 0 };
  const accept = language === undefined ? (name: string) => grammarForPath(name) !== undefined : (name: string) => grammarForPath(name) === language;
  const result = walkFiles(scope.start, { root, accept, maxFileBytes: scope.maxFileBytes });
  for (const file of result.files) file.language = language ?? grammarForPath(file.path);
  if (language !== undefined) return result;
  const unnamed = new Map<string, number>();
  result.files = result.files.filter((file) => {
    if (!SEARCHED_WHEN_NAMED.has(file.language!)) return true;
    unnamed.set(file.language!, (unnamed.get(file.language!) ?? 0) + 1);
    return false;
  });
  result.unnamed = [...unnamed].sort(([a], [b]) => (a < b ? -1 : 1)).map(([lang, files]) => ({ language: lang, files }));
  return result;
}

export function walkFiles(start: string, options: WalkOptions): WalkResult {
  const result: WalkResult = { files: [], oversized: 0 };
  walkDir(start, relFrom(options.root, start), ancestorIgnores(options.root, start), options, result);
  result.files.sort(byPath);
  return result;
}

/** Checks one file (its stat) against the same rules a directory walk applies; a reason when it is skipped. */
export function fileRef(path: string, info: Stats, maxFileBytes: number): FileRef | string {
  if (!info.isFile()) return "it is not a regular file";
  if (info.size > maxFileBytes) return `it is larger than ${maxFileBytes} bytes`;
  return { path, size: info.size, mtimeMs: info.mtimeMs };
}

function walkDir(dir: string, rel: string, inherited: IgnoreRules[], options: WalkOptions, result: WalkResult): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // unreadable directory: nothing to search there
  }
  const stack = entries.some((e) => e.name === ".gitignore" && e.isFile()) ? [...inherited, parseGitignore(rel, readOrUndefined(join(dir, ".gitignore")) ?? "")] : inherited;
  for (const entry of entries) {
    if (ALWAYS_SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!isIgnored(stack, childRel, true)) walkDir(path, childRel, stack, options, result);
    } else if ((entry.isFile() || entry.isSymbolicLink()) && options.accept(entry.name) && !isIgnored(stack, childRel, false)) {
      addFile(path, entry.isSymbolicLink(), options, result);
    }
  }
}

function addFile(path: string, symlink: boolean, options: WalkOptions, result: WalkResult): void {
  try {
    if (symlink && !isInside(options.root, realpathSync(path))) return;
    const info = statSync(path);
    if (!info.isFile()) return;
    if (info.size > options.maxFileBytes) result.oversized++;
    else result.files.push({ path, size: info.size, mtimeMs: info.mtimeMs });
  } catch {
    // vanished or dangling: not part of the tree any more
  }
}

/** .gitignore files between the workdir root and a start directory below it also apply. */
function ancestorIgnores(root: string, start: string): IgnoreRules[] {
  const rel = relFrom(root, start);
  const parts = rel === "" ? [] : rel.split("/");
  const stack: IgnoreRules[] = [];
  for (let depth = 0; depth < parts.length; depth++) {
    const base = parts.slice(0, depth).join("/");
    const content = readOrUndefined(join(root, base, ".gitignore"));
    if (content !== undefined) stack.push(parseGitignore(base, content));
  }
  return stack;
}

/** A .gitignore's text; undefined when there is none or it is no regular file (a FIFO would block the walk). */
function readOrUndefined(path: string): string | undefined {
  try {
    return readRegularFileSync(path).toString("utf8");
  } catch {
    return undefined;
  }
}

function relFrom(root: string, path: string): string {
  return path === root ? "" : path.slice(root.length + 1).split("\\").join("/");
}
