// Finding an executable on PATH the way the OS would: PATHEXT suffixes on Windows, the exec bit on POSIX.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter as hostDelimiter, join } from "node:path";
import { HOST, type OsFamily } from "./os.ts";

export interface ExecutableSearch {
  /** PATH (Path on Windows) as a string. */
  path: string | undefined;
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

/** The first runnable `name` along PATH, or undefined. A name with a path separator is checked as given. */
export function findExecutable(name: string, search: ExecutableSearch): string | undefined {
  const family = search.family ?? HOST.family;
  const isExecutable = search.isExecutable ?? defaultIsExecutable(family);
  const names = executableNames(name, family, search.pathext);
  if (name.includes("/") || (family === "windows" && name.includes("\\"))) {
    return names.find((candidate) => isExecutable(candidate));
  }
  const delimiter = family === "windows" ? ";" : family === HOST.family ? hostDelimiter : ":";
  for (const dir of (search.path ?? "").split(delimiter).filter(Boolean)) {
    for (const candidate of names) {
      const full = family === "windows" ? `${dir.replace(/[\\/]$/, "")}\\${candidate}` : join(dir, candidate);
      if (isExecutable(full)) return full;
    }
  }
  return undefined;
}

/** PATH from an environment, whatever its case on Windows (Path). */
export function pathOf(env: NodeJS.ProcessEnv): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === "PATH");
  return key ? env[key] : undefined;
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
