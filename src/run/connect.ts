// Connects the resources a run config names: one service per resource, closed with the run.
import type { RunSettings } from "../config/load.ts";
import { connectQuestions } from "../questions/service.ts";
import type { RuntimePrimitives } from "../runtime/primitives.ts";
import { LanguageServices } from "../lsp/service.ts";
import { GrammarLoader } from "../syntax/grammars.ts";
import { kernelFactory } from "../kernel/connect.ts";
import { openWorkerRoster } from "../workers/roster.ts";
import type { Lifecycle } from "./lifecycle.ts";
import type { RunServices } from "./services.ts";

export function connectServices(settings: RunSettings, runtime: RuntimePrimitives, lifecycle: Lifecycle): RunServices {
  const { resources } = settings;
  return {
    workdir: settings.workdir,
    conversation: settings.conversation,
    ...(resources.parser ? { grammars: new GrammarLoader(runtime.grammars) } : {}),
    ...(resources.languageServers ? { languageServers: connectLanguageServers(settings.workdir, resources.languageServers, lifecycle) } : {}),
    ...(resources.questions ? { questions: connectQuestions(resources.questions, operatorToken(settings), lifecycle) } : {}),
    ...(resources.kernels ? { kernels: kernelFactory(settings, resources.kernels, runtime, lifecycle) } : {}),
    ...(resources.vibe ? { workers: openWorkerRoster(resources.vibe, settings.workdir, settings.stateDir, lifecycle) } : {}),
  };
}

/** The operator (the human at the page) holds the default surface's token. */
function operatorToken(settings: RunSettings): string {
  return (settings.surfaces.find((s) => s.name === "default") ?? settings.surfaces[0])!.token;
}

function connectLanguageServers(workdir: string, settings: NonNullable<RunSettings["resources"]["languageServers"]>, lifecycle: Lifecycle): LanguageServices {
  const services = new LanguageServices(workdir, settings);
  lifecycle.add("language servers", () => services.close());
  return services;
}
