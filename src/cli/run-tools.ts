// The tools a run's settings register, without serving them: for `tools`, `check-config` and the no-tool warning.
import type { RunSettings } from "../config/load.ts";
import { toolCatalog } from "../run/catalog.ts";
import { connectResources } from "../run/connect.ts";
import { RESOURCES } from "../run/resources.ts";
import { Lifecycle } from "../host/lifecycle.ts";
import type { RuntimePrimitives } from "../host/runtime.ts";
import { ToolRegistry } from "../tool/registry.ts";

/** Connects the run's resources (nothing starts until used), hands the registry to `use`, then closes them. */
export async function withRunTools<T>(settings: RunSettings, runtime: RuntimePrimitives, use: (registry: ToolRegistry) => T): Promise<T> {
  const lifecycle = new Lifecycle();
  try {
    return use(new ToolRegistry(toolCatalog(connectResources(settings, runtime, lifecycle))));
  } finally {
    await lifecycle.close();
  }
}

/** Said on stderr when a run would serve nothing: a config that only sets `listen` once did, silently. */
export function noToolWarning(registry: ToolRegistry): string | undefined {
  if (registry.all().length > 0) return undefined;
  const needs = RESOURCES.flatMap((resource) => resource.toolsNeed ?? []).join("; ");
  return `this run serves no tool: every resource is left out (false) or lacks what its tools need (${needs}). See docs/config.md.`;
}
