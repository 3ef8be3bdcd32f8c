// Connects the resources a run config names: one service per resource, closed with the run.
import type { RunSettings } from "../config/load.ts";
import type { RuntimePrimitives } from "../runtime/primitives.ts";
import { LanguageServices } from "../lsp/service.ts";
import { GrammarLoader } from "../syntax/grammars.ts";
import type { Lifecycle } from "./lifecycle.ts";
import type { RunServices } from "./services.ts";

export function connectServices(settings: RunSettings, runtime: RuntimePrimitives, lifecycle: Lifecycle): RunServices {
  const { resources } = settings;
  return {
    workdir: settings.workdir,
    conversation: settings.conversation,
    ...(resources.parser ? { grammars: new GrammarLoader(runtime.grammars) } : {}),
    ...(resources.languageServers ? { languageServers: connectLanguageServers(settings.workdir, resources.languageServers, lifecycle) } : {}),
  };
}

function connectLanguageServers(workdir: string, settings: NonNullable<RunSettings["resources"]["languageServers"]>, lifecycle: Lifecycle): LanguageServices {
  const services = new LanguageServices(workdir, settings);
  lifecycle.add("language servers", () => services.close());
  return services;
}
