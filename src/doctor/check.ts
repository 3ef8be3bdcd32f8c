// The shape of a doctor check: each domain reports rows saying what works here and how to fix what doesn't.
import type { RuntimePrimitives } from "../runtime/primitives.ts";

export interface DoctorRow {
  group: string;
  name: string;
  ok: boolean;
  detail: string;
  /** How to make it work, when it does not. */
  hint?: string;
}

export interface DoctorContext {
  workdir: string;
  runtime: RuntimePrimitives;
}

/** Each domain contributes one group of checks. */
export type DoctorGroup = (ctx: DoctorContext) => Promise<DoctorRow[]>;
