// The run settings a command works with: the config file (or embedded defaults) plus flags.
import { embeddedDefaults, readConfigFile, settle, type RunSettings } from "../config/load.ts";
import type { CliFlags } from "./args.ts";

export function settingsFromFlags(flags: CliFlags): RunSettings {
  const config = flags.config ? readConfigFile(flags.config) : embeddedDefaults();
  return settle(config, { workdir: flags.workdir, listen: flags.listen });
}
