// How a kernel is started: which interpreter, which argv, and whether through the enclosure's prefix.
import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { KernelSettings } from "../config/resources/kernels.ts";
import { findExecutable, type ProgramTrust } from "../platform/executables.ts";
import driver from "./driver.py" with { type: "text" };
import magics from "./magics.py" with { type: "text" };
import display from "./display.py" with { type: "text" };
import htmlMarkdown from "./html_markdown.py" with { type: "text" };

export type KernelLanguage = "python" | "javascript";

export interface LaunchPlan {
  language: KernelLanguage;
  argv: string[];
  /** "on the host", or "in the enclosure NAME". */
  where: string;
  /** Set when the kernel runs inside an enclosure: a failed start then means it is not running. */
  enclosure?: string;
  /** Untrusted, the kernel's PATH is cut as every child's is: a pyenv shim's `bash` is found on it. */
  trust: ProgramTrust;
}

/** The hidden command that runs the JavaScript kernel inside the sidecar binary. */
export const JS_KERNEL_COMMAND = "__kernel-js";

/**
 * Moves the protocol onto fds 3 (in) and 4 (out) and points fds 1 and 2 at the process's stderr,
 * so nothing a cell or its subprocesses write to stdout can land in the protocol stream.
 */
const JS_FD_SHUFFLE = 'exec 3<&0 4>&1 </dev/null 1>&2; exec "$@"';

/** The driver's helper modules, importable under these names from the driver's first line. */
const DRIVER_MODULES: Record<string, string> = { sidecar_magics: magics, sidecar_display: display, sidecar_html: htmlMarkdown };

/**
 * Serves the helper modules (SOURCES: name → source) to `import`, each compiled on its first import:
 * most kernels never run a magic or show HTML, and compiling sidecar_magics alone took 10–20 ms of
 * every start. The spec type is the one sys's own spec has: importlib.machinery is not loaded yet.
 */
const EMBEDDED_FINDER = `import sys as _sys


class _EmbeddedModules:
    def __init__(self, sources):
        self.sources = sources
        self.spec = type(_sys.__spec__)

    def find_spec(self, name, path=None, target=None):
        return self.spec(name, self, origin=f"<{name}>") if name in self.sources else None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        name = module.__name__
        exec(compile(self.sources[name], f"<{name}>", "exec"), module.__dict__)


_sys.meta_path.insert(0, _EmbeddedModules(SOURCES))
del _sys, _EmbeddedModules
`;

/** The driver, with its helper modules importable first, as one `python -c` program. */
export function pythonProgram(): string {
  const sources = Object.entries(DRIVER_MODULES).map(([name, source]) => `${JSON.stringify(name)}: ${JSON.stringify(source)}`);
  return [EMBEDDED_FINDER.replace("SOURCES", `{${sources.join(", ")}}`), driver].join("\n");
}

/**
 * The config's interpreter, else the workdir's virtualenv, else `python3`. On the host a bare name
 * is looked up as every program is (platform/executables.ts: untrusted, never one the checkout put
 * on PATH); undefined when there is none. Inside an enclosure the host's files say nothing about
 * what exists there, so only the config or `python3` count, found by the enclosure.
 */
export function choosePython(settings: KernelSettings, trust: ProgramTrust): string | undefined {
  const { workdir } = trust;
  const named = settings.python ?? (settings.enclosure ? undefined : [join(workdir, ".venv", "bin", "python"), join(workdir, "venv", "bin", "python")].find((venv) => existsSync(venv))) ?? "python3";
  return settings.enclosure && !named.includes("/") ? named : hostProgram(named, trust);
}

/**
 * A program the kernel starts on the host: a path as given (relative to the workdir: the config's
 * or the venv's, which eval runs as documented, since it runs code by definition); a bare name on
 * PATH by the one rule.
 */
function hostProgram(named: string, trust: ProgramTrust): string | undefined {
  if (named.includes("/")) return isAbsolute(named) ? named : resolve(trust.workdir, named);
  return findExecutable(named, { trust });
}

/** The plan, or why there is none (no interpreter to run). */
export function launchPlan(language: KernelLanguage, settings: KernelSettings, trust: ProgramTrust, selfCommand: readonly string[]): LaunchPlan | string {
  const enclosure = settings.enclosure;
  let inner: string[];
  if (language === "python") {
    const python = choosePython(settings, trust);
    if (!python) return `${settings.python ?? "python3"} is not on PATH${trust.workspace ? "" : " (outside the workspace, which is not trusted)"}: install Python 3, or set resources.kernels.python in the run config`;
    inner = [python, "-c", pythonProgram()];
  } else {
    // The host's own shell by its path; an enclosure finds its own.
    const sh = enclosure ? "sh" : "/bin/sh";
    inner = [sh, "-c", JS_FD_SHUFFLE, "sh", ...selfCommand, JS_KERNEL_COMMAND];
  }
  if (!enclosure) return { language, argv: inner, where: "on the host", trust };
  const [exec, ...prefixArgs] = enclosure.prefix;
  const prefix = exec && hostProgram(exec, trust);
  if (!prefix) return `the enclosure's command ${exec ?? "(empty)"} is not on PATH${trust.workspace ? "" : " (outside the workspace, which is not trusted)"}: fix resources.kernels.enclosure.prefix in the run config`;
  const name = enclosure.name ?? enclosure.prefix.join(" ");
  return { language, argv: [prefix, ...prefixArgs, ...inner], where: `in the enclosure ${name}`, enclosure: name, trust };
}
