// The run settings a command works with: the config file (or none) over the embedded defaults, plus flags and environment.
import { isAbsolute } from "node:path";
import { withEmbeddedDefaults, embeddedDefaults } from "../config/defaults.ts";
import { readConfigFile, settle, surfaceNames, type RunSettings } from "../config/load.ts";
import type { RunConfig } from "../config/schema.ts";
import { givenTokens, isTokenVariable } from "../config/tokens.ts";
import { UsageError, type CliFlags } from "./args.ts";

/** The config file (or none) over the embedded defaults; --cache-dir, when given, wins over its languageServers.cacheDir. */
export function effectiveConfig(configPath: string | undefined, cacheDir?: string): RunConfig {
  const config = configPath ? withEmbeddedDefaults(readConfigFile(configPath)) : embeddedDefaults();
  return cacheDir === undefined ? config : withCacheDir(config, cacheDir, configPath);
}

function withCacheDir(config: RunConfig, cacheDir: string, configPath: string | undefined): RunConfig {
  if (!isAbsolute(cacheDir)) throw new UsageError(`--cache-dir needs an absolute path, got ${JSON.stringify(cacheDir)}.`);
  const servers = config.resources?.languageServers;
  if (!servers) {
    throw new UsageError(`--cache-dir names the language servers' install cache, but ${configPath} turns language servers off (resources.languageServers is false). Drop --cache-dir, or turn them on.`);
  }
  return { ...config, resources: { ...config.resources, languageServers: { ...servers, cacheDir } } };
}

export function settingsFromFlags(flags: CliFlags, env: Record<string, string | undefined> = process.env): RunSettings {
  const config = effectiveConfig(flags.config, flags["cache-dir"]);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const tokens = givenTokens(surfaceNames(config), env, flags["token-file"], log);
  // Read once; the kernels, workers and servers the run starts inherit the environment, not the tokens.
  for (const name of Object.keys(env)) if (isTokenVariable(name)) delete env[name];
  return settle(config, { workdir: flags.workdir, listen: flags.listen, tokens });
}
