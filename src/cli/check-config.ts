// `sidecar check-config run.json`: validate a run config and print what `serve` would run with.
import { settle, type RunSettings } from "../config/load.ts";
import type { RunConfig } from "../config/schema.ts";
import type { RuntimePrimitives } from "../host/runtime.ts";
import type { CliFlags } from "./args.ts";
import { effectiveConfig } from "./load-settings.ts";
import { noToolWarning, withRunTools } from "./run-tools.ts";

export async function checkConfigCommand(path: string, flags: CliFlags, runtime: RuntimePrimitives): Promise<number> {
  const config = effectiveConfig(path, flags["cache-dir"]); // a ConfigError names every problem, and exits 2
  const settings = settle(config, { workdir: flags.workdir, listen: flags.listen });
  const { lists, warning } = await withRunTools(settings, runtime, (registry) => ({
    lists: settings.surfaces.map((surface) => ({ surface: surface.name, tools: registry.forSurface(surface).map((tool) => tool.name) })),
    warning: noToolWarning(registry),
  }));
  process.stdout.write(`${JSON.stringify(printable(settings), null, 2)}\n`);
  process.stderr.write(`sidecar: ${path} is valid.\n`);
  for (const { surface, tools } of lists) process.stderr.write(`  surface ${surface} sees ${tools.length} tool${tools.length === 1 ? "" : "s"}${tools.length ? `: ${tools.join(", ")}` : ""}\n`);
  if (warning) process.stderr.write(`sidecar: warning: ${warning}\n`);
  return 0;
}

/**
 * The effective config as a run config (it passes check-config itself). Tokens are left out: minted
 * ones exist only once the run starts, and a fixed one is a secret that has no business on stdout.
 */
function printable(settings: RunSettings): RunConfig {
  const { host, port } = settings.listen;
  return {
    workdir: settings.workdir,
    ...(settings.conversation ? { conversation: settings.conversation } : {}),
    listen: `${host.includes(":") ? `[${host}]` : host}:${port}`,
    ...(settings.stateDir ? { stateDir: settings.stateDir } : {}),
    surfaces: Object.fromEntries(settings.surfaces.map(({ name, tiers }) => [name, { tiers: [...tiers] }])),
    resources: settings.resources,
  };
}
