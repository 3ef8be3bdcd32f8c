// JavaScriptCore settings the sidecar needs from its start. The engine reads them from the
// environment (BUN_JSC_*) once, when it starts, and never again: so `serve` starts itself over
// (execve: the same pid, the same open stdin and stdout) with them set, before it reads its config
// or loads the server's modules, and takes them back out of the environment the children inherit.
import { isEmbeddedPath } from "./embedded-paths.ts";

/**
 * - `maximumOMGCandidateCost`: WebAssembly functions larger than this are never compiled by the
 *   optimising tier (OMG); they stay in the baseline compiler's code (BBQ). A grammar's lexers are
 *   such functions (C++'s: 89 and 30 KB): by default the engine's one WebAssembly compiler thread
 *   recompiled them with every optimisation while the first search parsed, taking one of two cores
 *   from the parse workers, and a cold C++ search took 4.6× ast-grep's time; with the cap 2.6×.
 * - `useFTLJIT=false`: JavaScript stops at the DFG tier. This engine compiles JavaScript on the
 *   thread that runs it (useConcurrentJIT is off), so each FTL compile of the matcher and of
 *   web-tree-sitter's glue stalled a parse worker mid-search, in every worker again; a cold search's
 *   matching took 2–3× its time in one thread. Without it, an in-process first search fell
 *   1.15–1.3× in Rust and Python. WebAssembly keeps its optimising tier (useOMGJIT is separate).
 * docs/performance.md, Engine options, has the figures of every language.
 */
export const ENGINE_OPTIONS: Readonly<Record<string, string>> = { BUN_JSC_maximumOMGCandidateCost: "5000", BUN_JSC_useFTLJIT: "false" };

/** Set by the start-over, so the process after it knows these options are its own. */
const STARTED_OVER = "SIDECAR_ENGINE_OPTIONS_SET";

/**
 * Starts this process over with ENGINE_OPTIONS set, unless it has them: once started over (or when
 * whoever started the sidecar set any of them, which is theirs to decide), it takes out what it set
 * itself, so no child (a language server on this Bun, a kernel) inherits it. Does nothing where
 * the process cannot replace itself (Windows; a runtime without process.execve): the sidecar runs
 * with the engine's defaults there, slower on a cold first search only. Says which engine runs
 * (the bench scripts print it): its own options, the caller's, or the defaults.
 */
export function startOverWithEngineOptions(): "own" | "caller's" | "defaults" {
  if (process.env[STARTED_OVER] !== undefined) {
    for (const name of [STARTED_OVER, ...Object.keys(ENGINE_OPTIONS)]) delete process.env[name];
    return "own";
  }
  if (Object.keys(ENGINE_OPTIONS).some((name) => process.env[name] !== undefined)) return "caller's";
  if (typeof Bun === "undefined" || process.platform === "win32" || typeof process.execve !== "function") return "defaults";
  // A compiled binary's argv[1] is its embedded entry, which it finds by itself; from source, the
  // runtime's own flags and the script come back too.
  const args = isEmbeddedPath(Bun.main) ? process.argv.slice(2) : [...process.execArgv, ...process.argv.slice(1)];
  try {
    process.execve(process.execPath, [process.execPath, ...args], { ...process.env, ...ENGINE_OPTIONS, [STARTED_OVER]: "1" });
  } catch {
    // Not replaced (a sandbox that forbids exec): go on with the engine's defaults.
  }
  return "defaults";
}
