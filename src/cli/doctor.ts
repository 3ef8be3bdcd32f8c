// `sidecar doctor`: what this machine and checkout can serve, and how to fix what it can't.
import type { ConnectedResources } from "../config/schema.ts";
import { settle } from "../config/load.ts";
import type { DoctorGroup, DoctorRow } from "../doctor/check.ts";
import { buildReport, formatReport } from "../doctor/report.ts";
import type { RuntimePrimitives } from "../host/runtime.ts";
import { debugAdapterChecks } from "../dap/doctor.ts";
import { kernelChecks } from "../kernel/doctor.ts";
import { languageServerChecks } from "../lsp/doctor.ts";
import { grammarChecks } from "../syntax/doctor.ts";
import { workerChecks } from "../workers/doctor.ts";
import type { CliFlags } from "./args.ts";
import { effectiveConfig } from "./load-settings.ts";
import { ProbeProgress } from "./probe-progress.ts";

interface Probe {
  label: string;
  /** The resource the group's tools need; absent means the binary itself (grammars). */
  resource?: keyof ConnectedResources;
  check: DoctorGroup;
}

/** In the order the report lists them: the binary first, then what an agent calls most. */
const PROBES: Probe[] = [
  { label: "grammars", check: grammarChecks },
  { label: "language servers", resource: "languageServers", check: languageServerChecks },
  { label: "debug adapters", resource: "debugAdapters", check: debugAdapterChecks },
  { label: "kernels", resource: "kernels", check: kernelChecks },
  { label: "workers", resource: "vibe", check: workerChecks },
];

export async function doctorCommand(flags: CliFlags, runtime: RuntimePrimitives): Promise<number> {
  // The same config `serve` would run: its workdir, its server/adapter/interpreter overrides, what it leaves out.
  const settings = settle(effectiveConfig(flags.config), { workdir: flags.workdir });
  const progress = new ProbeProgress(process.stderr, PROBES.map((p) => p.label));
  const groups = await Promise.all(
    PROBES.map(async ({ label, resource, check }) => {
      const rows = resource && !settings.resources[resource] ? [leftOut(label, resource, flags.config)] : await check({ workdir: settings.workdir, runtime, resources: settings.resources, trust: settings.trust });
      progress.done(label);
      return rows;
    }),
  );
  progress.end();
  const report = buildReport(settings.workdir, groups);
  process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.rows.some((r) => r.status === "fail" && r.group === "grammars") ? 1 : 0;
}

function leftOut(group: string, resource: string, config: string | undefined): DoctorRow {
  const why = config ? `${config} has no resources.${resource}` : `the embedded defaults have no resources.${resource}`;
  return { group, name: resource, ok: false, unused: true, detail: `${why}, so this run has none of its tools` };
}
