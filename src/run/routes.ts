// The harness-facing HTTP routes of a run, as data: each domain adds the routes its resource needs.
import type { HarnessRoute } from "../http/app.ts";
import type { ToolRegistry } from "../tool/registry.ts";
import type { RunServices } from "./services.ts";
import { vibeModeRoutes } from "./vibe-mode-route.ts";

export function harnessRoutes(services: RunServices, registry: ToolRegistry): HarnessRoute[] {
  return [...(services.workers ? vibeModeRoutes(services.workers, registry) : [])];
}
