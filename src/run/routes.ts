// The harness-facing HTTP routes of a run, as data: each domain adds the routes its resource needs.
import type { CallRecord } from "../activity/call-record.ts";
import type { HarnessRoute } from "../host/harness-route.ts";
import { afterWriteRoute } from "../lsp/harness-route.ts";
import { operatorPageRoutes } from "../questions/page/page-routes.ts";
import { permissionRoute } from "../questions/permission-route.ts";
import type { Surface, ToolRegistry } from "../tool/registry.ts";
import { runGlance } from "./glance.ts";
import type { RunResources } from "../tools/run-resources.ts";
import { vibeModeRoutes } from "./vibe-mode-route.ts";

export function harnessRoutes(services: RunResources, registry: ToolRegistry, surfaces: readonly Surface[], record: CallRecord): HarnessRoute[] {
  const { questions } = services;
  return [
    ...(services.languageServers ? [afterWriteRoute(services.languageServers)] : []),
    ...(questions ? [permissionRoute(questions)] : []),
    ...(questions?.board && questions.page
      ? operatorPageRoutes(questions.board, questions.page, {
          glance: () => runGlance(services, registry, surfaces),
          calls: record.recent,
          running: record.running,
          recordPath: record.path,
        })
      : []),
    ...(services.workers ? vibeModeRoutes(services.workers, registry) : []),
  ];
}
