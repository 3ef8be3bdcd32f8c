// The run settings a command works with: the config file (or none) over the embedded defaults, plus flags and environment.
import { withEmbeddedDefaults, embeddedDefaults } from "../config/defaults.ts";
import { readConfigFile, settle, surfaceNames, type RunSettings } from "../config/load.ts";
import type { RunConfig } from "../config/schema.ts";
import { givenTokens, isTokenVariable } from "../config/tokens.ts";
import type { CliFlags } from "./args.ts";

export function effectiveConfig(configPath: string | undefined): RunConfig {
  return configPath ? withEmbeddedDefaults(readConfigFile(configPath)) : embeddedDefaults();
}

export function settingsFromFlags(flags: CliFlags, env: Record<string, string | undefined> = process.env): RunSettings {
  const config = effectiveConfig(flags.config);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const tokens = givenTokens(surfaceNames(config), env, flags["token-file"], log);
  // Read once; the kernels, workers and servers the run starts inherit the environment, not the tokens.
  for (const name of Object.keys(env)) if (isTokenVariable(name)) delete env[name];
  return settle(config, { workdir: flags.workdir, listen: flags.listen, tokens });
}
