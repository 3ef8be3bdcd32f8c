// How every entry point (Bun, Node, Deno) reports a command that failed, and the exit code it gets.
import { ConfigError } from "../config/load.ts";
import { UsageError } from "./args.ts";

/**
 * Writes the failure to stderr and returns the exit code: 2 for what the person starting the
 * sidecar can fix (flags, config, the listen address), in one line; 1 with the stack for the rest.
 */
export function reportFailure(error: unknown): number {
  if (error instanceof UsageError || error instanceof ConfigError) {
    process.stderr.write(`sidecar: ${error.message}\n`);
    return 2;
  }
  process.stderr.write(`sidecar: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}
