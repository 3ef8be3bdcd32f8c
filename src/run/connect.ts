// Connects the resources a run config names: one service per resource, closed with the run.
import type { RunSettings } from "../config/load.ts";
import type { RuntimePrimitives } from "../runtime/primitives.ts";
import { connectSyntax } from "../syntax/connect.ts";
import type { Lifecycle } from "./lifecycle.ts";
import type { RunServices } from "./services.ts";

export function connectServices(settings: RunSettings, runtime: RuntimePrimitives, lifecycle: Lifecycle): RunServices {
  const { resources } = settings;
  return {
    workdir: settings.workdir,
    conversation: settings.conversation,
    ...(resources.parser ? { syntax: connectSyntax(settings.workdir, resources.parser, runtime, lifecycle) } : {}),
  };
}
