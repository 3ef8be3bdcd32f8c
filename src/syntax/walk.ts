// Lists the files a search covers: honours .gitignore, skips .git, node_modules, oversized files,
// and never follows a symlink out of the workdir (symlinked directories are not entered at all).
import type { Dirent } from "node:fs";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { isInside } from "../workspace/paths.ts";
import type { FileRef } from "./file-search.ts";
import { isIgnored, parseGitignore, type IgnoreRules } from "./gitignore.ts";

export interface WalkOptions {
  /** The real workdir; symlinked files must resolve inside it. */
  root: string;
  /** Keep files this predicate accepts (by name). */
  accept(name: string): boolean;
  maxFileBytes: number;
}

export interface WalkResult {
  files: FileRef[];
  /** Files left out for size, counted so the answer can say so. */
  oversized: number;
}

const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);

export async function walkFiles(start: string, options: WalkOptions): Promise<WalkResult> {
  const result: WalkResult = { files: [], oversized: 0 };
  const rootIgnores = await ancestorIgnores(options.root, start);
  await walkDir(start, relFrom(options.root, start), rootIgnores, options, result);
  result.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return result;
}

/** Checks one file against the same rules a directory walk applies; a reason when it is skipped. */
export async function fileRef(path: string, options: WalkOptions): Promise<FileRef | string> {
  const info = await stat(path);
  if (!info.isFile()) return "it is not a regular file";
  if (info.size > options.maxFileBytes) return `it is larger than ${options.maxFileBytes} bytes`;
  return { path, size: info.size, mtimeMs: info.mtimeMs };
}

async function walkDir(dir: string, rel: string, inherited: IgnoreRules[], options: WalkOptions, result: WalkResult): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return; // unreadable directory: nothing to search there
  }
  const stack = entries.some((e) => e.name === ".gitignore" && e.isFile())
    ? [...inherited, parseGitignore(rel, await readFile(join(dir, ".gitignore"), "utf8").catch(() => ""))]
    : inherited;
  const subdirs: Promise<void>[] = [];
  const files: Promise<void>[] = [];
  for (const entry of entries) {
    if (ALWAYS_SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!isIgnored(stack, childRel, true)) subdirs.push(walkDir(path, childRel, stack, options, result));
    } else if ((entry.isFile() || entry.isSymbolicLink()) && options.accept(entry.name) && !isIgnored(stack, childRel, false)) {
      files.push(addFile(path, entry.isSymbolicLink(), options, result));
    }
  }
  await Promise.all([...files, ...subdirs]);
}

async function addFile(path: string, symlink: boolean, options: WalkOptions, result: WalkResult): Promise<void> {
  try {
    if (symlink && !isInside(options.root, await realpath(path))) return;
    const info = await stat(path);
    if (!info.isFile()) return;
    if (info.size > options.maxFileBytes) result.oversized++;
    else result.files.push({ path, size: info.size, mtimeMs: info.mtimeMs });
  } catch {
    // vanished or dangling: not part of the tree any more
  }
}

/** .gitignore files between the workdir root and a start directory below it also apply. */
async function ancestorIgnores(root: string, start: string): Promise<IgnoreRules[]> {
  const rel = relFrom(root, start);
  const parts = rel === "" ? [] : rel.split("/");
  const stack: IgnoreRules[] = [];
  for (let depth = 0; depth < parts.length; depth++) {
    const base = parts.slice(0, depth).join("/");
    const content = await readFile(join(root, base, ".gitignore"), "utf8").catch(() => undefined);
    if (content !== undefined) stack.push(parseGitignore(base, content));
  }
  return stack;
}

function relFrom(root: string, path: string): string {
  return path === root ? "" : path.slice(root.length + 1).split("\\").join("/");
}
