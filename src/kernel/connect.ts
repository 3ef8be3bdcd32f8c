// Builds the run's kernel factory from its settings, with the tool bridge when the run has one.
import type { RunSettings } from "../config/load.ts";
import type { KernelSettings } from "../config/resources/kernels.ts";
import type { Lifecycle } from "../run/lifecycle.ts";
import type { RuntimePrimitives } from "../runtime/primitives.ts";
import { bridgeClient, missingBridge } from "./bridge-client.ts";
import { KernelFactory } from "./factory.ts";

export function kernelFactory(
  settings: RunSettings,
  kernels: KernelSettings,
  runtime: RuntimePrimitives,
  lifecycle: Lifecycle,
): KernelFactory {
  const bridge = settings.resources.bridge;
  const callTool = bridge ? bridgeClient(bridge, settings.conversation) : missingBridge();
  const factory = new KernelFactory(kernels, settings.workdir, runtime.selfCommand, callTool);
  lifecycle.add("kernels", () => factory.close());
  return factory;
}
