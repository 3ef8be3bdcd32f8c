// Which interpreters can import debugpy: asked once per interpreter (in the background once the run is quiet), kept while nothing that decides it changed.
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { trustedEnv, type ProgramTrust } from "../platform/executables.ts";
import type { ChildProcess } from "node:child_process";
import { setGroupBackground, spawnGroup } from "../process/group.ts";

/** How long `python -c "import debugpy"` may take; a cold interpreter on a loaded machine is slow. */
const PYTHON_PROBE_TIMEOUT_MS = 15_000;

/**
 * Imports debugpy (a broken install fails here, as it would in the adapter) and prints where it
 * lives. `-c` puts the folder it starts in (the checkout) first on sys.path: a checkout's own
 * debugpy.py would run at start-up, so that entry goes before the import.
 */
const PROBE = "import os, sys; sys.path[:] = [p for p in sys.path if p not in ('', os.getcwd())]; import debugpy; print(os.path.dirname(debugpy.__file__))";

/**
 * Environment that changes which interpreter a name runs (pyenv) or what it imports: part of every
 * answer's stamp, since the adapter inherits the sidecar's environment.
 */
const DECIDING_ENV = ["PATH", "PYENV_VERSION", "PYENV_ROOT", "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONNOUSERSITE"] as const;

interface Answer {
  has: boolean;
  /** Everything the answer depends on that a stat can see, as one string. */
  stamp: string;
  /** debugpy's package folder, for a yes: the answer holds only while that folder is unchanged. */
  module: string | undefined;
  moduleStamp: string;
}

const answers = new Map<string, Answer>();
let background: Promise<void> | undefined;
/** The background probe's python, while one runs. */
let probing: ChildProcess | undefined;
/** Whether a call waits for the background probe: then it runs at the children's usual priority. */
let waited = false;

/**
 * Whether `python`, started in `cwd`, imports debugpy. A kept answer is used while the interpreter
 * file, pyenv's version files, the deciding environment and (for a yes) debugpy's folder are as they
 * were; `fresh` asks again regardless (a "no" is asked again before it is told).
 */
export function hasDebugpy(python: string, cwd: string, trust: ProgramTrust, fresh = false): boolean {
  const key = answerKey(python, cwd);
  const stamp = interpreterStamp(python, cwd);
  const kept = fresh ? undefined : keptAnswer(key, stamp);
  if (kept !== undefined) return kept;
  const probe = spawnSync(python, ["-c", PROBE], { cwd, env: trustedEnv(process.env, trust), timeout: PYTHON_PROBE_TIMEOUT_MS, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  return remember(key, stamp, probe.status === 0 ? lastLine(probe.stdout) : undefined);
}

/**
 * Probes `candidates` (in the order a launch would) in the background, stopping at the first that
 * imports debugpy, so that the run's first launch finds the answers kept. One at a time: a second
 * call while one runs shares it. While nothing waits for it, its scheduling group is the lowest
 * there is: through a pyenv shim it is a chain of some 40 shells, which took the CPU from the
 * agent's searches (a Go session's first search 1.1 → 1.9 s, bench/ast-grep-session.ts). A call
 * that waits for it says so (waitingForBackground).
 */
export function probeInBackground(candidates: () => string[], cwd: string, trust: ProgramTrust): Promise<void> {
  background ??= (async () => {
    for (const python of candidates()) {
      const key = answerKey(python, cwd);
      const stamp = interpreterStamp(python, cwd);
      if (keptAnswer(key, stamp) ?? remember(key, stamp, await probeAsync(python, cwd, trust))) return;
    }
  })()
    .catch(() => {})
    .finally(() => {
      background = undefined;
      waited = false;
    });
  return background;
}

/**
 * A call waits for the background probe: from now until it ends it runs at the children's usual
 * priority, not the lowest. A launch waiting behind a probe at nice 19 on a busy machine was what
 * made a cold start slow (S4). Nothing when no probe runs.
 */
export function waitingForBackground(): void {
  if (background === undefined || waited) return;
  waited = true;
  if (probing) setGroupBackground(probing, false);
}

/**
 * An answer is per interpreter and per pyenv version file in force (the nearest `.python-version`
 * from the folder it starts in): folders without one share the answer, so the background probe from
 * the workdir serves a program in a subfolder too.
 */
function answerKey(python: string, cwd: string): string {
  return `${python}\0${nearestVersionFile(cwd) ?? ""}`;
}

function nearestVersionFile(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".python-version"))) return join(dir, ".python-version");
    if (dirname(dir) === dir) return undefined;
  }
}

/** The kept answer, while what decided it is unchanged; else undefined (ask again). */
function keptAnswer(key: string, stamp: string): boolean | undefined {
  const kept = answers.get(key);
  return kept && kept.stamp === stamp && kept.moduleStamp === folderStamp(kept.module) ? kept.has : undefined;
}

/** `module`: debugpy's folder as the probe printed it, or undefined when the import failed. */
function remember(key: string, stamp: string, module: string | undefined): boolean {
  const has = module !== undefined;
  // A folder that cannot be stat'ed (an odd install) leaves the yes standing on the interpreter's stamp alone.
  const folder = module && existsSync(module) ? module : undefined;
  answers.set(key, { has, stamp, module: folder, moduleStamp: folderStamp(folder) });
  return has;
}

/** The probe's own line is its last: anything an import printed before it is not the folder. */
function lastLine(text: string): string {
  return text.trim().split("\n").pop() ?? "";
}

/** A pyenv shim is a bash script: untrusted, the `bash` it finds is not one the checkout put on PATH. */
function probeAsync(python: string, cwd: string, trust: ProgramTrust): Promise<string | undefined> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawnGroup(python, ["-c", PROBE], { cwd, env: trustedEnv(process.env, trust), stdio: ["ignore", "pipe", "ignore"] });
    } catch {
      return resolve(undefined);
    }
    probing = child;
    if (!waited) setGroupBackground(child, true);
    let out = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), PYTHON_PROBE_TIMEOUT_MS);
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.once("error", () => {
      probing = undefined;
      resolve(undefined);
    });
    child.once("close", (code) => {
      probing = undefined;
      clearTimeout(timer);
      resolve(code === 0 ? lastLine(out) : undefined);
    });
  });
}

/**
 * What decides which Python a name runs and what it imports: the file (and, for a symlink, its
 * target), pyenv's version choice (`.python-version` from `cwd` up, `$PYENV_ROOT/version`) and the
 * deciding environment. Stats only: microseconds.
 */
function interpreterStamp(python: string, cwd: string): string {
  const parts = [DECIDING_ENV.map((name) => process.env[name] ?? "").join("\0")];
  try {
    const target = realpathSync(python); // a re-pointed symlink (update-alternatives, a recreated venv) names another file
    parts.push(target, fileStamp(target));
  } catch {
    parts.push("-");
  }
  const versionFile = nearestVersionFile(cwd);
  parts.push(versionFile ? `${versionFile}:${fileStamp(versionFile)}` : "-");
  parts.push(fileStamp(join(process.env.PYENV_ROOT ?? join(process.env.HOME ?? "/nonexistent", ".pyenv"), "version")));
  return parts.join("|");
}

function fileStamp(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
  } catch {
    return "-";
  }
}

function folderStamp(folder: string | undefined): string {
  return folder === undefined ? "" : fileStamp(folder);
}
