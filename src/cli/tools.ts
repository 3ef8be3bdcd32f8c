// `sidecar tools`: the tool list one surface would see, as JSON.
import { describeTool } from "../http/describe-tool.ts";
import type { RuntimePrimitives } from "../host/runtime.ts";
import { UsageError, type CliFlags } from "./args.ts";
import { settingsFromFlags } from "./load-settings.ts";
import { withRunTools } from "./run-tools.ts";

export async function toolsCommand(flags: CliFlags, runtime: RuntimePrimitives): Promise<number> {
  const settings = settingsFromFlags(flags);
  const name = flags.surface ?? "default";
  const surface = settings.surfaces.find((s) => s.name === name);
  if (!surface) {
    throw new UsageError(`No surface named ${name}; this config has: ${settings.surfaces.map((s) => s.name).join(", ")}.`);
  }
  const tools = await withRunTools(settings, runtime, (registry) => registry.forSurface(surface).map((tool) => ({ ...describeTool(tool), tier: tool.tier })));
  process.stdout.write(`${JSON.stringify({ surface: name, tiers: surface.tiers, tools }, null, 2)}\n`);
  return 0;
}
