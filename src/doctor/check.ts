// The shape of a doctor check: each domain reports rows saying what works here and how to fix what doesn't.
import type { ConnectedResources, WorkspaceTrust } from "../config/schema.ts";
import type { RuntimePrimitives } from "../host/runtime.ts";

export interface DoctorRow {
  group: string;
  name: string;
  ok: boolean;
  detail: string;
  /** How to make it work, when it does not. */
  hint?: string;
  /** This checkout does not use it (no root marker of that language): "not used here", not a failure. */
  unused?: boolean;
  /** A nice-to-have (a Python library eval renders specially): missing is a warning, not a failure. */
  optional?: boolean;
}

interface DoctorContext {
  workdir: string;
  runtime: RuntimePrimitives;
  /** The run's resources (a --config's, or the embedded defaults): overrides the checks honour. */
  resources?: ConnectedResources;
  /** The config's trust: an untrusted workspace's own binaries are reported as skipped. */
  trust?: WorkspaceTrust;
}

/** Each domain contributes one group of checks. */
export type DoctorGroup = (ctx: DoctorContext) => Promise<DoctorRow[]>;
