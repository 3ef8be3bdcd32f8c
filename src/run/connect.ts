// Connects the resources a run config names: one service per resource, closed with the run.
import type { RunSettings } from "../config/load.ts";
import { connectQuestions } from "../questions/service.ts";
import type { RuntimePrimitives } from "../runtime/primitives.ts";
import { debugSupervisor } from "../dap/service.ts";
import { kernelFactory } from "../kernel/connect.ts";
import { describeWriteOutcome } from "../lsp/after-write.ts";
import { LanguageServices } from "../lsp/service.ts";
import { connectSyntax } from "../syntax/connect.ts";
import { openWorkerRoster } from "../workers/roster.ts";
import type { Lifecycle } from "./lifecycle.ts";
import type { RunServices } from "./services.ts";

export function connectServices(settings: RunSettings, runtime: RuntimePrimitives, lifecycle: Lifecycle): RunServices {
  const { resources } = settings;
  const services: RunServices = {
    workdir: settings.workdir,
    conversation: settings.conversation,
    ...(resources.parser ? { syntax: connectSyntax(settings.workdir, resources.parser, runtime, lifecycle) } : {}),
    ...(resources.languageServers ? { languageServers: connectLanguageServers(settings.workdir, resources.languageServers, lifecycle) } : {}),
    ...(resources.debugAdapters ? { debug: debugSupervisor(settings.workdir, resources.debugAdapters, lifecycle) } : {}),
    ...(resources.questions ? { questions: connectQuestions(resources.questions, operatorToken(settings), lifecycle) } : {}),
    ...(resources.kernels ? { kernels: kernelFactory(settings, resources.kernels, runtime, lifecycle) } : {}),
    ...(resources.vibe ? { workers: openWorkerRoster(resources.vibe, settings.workdir, settings.stateDir, lifecycle) } : {}),
  };
  reportDiagnosticsAfterStructuralWrites(services);
  return services;
}

/**
 * `resolve accept` is a write like any other: when the run has language servers, the diagnostics
 * it caused are folded into its answer, through the same ledger as the harness's own writes.
 */
function reportDiagnosticsAfterStructuralWrites({ syntax, languageServers }: RunServices): void {
  if (!syntax || !languageServers) return;
  syntax.writeHooks.add(async (paths) => describeWriteOutcome(await languageServers.afterWrite(paths)) || undefined);
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
