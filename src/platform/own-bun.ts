// Running a JavaScript file (a language server from npm, a package install) with the sidecar's own
// Bun: the compiled binary is Bun itself when BUN_BE_BUN=1, so the user's machine needs no Node.

import { isEmbeddedPath } from "./embedded-paths.ts";

/** An empty config file on this OS: Bun reads none from the directory it runs in. */
const EMPTY_CONFIG = process.platform === "win32" ? "NUL" : "/dev/null";

export interface OwnBunCommand {
  command: string;
  args: string[];
  /** What to add to the child's environment. */
  env: Record<string, string>;
}

/**
 * The command that runs `bunArgs` (a script and its arguments, or a Bun subcommand such as `add`)
 * with this process's Bun. Bun as a CLI reads bunfig.toml (whose `preload` runs code) and .env from
 * the directory it starts in, which for a language server is the checkout: both are turned off, so
 * a cloned repository cannot run code through them. The flags also go into BUN_OPTIONS, which every
 * Bun process started below reads: a script that forks with an execArgv of its own (typescript-
 * language-server forks tsserver with `execArgv: []`) would otherwise start one that reads both.
 * `inherited` are more flags for every such process (a `--preload`; BUN_OPTIONS splits on spaces,
 * so a path in them must have none).
 */
export function ownBunCommand(bunArgs: readonly string[], inherited: readonly string[] = []): OwnBunCommand {
  const compiled = typeof Bun !== "undefined" && isEmbeddedPath(Bun.main);
  const flags = [`--config=${EMPTY_CONFIG}`, "--no-env-file", ...inherited];
  return {
    command: process.execPath,
    args: [...flags, ...bunArgs],
    env: { BUN_OPTIONS: flags.join(" "), ...(compiled ? { BUN_BE_BUN: "1" } : {}) },
  };
}
