// The harness-facing HTTP routes of a run, as data: each domain adds the routes its resource needs.
import type { HarnessRoute } from "../http/app.ts";
import type { ToolRegistry } from "../tool/registry.ts";
import type { RunServices } from "./services.ts";

export function harnessRoutes(_services: RunServices, _registry: ToolRegistry): HarnessRoute[] {
  return [];
}
