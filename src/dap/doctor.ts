// Doctor checks for the debugger: each catalog adapter, with the same detection the debug tool uses.
import type { DoctorGroup } from "../doctor/check.ts";
import { detectAll } from "./detect.ts";

export const debugAdapterChecks: DoctorGroup = async ({ workdir, resources }) =>
  (await detectAll(workdir, resources?.debugAdapters?.adapters ?? {})).map((found) => ({
    group: "debug adapters",
    name: found.adapter,
    ok: found.usable,
    detail: found.detail,
    // No root marker: this checkout has no such project, so the adapter is not used here.
    ...(!found.usable && found.root === undefined && found.detail.startsWith("no root marker") ? { unused: true } : found.hint ? { hint: found.hint } : {}),
  }));
