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
    if (rest.length > 0) {
      // `sidecar serve run.json` must not quietly serve the embedded defaults instead.
      const hint = rest[0]!.endsWith(".json") ? ` To use a run config, pass --config ${rest[0]}.` : "";
      throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])} after \`${command}\`; commands take flags only.${hint} Run \`sidecar --help\` for the commands and flags.`);
    }
    return { command, flags: values as CliFlags, rest };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${(error as Error).message}. Run \`sidecar --help\` for the commands and flags.`);
  }
}
