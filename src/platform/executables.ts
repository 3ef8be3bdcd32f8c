// The one lookup of a program to run: on PATH the way the OS would (PATHEXT on Windows, the exec bit
// on POSIX), and never one the checkout chose unless the workspace is trusted. Every domain and
// every probe finds what it starts here (servers, checkers, adapters, interpreters, git, sh).
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter as hostDelimiter, isAbsolute, join, relative } from "node:path";
import { HOST, type OsFamily } from "./os.ts";

/**
 * Whether the checkout may choose what runs (the run config's `trust`). Untrusted, no program is
 * found inside the workdir: not by a relative PATH entry (it names the working directory, which
 * is the checkout), not by an entry inside it, and not by one that leads into it through a symlink.
 */
export interface ProgramTrust {
  /** The run config's `trust` is "workspace": the harness's user trusts this folder. */
  workspace: boolean;
  /** The checkout, by the name the run was given (its real path is compared too). */
  workdir: string;
}

/** For code outside any workspace (benches, the sidecar's own tools): nothing to refuse. */
export const TRUST_ALL: ProgramTrust = { workspace: true, workdir: "" };

/** The run config's `trust` word as a ProgramTrust. */
export function programTrust(trust: "workspace" | "none", workdir: string): ProgramTrust {
  return { workspace: trust === "workspace", workdir };
}

interface ExecutableSearch {
  trust: ProgramTrust;
  /** PATH (Path on Windows) as a string; default this process's. */
  path?: string | undefined;
  /** PATHEXT on Windows, e.g. ".COM;.EXE;.BAT;.CMD". */
  pathext?: string;
  family?: OsFamily;
  /** Whether a candidate is a runnable file; injectable for tests. */
  isExecutable?: (candidate: string) => boolean;
}

const DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD";

/** The candidate file names for `name`: itself on POSIX; with each PATHEXT suffix first on Windows. */
export function executableNames(name: string, family: OsFamily, pathext = DEFAULT_PATHEXT): string[] {
  if (family === "posix") return [name];
  const suffixes = pathext.split(";").filter(Boolean).map((s) => s.toLowerCase());
  const hasSuffix = suffixes.some((suffix) => name.toLowerCase().endsWith(suffix));
  return hasSuffix ? [name] : [...suffixes.map((suffix) => name + suffix), name];
}

/** The first runnable `name` the search may use, or undefined. A name with a path separator is checked as given. */
export function findExecutable(name: string, search: ExecutableSearch): string | undefined {
  return findExecutables(name, search)[0];
}

/**
 * Every runnable `name` the search may use, in PATH order (`which -a`). A name with a path
 * separator is itself the one candidate. Untrusted, none lies inside the workdir, by name or by
 * real path.
 */
export function findExecutables(name: string, search: ExecutableSearch): string[] {
  return runnableCandidates(name, search).filter((found) => found.allowed).map((found) => found.path);
}

/** Runnable matches of `name` the search passed over (untrusted: the checkout's), so an answer can name them. */
export function refusedExecutables(name: string, search: ExecutableSearch): string[] {
  return runnableCandidates(name, search).filter((found) => !found.allowed).map((found) => found.path);
}

function runnableCandidates(name: string, search: ExecutableSearch): { path: string; allowed: boolean }[] {
  const family = search.family ?? HOST.family;
  const isExecutable = search.isExecutable ?? defaultIsExecutable(family);
  const names = executableNames(name, family, search.pathext);
  const explicit = name.includes("/") || (family === "windows" && name.includes("\\"));
  const folders = explicit ? [{ dir: undefined as string | undefined, allowed: true }] : inOrder(search);
  // A file that leads into the workdir through a symlink is the checkout's, whatever folder holds it.
  return folders.flatMap(({ dir, allowed }) =>
    names
      .map((candidate) => (dir === undefined ? candidate : inFolder(dir, candidate, family)))
      .filter(isExecutable)
      .map((path) => ({ path, allowed: allowed && mayRun(path, search.trust) })),
  );
}

/**
 * PATH's folders, in order, split into those a search may use and those it may not: trusted, all
 * are searched; untrusted, a relative entry (an empty one means the working directory) and any
 * entry inside the workdir by name or by real path are refused.
 */
export function pathFolders(search: Pick<ExecutableSearch, "trust" | "path" | "family">): { searched: string[]; refused: string[] } {
  const folders = inOrder(search);
  return { searched: folders.filter((f) => f.allowed).map((f) => f.dir), refused: folders.filter((f) => !f.allowed).map((f) => f.dir) };
}

function inOrder(search: Pick<ExecutableSearch, "trust" | "path" | "family">): { dir: string; allowed: boolean }[] {
  const family = search.family ?? HOST.family;
  const delimiter = family === "windows" ? ";" : family === HOST.family ? hostDelimiter : ":";
  const path = "path" in search ? search.path : pathOf(process.env);
  return (path ?? "")
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => {
      const absolute = family === "windows" ? /^([a-zA-Z]:)?[\\/]/.test(dir) : isAbsolute(dir);
      return { dir, allowed: search.trust.workspace || (absolute && !insideByRealPath(search.trust.workdir, dir)) };
    });
}

/**
 * Whether the file at `path` may run: trusted, any; untrusted, none inside the workdir by name or by
 * real path, and no relative one (it would be found from the working directory, the checkout).
 */
export function mayRun(path: string, trust: ProgramTrust): boolean {
  return trust.workspace || (isAbsolute(path) && !insideByRealPath(trust.workdir, path));
}

/** `path` (absolute) inside `workdir` by name, or once symlinks on either side are resolved. */
function insideByRealPath(workdir: string, path: string): boolean {
  if (!workdir) return false;
  if (within(workdir, path)) return true;
  try {
    return within(realpathSync(workdir), realpathSync(path));
  } catch {
    return false; // nothing there to run
  }
}

/** The environment a child gets so that it too finds no program of the checkout's: PATH cut by the same rule. */
export function trustedEnv(env: NodeJS.ProcessEnv, trust: ProgramTrust): NodeJS.ProcessEnv {
  if (trust.workspace) return { ...env };
  const key = Object.keys(env).find((k) => k.toUpperCase() === "PATH") ?? "PATH";
  const { searched } = pathFolders({ trust, path: env[key] });
  return { ...env, [key]: searched.join(HOST.family === "windows" ? ";" : hostDelimiter) };
}

/** PATH from an environment, whatever its case on Windows (Path). */
export function pathOf(env: NodeJS.ProcessEnv): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === "PATH");
  return key ? env[key] : undefined;
}

/** Whether `path` is a runnable file here (a directory is not, though it has the exec bit). */
export function isExecutableFile(path: string): boolean {
  return defaultIsExecutable(HOST.family)(path);
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function inFolder(dir: string, name: string, family: OsFamily): string {
  return family === "windows" ? `${dir.replace(/[\\/]$/, "")}\\${name}` : join(dir, name);
}

function defaultIsExecutable(family: OsFamily): (candidate: string) => boolean {
  return (candidate) => {
    try {
      if (!statSync(candidate).isFile()) return false;
      if (family === "windows") return true;
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
}
