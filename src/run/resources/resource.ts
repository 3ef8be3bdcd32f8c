// What a resource of the run is, said once: its config key, how it connects, its tools, its harness
// routes, its part of the operator page's glance, its doctor probe, and what it takes from another
// resource. The run (connect, catalog, routes, glance) and `sidecar doctor` loop over the list in
// `run/resources.ts`; adding a resource is one descriptor file and one line there.
import type { ConnectedResources } from "../../config/schema.ts";
import type { DoctorGroup } from "../../doctor/check.ts";
import type { Connect } from "../../host/connect-context.ts";
import type { HarnessRoute } from "../../host/harness-route.ts";
import type { GlanceSection } from "../../console/glance.ts";
import type { Tool } from "../../tool/define.ts";
import type { ToolRegistry } from "../../tool/registry.ts";

/** What every run has, resources or not. */
export interface RunFacts {
  workdir: string;
  /** The conversation the run serves, when the harness named one (the debug tool needs one). */
  conversation: string | undefined;
}

/** What a resource's routes may use of the run besides its own service. */
interface RouteContext {
  registry: ToolRegistry;
}

/**
 * One resource. `Peers` is what its functions read of the run (the run's facts, and any other
 * resource it uses, optional since the config may leave that one out); the list checks that the
 * run's resources provide it.
 */
export interface Resource<Name extends string, Settings, Service, Peers = RunFacts> {
  /** The one internal name: the run's field, this descriptor's file, the domain's folder. */
  name: Name;
  /** Its key under `resources` in the run config: public (the JSON Schema, packages/harness-client). */
  configKey: keyof ConnectedResources;
  /** Its settings from the config's resources; undefined when the config leaves it out. */
  settings: (resources: ConnectedResources) => Settings | undefined;
  /** The domain's entry (`src/<domain>/connect.ts`): nothing heavy starts there. */
  connect: Connect<Settings, Service>;
  /** What it takes from other resources, once every resource of the run is connected. */
  join?: (service: Service, run: Peers) => void;
  /** Its tools, built once for the run. */
  tools?: (service: Service, run: Peers) => Tool[];
  /** Whether its tools are listed right now (tools/list asks again after each change); default always. */
  listed?: (service: Service) => boolean;
  /** Why it may register no tool though connected, said when a run would serve none. */
  toolsNeed?: string;
  /** The HTTP routes it offers the harness. */
  routes?: (service: Service, run: RouteContext) => HarnessRoute[];
  /** Its sections of the operator page's run at a glance: read every few seconds, so nothing starts or waits. */
  glance?: (service: Service, run: Peers) => GlanceSection[];
  /** Its group of `sidecar doctor` checks; `always` runs it even when the config leaves the resource out. */
  doctor?: { label: string; check: DoctorGroup; always?: boolean };
  /** What it starts in the background once the run serves (nothing a call waits on). */
  serving?: (service: Service) => void;
  /** Memory it gives back when the run is idle. */
  reclaim?: (service: Service) => void;
}

/** Names the type parameters from the descriptor itself, so each descriptor file reads as data. */
export function defineResource<Name extends string, Settings, Service, Peers = RunFacts>(
  resource: Resource<Name, Settings, Service, Peers>,
): Resource<Name, Settings, Service, Peers> {
  return resource;
}
