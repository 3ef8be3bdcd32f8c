// Doctor checks for the debugger: each catalog adapter, with the same detection the debug tool uses.
import type { DoctorGroup } from "../doctor/check.ts";
import { detectAll } from "./detect.ts";

export const debugAdapterChecks: DoctorGroup = async ({ workdir }) =>
  (await detectAll(workdir, {})).map((found) => ({
    group: "debug adapters",
    name: found.adapter,
    ok: found.usable,
    detail: found.detail,
    ...(found.hint ? { hint: found.hint } : {}),
  }));
