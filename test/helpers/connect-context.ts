// A domain's connect context for tests that connect one domain directly (Bun primitives, untrusted).
import type { ConnectContext } from "../../src/host/connect-context.ts";
import { Lifecycle } from "../../src/host/lifecycle.ts";
import { bunPrimitives } from "../../src/runtime/bun.ts";

export function testConnectContext(workdir: string, overrides: Partial<ConnectContext> = {}): ConnectContext {
  return { workdir, conversation: undefined, stateDir: undefined, trust: "none", runtime: bunPrimitives, lifecycle: new Lifecycle(), ...overrides };
}
