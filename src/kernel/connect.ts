// The kernel domain's entry: the run's kernel factory, with the tool bridge when the run has one.
import type { BridgeSettings } from "../config/resources/bridge.ts";
import type { KernelSettings } from "../config/resources/kernels.ts";
import type { Connect } from "../host/connect-context.ts";
import { programTrust } from "../platform/executables.ts";
import { bridgeClient, missingBridge } from "./bridge-client.ts";
import { KernelFactory } from "./factory.ts";
import { NotebookRecord } from "./notebook-record.ts";

/** The kernels resource, and the bridge their cells' `tool()` calls go through (a resource of its own). */
interface KernelResources {
  kernels: KernelSettings;
  bridge: BridgeSettings | undefined;
}

export const connect: Connect<KernelResources, KernelFactory> = ({ kernels, bridge }, ctx) => {
  const callTool = bridge ? bridgeClient(bridge, ctx.conversation) : missingBridge();
  // What the cells ran is kept as notebooks a person can open, when the run has a place for state.
  const record = ctx.stateDir === undefined ? undefined : new NotebookRecord(ctx.stateDir, (text) => process.stderr.write(`sidecar: ${text}\n`));
  const factory = new KernelFactory(kernels, ctx.workdir, programTrust(ctx.trust, ctx.workdir), ctx.runtime.selfCommand, callTool, record);
  ctx.lifecycle.add("kernels", () => factory.close());
  return factory;
};
