// The run at a glance for the operator page: what each resource of the run holds right now (language
// servers, the debug session, kernels, workers, diagnostics on write), the surfaces, the run's facts.
// Read every few seconds, so nothing here starts, probes or waits on anything.
import type { GlanceSection } from "../console/glance.ts";
import type { Surface, ToolRegistry } from "../tool/registry.ts";
import { connected, type RunResources } from "./resources.ts";

export function runGlance(resources: RunResources, registry: ToolRegistry, surfaces: readonly Surface[]): GlanceSection[] {
  const { conversation, questions } = resources;
  return [
    ...connected(resources).flatMap(({ resource, service }) => resource.glance?.(service, resources) ?? []),
    {
      title: "Surfaces and their tools",
      rows: surfaces.map((surface) => {
        const tools = registry.forSurface(surface).map((tool) => tool.name);
        return { name: surface.name, state: surface.tiers.join(", "), detail: tools.length ? tools.join(", ") : "no tools" };
      }),
    },
    {
      title: "Run",
      rows: [
        { name: "workdir", state: "", detail: resources.workdir },
        ...(conversation ? [{ name: "conversation", state: "", detail: conversation }] : []),
        ...(questions ? [{ name: "questions", state: questions.board ? "this page" : "harness port", detail: questions.space ? `space ${questions.space}` : "no space: ask_user is off" }] : []),
      ],
    },
  ];
}
