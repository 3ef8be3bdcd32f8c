// Finding adapters' pieces on this machine: versioned names on PATH, LLVM tools, a Python that has debugpy (every PATH search by platform/executables.ts).
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { findExecutables, isExecutableFile, mayRun, pathFolders, type ProgramTrust } from "../platform/executables.ts";
import { isInside } from "../workspace/paths.ts";
import { hasDebugpy, probeInBackground } from "./debugpy-probe.ts";

/** Versioned names on PATH like lldb-dap-19, lldb-vscode-16, newest version first. */
export function versionedOnPath(stem: string, trust: ProgramTrust): string[] {
  const found = new Map<number, string>();
  for (const dir of pathFolders({ trust }).searched) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const version = new RegExp(`^${stem}-(\\d+)$`).exec(name)?.[1];
      if (version && !found.has(Number(version)) && isExecutableFile(join(dir, name)) && mayRun(join(dir, name), trust)) found.set(Number(version), join(dir, name));
    }
  }
  return [...found.entries()].sort((a, b) => b[0] - a[0]).map(([, path]) => path);
}

/** `/usr/lib/llvm-NN/bin/<tool>` for every installed LLVM, newest first. */
export function llvmTools(tool: string, libDir = "/usr/lib"): string[] {
  let names: string[];
  try {
    names = readdirSync(libDir);
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, version: Number(/^llvm-(\d+)$/.exec(name)?.[1]) }))
    .filter((entry) => Number.isFinite(entry.version))
    .sort((a, b) => b.version - a.version)
    .map((entry) => join(libDir, entry.name, "bin", tool))
    .filter((path) => isExecutableFile(path));
}

type PythonChoice =
  | { ok: true; python: string; where: string; note?: string }
  | { ok: false; reason: string; hint: string };

/** What an untrusted answer says about a project venv it did not use. */
export const TRUST_HINT = 'set "trust": "workspace" in the run config (the harness does when its user trusts this folder)';

/**
 * The interpreter debugpy runs with: the root's `.venv`, then `venv`, then each python3 on PATH.
 * A project venv that exists is the answer even without debugpy — running the program in another
 * environment fails in ways that read as broken code — so its absence is reported, not skipped.
 * An untrusted workspace's venv is never run (it is the checkout's code): it is skipped, and the
 * answer says so.
 */
export function choosePython(root: string, trust: ProgramTrust): PythonChoice {
  // Each interpreter's answer is kept while nothing that decides it changed (debugpy-probe.ts): a
  // pyenv shim alone costs hundreds of ms. A "no" is asked again before it is told, so debugpy
  // installed mid-run is seen; the venvs are looked at on every call, so a new .venv is too.
  const choice = probePython(root, trust, false);
  return choice.ok ? choice : probePython(root, trust, true);
}

/**
 * Asks, in the background, the interpreters a launch from `root` would ask, so that the run's first
 * debugpy launch finds the answers kept (DebugSupervisor.probePython: a launch waits for it).
 */
export function probePythonInBackground(root: string, trust: ProgramTrust): Promise<void> {
  return probeInBackground(() => {
    const candidates = pythonCandidates(root, trust);
    return "venv" in candidates ? [candidates.python] : candidates.onPath;
  }, root, trust);
}

const VENVS = [".venv", "venv"] as const;

/**
 * Whom a launch from `root` asks: the first project venv that exists, alone; or, when there is none
 * or it is not to be run (an untrusted checkout's own), every python3 on PATH in order.
 */
function pythonCandidates(root: string, trust: ProgramTrust): { venv: string; python: string } | { onPath: string[]; skipped?: string } {
  const venv = VENVS.find((name) => existsSync(join(root, name, "bin", "python")));
  if (venv === undefined) return { onPath: findExecutables("python3", { trust }) };
  const python = join(root, venv, "bin", "python");
  if (mayRun(python, trust)) return { venv, python };
  return { onPath: findExecutables("python3", { trust }), skipped: `the project's ${venv}/bin/python was not used because the workspace is not trusted; to use it, ${TRUST_HINT}` };
}

function probePython(root: string, trust: ProgramTrust, fresh: boolean): PythonChoice {
  const candidates = pythonCandidates(root, trust);
  if ("venv" in candidates) {
    const { venv, python } = candidates;
    if (hasDebugpy(python, root, trust, fresh)) return { ok: true, python, where: `${venv}/bin/python` };
    return {
      ok: false,
      reason: `the project's ${venv}/bin/python has no debugpy module`,
      hint: `run \`${venv}/bin/python -m pip install debugpy\`, or recreate the venv with --system-site-packages after \`apt install python3-debugpy\``,
    };
  }
  const { onPath, skipped } = candidates;
  const withDebugpy = onPath.find((python) => hasDebugpy(python, root, trust, fresh));
  if (withDebugpy) return { ok: true, python: withDebugpy, where: withDebugpy, ...(skipped ? { note: skipped } : {}) };
  return {
    ok: false,
    reason:
      (onPath.length ? `none of the python3 interpreters on PATH (${onPath.join(", ")}) can import debugpy` : "no python3 on PATH") +
      (skipped ? `, and ${skipped}` : ""),
    hint: "apt install python3-debugpy (it installs debugpy for /usr/bin/python3), or `python3 -m pip install debugpy`",
  };
}

/**
 * The nearest directory from `start` up to `workdir` holding one of `markers`, or undefined.
 * A marker outside the workdir does not count: the run owns only its checkout.
 */
export function findRoot(workdir: string, start: string, markers: readonly string[]): { root: string; marker: string } | undefined {
  let dir = start;
  for (;;) {
    if (!isInside(workdir, dir)) return undefined;
    const marker = markers.find((name) => existsSync(join(dir, name)));
    if (marker) return { root: dir, marker };
    if (dir === workdir) return undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
