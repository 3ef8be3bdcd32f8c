// The HTTP routes of a run besides /mcp, as data: each resource adds the routes it needs, and the
// run adds its console (the operator page), whose cards come from the questions resource.
import type { CallRecord } from "../activity/call-record.ts";
import type { PageAccess } from "../console/page-access.ts";
import { consoleRoutes } from "../console/routes.ts";
import type { HarnessRoute } from "../host/harness-route.ts";
import type { Surface, ToolRegistry } from "../tool/registry.ts";
import { runGlance } from "./glance.ts";
import { connected, type RunResources } from "./resources.ts";

interface RunRoutes {
  registry: ToolRegistry;
  surfaces: readonly Surface[];
  record: CallRecord;
  /** Who may open the console: its one-time links and its secret. */
  page: PageAccess;
  /** Aborted when the run shuts down: the console's streams end. */
  runSignal: AbortSignal;
  /** When the run started (ISO time), for the console's header. */
  since: string;
}

export function harnessRoutes(resources: RunResources, run: RunRoutes): HarnessRoute[] {
  const { registry, surfaces, record } = run;
  return [
    ...connected(resources).flatMap(({ resource, service }) => resource.routes?.(service, { registry }) ?? []),
    ...consoleRoutes(run.page, {
      glance: () => runGlance(resources, registry, surfaces),
      calls: record.recent,
      running: record.running,
      recordPath: record.path,
      cards: resources.questions?.board,
      runSignal: run.runSignal,
      run: { workdir: resources.workdir, pid: process.pid, since: run.since },
    }),
  ];
}
