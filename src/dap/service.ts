// Builds the run's debug supervisor from its resource settings and ties its shutdown to the run.
import type { DebugAdapterSettings } from "../config/resources/debug-adapters.ts";
import type { Lifecycle } from "../run/lifecycle.ts";
import { DebugSupervisor } from "./supervisor.ts";

export function debugSupervisor(workdir: string, settings: DebugAdapterSettings, lifecycle: Lifecycle): DebugSupervisor {
  const supervisor = new DebugSupervisor({
    workdir,
    ...(settings.ttlSeconds !== undefined ? { ttlMs: settings.ttlSeconds * 1000 } : {}),
    ...(settings.stopWaitSeconds !== undefined ? { stopWaitMs: settings.stopWaitSeconds * 1000 } : {}),
    ...(settings.adapters ? { overrides: settings.adapters } : {}),
  });
  lifecycle.add("debug sessions", () => supervisor.close());
  return supervisor;
}
