// The kernel resource (config `kernels`, with `bridge` for the cells' tool() calls): eval.
import { connect } from "../../kernel/connect.ts";
import { kernelChecks } from "../../kernel/doctor.ts";
import type { KernelFactory } from "../../kernel/factory.ts";
import type { GlanceSection } from "../../console/glance.ts";
import { evalTool } from "../../tools/eval.ts";
import { joined, processFacts } from "./glance-text.ts";
import { defineResource } from "./resource.ts";

export const kernel = defineResource({
  name: "kernel",
  configKey: "kernels",
  // The bridge is a resource of its own in the config, but only kernels use it.
  settings: ({ kernels, bridge }) => (kernels ? { kernels, bridge } : undefined),
  connect,
  tools: (kernel) => [evalTool(kernel)],
  glance: (kernel) => [kernelSection(kernel)],
  doctor: { label: "kernels", check: kernelChecks },
});

function kernelSection(factory: KernelFactory): GlanceSection {
  const rows = factory.kernels().map((kernel) => ({
    name: kernel.language,
    state: kernel.state,
    detail: joined([
      kernel.interpreter || undefined,
      kernel.executionCount ? `${kernel.executionCount} cell${kernel.executionCount === 1 ? "" : "s"} run` : undefined,
      kernel.waiting ? `${kernel.waiting} waiting` : undefined,
      processFacts(kernel.pid),
    ]),
  }));
  return { title: "Kernels", rows, empty: "No kernel yet: eval starts one per language on first use." };
}
