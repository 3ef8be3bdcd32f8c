// How a kernel is started: which interpreter, which argv, and whether through the enclosure's prefix.
import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { KernelSettings } from "../config/resources/kernels.ts";
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
}

/** The hidden command that runs the JavaScript kernel inside the sidecar binary. */
export const JS_KERNEL_COMMAND = "__kernel-js";

/**
 * Moves the protocol onto fds 3 (in) and 4 (out) and points fds 1 and 2 at the process's stderr,
 * so nothing a cell or its subprocesses write to stdout can land in the protocol stream.
 */
const JS_FD_SHUFFLE = 'exec 3<&0 4>&1 </dev/null 1>&2; exec "$@"';

/** The driver's helper modules, registered under these names before the driver runs. */
const DRIVER_MODULES: Record<string, string> = { sidecar_magics: magics, sidecar_display: display, sidecar_html: htmlMarkdown };

/** The driver, with its helper modules registered first, as one `python -c` program. */
export function pythonProgram(): string {
  const modules = Object.entries(DRIVER_MODULES).flatMap(([name, source]) => [
    `_module = _types.ModuleType(${JSON.stringify(name)})`,
    `exec(compile(${JSON.stringify(source)}, ${JSON.stringify(`<${name}>`)}, "exec"), _module.__dict__)`,
    `_sys.modules[${JSON.stringify(name)}] = _module`,
  ]);
  return ["import sys as _sys, types as _types", ...modules, "del _sys, _types, _module", driver].join("\n");
}

/**
 * The config's interpreter, else the workdir's virtualenv, else `python3`. Inside an enclosure the
 * host's files say nothing about what exists there, so only the config or `python3` count.
 */
export function choosePython(settings: KernelSettings, workdir: string): string {
  if (settings.python) {
    return settings.python.includes("/") && !isAbsolute(settings.python) ? resolve(workdir, settings.python) : settings.python;
  }
  if (!settings.enclosure) {
    for (const candidate of [join(workdir, ".venv", "bin", "python"), join(workdir, "venv", "bin", "python")]) {
      if (existsSync(candidate)) return candidate;
    }
  }
  return "python3";
}

export function launchPlan(
  language: KernelLanguage,
  settings: KernelSettings,
  workdir: string,
  selfCommand: readonly string[],
): LaunchPlan {
  const inner =
    language === "python"
      ? [choosePython(settings, workdir), "-c", pythonProgram()]
      : ["sh", "-c", JS_FD_SHUFFLE, "sh", ...selfCommand, JS_KERNEL_COMMAND];
  const enclosure = settings.enclosure;
  if (!enclosure) return { language, argv: inner, where: "on the host" };
  const name = enclosure.name ?? enclosure.prefix.join(" ");
  return { language, argv: [...enclosure.prefix, ...inner], where: `in the enclosure ${name}`, enclosure: name };
}
