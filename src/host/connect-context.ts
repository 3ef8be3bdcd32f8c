// What a run hands each domain's `connect(settings, ctx)`: the facts of the run and the means to
// tie the domain's service to it. Every domain connects the same way (`src/<domain>/connect.ts`).
import type { WorkspaceTrust } from "../config/schema.ts";
import type { Lifecycle } from "./lifecycle.ts";
import type { RuntimePrimitives } from "./runtime.ts";

export interface ConnectContext {
  /** The checkout's real path; every path a tool takes stays inside it. */
  workdir: string;
  /** The conversation this run serves, when the harness named one. */
  conversation: string | undefined;
  /** Where per-run state is kept, when the config names a place (else each domain picks a temp dir). */
  stateDir: string | undefined;
  /** Whether what the checkout chose may run; "none" unless the harness's user trusts it. */
  trust: WorkspaceTrust;
  runtime: RuntimePrimitives;
  /** The service registers how it is closed; the run closes everything newest first. */
  lifecycle: Lifecycle;
}

/** A domain's entry: its resource's settings and the run's context in, its service out. */
export type Connect<Settings, Service> = (settings: Settings, ctx: ConnectContext) => Service;
