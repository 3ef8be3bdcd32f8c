// The run at a glance for the operator page: each domain adds one section when the run has it.
import type { GlanceSection } from "../questions/page/page-routes.ts";
import type { Surface, ToolRegistry } from "../tool/registry.ts";
import type { RunResources } from "../tools/run-resources.ts";

export function runGlance(services: RunResources, registry: ToolRegistry, surfaces: readonly Surface[]): GlanceSection[] {
  return [
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
        { name: "workdir", state: "", detail: services.workdir },
        ...(services.conversation ? [{ name: "conversation", state: "", detail: services.conversation }] : []),
        ...(services.questions ? [{ name: "questions", state: services.questions.board ? "this page" : "harness port", detail: services.questions.space ? `space ${services.questions.space}` : "no space: ask_user is off" }] : []),
      ],
    },
    // Language servers, the debug session, kernels and workers add their sections here.
  ];
}
