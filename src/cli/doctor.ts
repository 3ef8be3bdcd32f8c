// `sidecar doctor`: what this machine and checkout can serve, and how to fix what it can't.
import { resolveWorkdir } from "../config/load.ts";
import type { DoctorGroup } from "../doctor/check.ts";
import type { RuntimePrimitives } from "../runtime/primitives.ts";
import { debugAdapterChecks } from "../dap/doctor.ts";
import { kernelChecks } from "../kernel/doctor.ts";
import { languageServerChecks } from "../lsp/doctor.ts";
import { grammarChecks } from "../syntax/doctor.ts";
import { workerChecks } from "../workers/doctor.ts";
import type { CliFlags } from "./args.ts";

const GROUPS: DoctorGroup[] = [grammarChecks, languageServerChecks, debugAdapterChecks, kernelChecks, workerChecks];

export async function doctorCommand(flags: CliFlags, runtime: RuntimePrimitives): Promise<number> {
  const workdir = resolveWorkdir(flags.workdir ?? process.cwd(), process.cwd());
  const rows = (await Promise.all(GROUPS.map((group) => group({ workdir, runtime })))).flat();
  process.stdout.write(`sidecar doctor — ${workdir}\n`);
  let group = "";
  for (const row of rows) {
    if (row.group !== group) {
      group = row.group;
      process.stdout.write(`\n${group}\n`);
    }
    process.stdout.write(`  ${row.ok ? "ok  " : "FAIL"}  ${row.name.padEnd(22)} ${row.detail}\n`);
    if (!row.ok && row.hint) process.stdout.write(`        ${"".padEnd(22)} hint: ${row.hint}\n`);
  }
  const failed = rows.filter((r) => !r.ok).length;
  process.stdout.write(`\n${rows.length - failed} ok, ${failed} not usable\n`);
  return rows.some((r) => !r.ok && r.group === "grammars") ? 1 : 0;
}
