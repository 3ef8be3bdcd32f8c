// The harness-facing HTTP routes of a run, as data: each resource adds the routes it needs.
import type { CallRecord } from "../activity/call-record.ts";
import type { HarnessRoute } from "../host/harness-route.ts";
import { operatorPageRoutes } from "../questions/page/page-routes.ts";
import type { Surface, ToolRegistry } from "../tool/registry.ts";
import { runGlance } from "./glance.ts";
import { connected, type RunResources } from "./resources.ts";

export function harnessRoutes(resources: RunResources, registry: ToolRegistry, surfaces: readonly Surface[], record: CallRecord): HarnessRoute[] {
  const { questions } = resources;
  return [
    ...connected(resources).flatMap(({ resource, service }) => resource.routes?.(service, { registry }) ?? []),
    ...(questions?.board && questions.page
      ? operatorPageRoutes(questions.board, questions.page, {
          glance: () => runGlance(resources, registry, surfaces),
          calls: record.recent,
          running: record.running,
          recordPath: record.path,
        })
      : []),
  ];
}
