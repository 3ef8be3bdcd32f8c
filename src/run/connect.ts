// Connects the resources a run config names: one service per resource, each through its domain's
// `connect(settings, ctx)`, closed with the run.
import type { RunSettings } from "../config/load.ts";
import * as dap from "../dap/connect.ts";
import type { ConnectContext } from "../host/connect-context.ts";
import type { Lifecycle } from "../host/lifecycle.ts";
import type { RuntimePrimitives } from "../host/runtime.ts";
import * as kernel from "../kernel/connect.ts";
import * as lsp from "../lsp/connect.ts";
import * as questions from "../questions/connect.ts";
import * as syntax from "../syntax/connect.ts";
import type { RunResources } from "../tools/run-resources.ts";
import * as workers from "../workers/connect.ts";

export function connectResources(settings: RunSettings, runtime: RuntimePrimitives, lifecycle: Lifecycle): RunResources {
  const { resources } = settings;
  const ctx: ConnectContext = {
    workdir: settings.workdir,
    conversation: settings.conversation,
    stateDir: settings.stateDir,
    trust: settings.trust,
    runtime,
    lifecycle,
  };
  const connected: RunResources = {
    workdir: settings.workdir,
    conversation: settings.conversation,
    ...(resources.parser ? { syntax: syntax.connect(resources.parser, ctx) } : {}),
    ...(resources.languageServers ? { languageServers: lsp.connect(resources.languageServers, ctx) } : {}),
    ...(resources.debugAdapters ? { debug: dap.connect(resources.debugAdapters, ctx) } : {}),
    ...(resources.questions ? { questions: questions.connect(resources.questions, ctx) } : {}),
    ...(resources.kernels ? { kernels: kernel.connect({ kernels: resources.kernels, bridge: resources.bridge }, ctx) } : {}),
    ...(resources.vibe ? { workers: workers.connect(resources.vibe, ctx) } : {}),
  };
  reportDiagnosticsAfterStructuralWrites(connected);
  return connected;
}

/**
 * `resolve accept` is a write like any other: when the run has language servers, the diagnostics
 * it caused are folded into its answer, through the same ledger as the harness's own writes.
 */
function reportDiagnosticsAfterStructuralWrites({ syntax, languageServers }: RunResources): void {
  if (!syntax || !languageServers) return;
  syntax.writeHooks.add((paths) => languageServers.noteAfterWrite(paths));
}
