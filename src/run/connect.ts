// Connects the resources a run config names: one service per resource, closed with the run.
import type { RunSettings } from "../config/load.ts";
import type { RuntimePrimitives } from "../runtime/primitives.ts";
import { GrammarLoader } from "../syntax/grammars.ts";
import { debugSupervisor } from "../dap/service.ts";
import type { Lifecycle } from "./lifecycle.ts";
import type { RunServices } from "./services.ts";

export function connectServices(settings: RunSettings, runtime: RuntimePrimitives, lifecycle: Lifecycle): RunServices {
  const { resources } = settings;
  return {
    workdir: settings.workdir,
    conversation: settings.conversation,
    ...(resources.parser ? { grammars: new GrammarLoader(runtime.grammars) } : {}),
    ...(resources.debugAdapters ? { debug: debugSupervisor(settings.workdir, resources.debugAdapters, lifecycle) } : {}),
  };
}
