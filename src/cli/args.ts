// Command-line parsing shared by every command: one table of flags, errors worded for a person.
import { parseArgs } from "node:util";

export interface CliFlags {
  config?: string;
  workdir?: string;
  listen?: string;
  surface?: string;
  "allow-remote"?: boolean;
  "outlive-parent"?: boolean;
  help?: boolean;
  version?: boolean;
}

export class UsageError extends Error {}

export function parseCommandLine(argv: readonly string[]): { command: string | undefined; flags: CliFlags; rest: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        config: { type: "string" },
        workdir: { type: "string" },
        listen: { type: "string" },
        surface: { type: "string" },
        "allow-remote": { type: "boolean" },
        "outlive-parent": { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
    const [command, ...rest] = positionals;
    return { command, flags: values as CliFlags, rest };
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. Run \`sidecar --help\` for the commands and flags.`);
  }
}
