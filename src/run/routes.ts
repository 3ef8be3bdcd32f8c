// The harness-facing HTTP routes of a run, as data: each domain adds the routes its resource needs.
import type { HarnessRoute } from "../host/harness-route.ts";
import { afterWriteRoute } from "../lsp/harness-route.ts";
import { operatorPageRoutes } from "../questions/page/page-routes.ts";
import { permissionRoute } from "../questions/permission-route.ts";
import type { Surface, ToolRegistry } from "../tool/registry.ts";
import { runGlance } from "./glance.ts";
import type { RunResources } from "../tools/run-resources.ts";
import { vibeModeRoutes } from "./vibe-mode-route.ts";

export function harnessRoutes(services: RunResources, registry: ToolRegistry, surfaces: readonly Surface[]): HarnessRoute[] {
  const { questions } = services;
  return [
    ...(services.languageServers ? [afterWriteRoute(services.languageServers)] : []),
    ...(questions ? [permissionRoute(questions)] : []),
    ...(questions?.board && questions.page
      ? operatorPageRoutes(questions.board, questions.page, () => runGlance(services, registry, surfaces))
      : []),
    ...(services.workers ? vibeModeRoutes(services.workers, registry) : []),
  ];
}
