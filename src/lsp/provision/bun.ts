// The JavaScript runtime and package manager the sidecar installs and runs npm servers with: its own Bun.
import { findExecutable, pathOf } from "../../platform/executables.ts";

export interface BunRuntime {
  command: string;
  /** Set on every Bun the sidecar starts: the compiled sidecar then acts as Bun itself. */
  env: Record<string, string>;
  /** For messages: "the sidecar's own Bun" or the path found on PATH. */
  description: string;
}

/**
 * The compiled sidecar is a Bun executable that behaves as plain Bun with BUN_BE_BUN=1; from source
 * the runtime running it is Bun already. Under Node or Deno, a `bun` on PATH serves.
 */
export function sidecarBun(env: NodeJS.ProcessEnv = process.env): BunRuntime | undefined {
  if (process.versions.bun) return { command: process.execPath, env: { BUN_BE_BUN: "1" }, description: "the sidecar's own Bun" };
  const onPath = findExecutable("bun", { path: pathOf(env) });
  return onPath ? { command: onPath, env: {}, description: onPath } : undefined;
}

export const NO_BUN = "installing and running npm language servers needs Bun: run the compiled sidecar (or from source under Bun), or put bun on PATH";
