// `sidecar doctor`: what this machine and checkout can serve, and how to fix what it can't.
import type { ConnectedResources } from "../config/schema.ts";
import { settle } from "../config/load.ts";
import type { DoctorGroup, DoctorRow } from "../doctor/check.ts";
import { buildReport, formatReport } from "../doctor/report.ts";
import type { RuntimePrimitives } from "../host/runtime.ts";
import { RESOURCES } from "../run/resources.ts";
import type { CliFlags } from "./args.ts";
import { effectiveConfig } from "./load-settings.ts";
import { ProbeProgress } from "./probe-progress.ts";

interface Probe {
  label: string;
  /** The config key of the resource the group's tools need; absent means the binary itself (grammars). */
  resource?: keyof ConnectedResources;
  check: DoctorGroup;
}

/** Each resource's probe, in the order the report lists them: the binary first, then the resources' order. */
const PROBES: Probe[] = RESOURCES.flatMap(({ doctor, configKey }) => (doctor ? [{ label: doctor.label, check: doctor.check, ...(doctor.always ? {} : { resource: configKey }) }] : [])).sort(
  (a, b) => Number(a.resource !== undefined) - Number(b.resource !== undefined),
);

export async function doctorCommand(flags: CliFlags, runtime: RuntimePrimitives): Promise<number> {
  // The same config `serve` would run: its workdir, its server/adapter/interpreter overrides, what it leaves out.
  const settings = settle(effectiveConfig(flags.config, flags["cache-dir"]), { workdir: flags.workdir });
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
