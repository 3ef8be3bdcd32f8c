// Connects the resources a run config names: one service per resource, each through its domain's
// `connect(settings, ctx)`, closed with the run; then each takes what it needs from the others.
import type { RunSettings } from "../config/load.ts";
import type { ConnectContext } from "../host/connect-context.ts";
import type { Lifecycle } from "../host/lifecycle.ts";
import type { RuntimePrimitives } from "../host/runtime.ts";
import { connected, RESOURCES, type RunResources } from "./resources.ts";

export function connectResources(settings: RunSettings, runtime: RuntimePrimitives, lifecycle: Lifecycle): RunResources {
  const ctx: ConnectContext = {
    workdir: settings.workdir,
    conversation: settings.conversation,
    stateDir: settings.stateDir,
    trust: settings.trust,
    runtime,
    lifecycle,
  };
  const services = RESOURCES.flatMap((resource) => {
    const resourceSettings = resource.settings(settings.resources);
    return resourceSettings === undefined ? [] : [[resource.name, resource.connect(resourceSettings, ctx)] as const];
  });
  const resources: RunResources = { workdir: settings.workdir, conversation: settings.conversation, ...Object.fromEntries(services) };
  for (const { resource, service } of connected(resources)) resource.join?.(service, resources);
  return resources;
}
