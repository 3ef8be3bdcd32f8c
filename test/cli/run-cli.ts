// Runs the sidecar's command line from source, as a user would run the binary: exit code, stdout, stderr.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

export const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): CliResult {
  const result = spawnSync(process.execPath, [MAIN, ...args], { cwd: options.cwd, env: options.env ?? process.env, encoding: "utf8", timeout: options.timeoutMs ?? 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
