// Every resource a run may have, each declared once in `run/resources/<name>.ts`. Connect, the tool
// catalog, the harness routes, the glance and `sidecar doctor` loop over this list, in its order.
import { dap } from "./resources/dap.ts";
import { kernel } from "./resources/kernel.ts";
import { lsp } from "./resources/lsp.ts";
import { questions } from "./resources/questions.ts";
import type { Resource, RunFacts } from "./resources/resource.ts";
import { syntax } from "./resources/syntax.ts";
import { workers } from "./resources/workers.ts";

/** In the order their tools are listed and their routes and sections appear. */
const DESCRIBED = [lsp, syntax, dap, kernel, questions, workers] as const;

// `any` for the settings: a parameter is contravariant, so only `any` matches every descriptor.
type ServiceOf<R> = R extends Resource<string, any, infer Service, never> ? Service : never;

/** The live resources of one run, each present only when the config connects it, by its internal name. */
export type RunResources = RunFacts & { [R in (typeof DESCRIBED)[number] as R["name"]]?: ServiceOf<R> };

/**
 * The list as the loops read it. The assignment checks each descriptor against the run: what its
 * functions read of other resources (its `Peers`) must be what RunResources provides. A service is
 * opaque to the loops: each descriptor types its own.
 */
type AnyResource = Resource<string, any, any, RunResources>;
export const RESOURCES: readonly AnyResource[] = DESCRIBED;

/** Each connected resource with its service, in the list's order. */
export function connected(resources: RunResources): { resource: AnyResource; service: unknown }[] {
  return RESOURCES.flatMap((resource) => {
    const service = (resources as unknown as Record<string, unknown>)[resource.name];
    return service === undefined ? [] : [{ resource, service }];
  });
}

