// The harness-facing HTTP routes of a run, as data: each domain adds the routes its resource needs.
import type { HarnessRoute } from "../http/app.ts";
import type { ToolRegistry } from "../tool/registry.ts";
import { afterWriteRoute } from "../lsp/harness-route.ts";
import type { RunServices } from "./services.ts";

export function harnessRoutes(services: RunServices, _registry: ToolRegistry): HarnessRoute[] {
  return [
    ...(services.languageServers ? [afterWriteRoute(services.languageServers)] : []),
  ];
}
