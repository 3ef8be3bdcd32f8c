// Doctor checks for the debugger: each catalog adapter, with the same detection the debug tool uses.
import type { DoctorGroup } from "../doctor/check.ts";
import { detectAll } from "./detect.ts";

export const debugAdapterChecks: DoctorGroup = async ({ workdir, resources, trust }) =>
  // Untrusted (the default), nothing inside the workdir is run to probe it: a cloned repository's venv is skipped.
  (await detectAll(workdir, resources?.debugAdapters?.adapters ?? {}, { workspace: trust === "workspace", workdir })).map((found) => ({
    group: "debug adapters",
    name: found.adapter,
    ok: found.usable,
    detail: found.detail,
    // No project of that language here and no adapter either: "not used here", not a failure.
    ...(!found.usable && found.marker === undefined ? { unused: true } : found.hint ? { hint: found.hint } : {}),
  }));
