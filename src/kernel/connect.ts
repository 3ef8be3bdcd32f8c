// The kernel domain's entry: the run's kernel factory, with the tool bridge when the run has one.
import type { BridgeSettings } from "../config/resources/bridge.ts";
import type { KernelSettings } from "../config/resources/kernels.ts";
import type { Connect } from "../host/connect-context.ts";
import { bridgeClient, missingBridge } from "./bridge-client.ts";
import { KernelFactory } from "./factory.ts";

/** The kernels resource, and the bridge their cells' `tool()` calls go through (a resource of its own). */
export interface KernelResources {
  kernels: KernelSettings;
  bridge: BridgeSettings | undefined;
}

export const connect: Connect<KernelResources, KernelFactory> = ({ kernels, bridge }, ctx) => {
  const callTool = bridge ? bridgeClient(bridge, ctx.conversation) : missingBridge();
  const factory = new KernelFactory(kernels, ctx.workdir, ctx.runtime.selfCommand, callTool);
  ctx.lifecycle.add("kernels", () => factory.close());
  return factory;
};
