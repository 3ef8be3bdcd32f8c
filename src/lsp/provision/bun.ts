// The JavaScript runtime and package manager the sidecar installs and runs npm servers with: its own Bun.
import { findExecutable, pathOf, type ProgramTrust } from "../../platform/executables.ts";
import { ownBunCommand, type OwnBunCommand } from "../../platform/own-bun.ts";

export interface BunRuntime {
  /**
   * How to run `bunArgs` (a script, or `install`) with this Bun. Always by ownBunCommand: Bun reads
   * no bunfig.toml (whose `preload` runs code) and no .env from the folder it starts in, which for a
   * language server is the checkout; `inherited` flags reach every Bun process it starts, too.
   */
  command(bunArgs: readonly string[], inherited?: readonly string[]): OwnBunCommand;
  /** For messages: "the sidecar's own Bun" or the path found on PATH. */
  description: string;
}

/**
 * The compiled sidecar is a Bun executable that behaves as plain Bun with BUN_BE_BUN=1; from source
 * the runtime running it is Bun already. Under Node or Deno, a `bun` on PATH serves (one the
 * checkout chose only when `trust` says the workspace is trusted).
 */
export function sidecarBun(trust: ProgramTrust, env: NodeJS.ProcessEnv = process.env): BunRuntime | undefined {
  if (process.versions.bun) return { command: ownBunCommand, description: "the sidecar's own Bun" };
  const onPath = findExecutable("bun", { trust, path: pathOf(env) });
  return onPath ? { command: (bunArgs, inherited) => ({ ...ownBunCommand(bunArgs, inherited), command: onPath }), description: onPath } : undefined;
}

export const NO_BUN = "installing and running npm language servers needs Bun: run the compiled sidecar (or from source under Bun), or put bun on PATH";
