// The doctor's report: each row's status, the one row that matters most, and the table a person reads.
import type { DoctorRow } from "./check.ts";

/** fail: something this checkout uses does not work; warn: a nice-to-have is missing; unused: not used here. */
type RowStatus = "ok" | "fail" | "warn" | "unused";

interface ReportRow extends DoctorRow {
  status: RowStatus;
}

export interface DoctorReport {
  workdir: string;
  /** Group by group in the order probed, each group's own order kept (an interpreter, then its libraries), what is not used here last. */
  rows: ReportRow[];
  /** The row to read first: the first failure, in the order of the groups. */
  first: ReportRow | undefined;
  counts: Record<RowStatus, number>;
}

const LABEL: Record<RowStatus, string> = { ok: "ok", fail: "FAIL", warn: "warn", unused: "-" };
const NAME_WIDTH = 22;

export function statusOf(row: DoctorRow): RowStatus {
  if (row.ok) return "ok";
  if (row.unused) return "unused";
  return row.optional ? "warn" : "fail";
}

export function buildReport(workdir: string, groups: readonly DoctorRow[][]): DoctorReport {
  const rows = groups.flatMap((group) => {
    const rows = group.map((row) => ({ ...row, status: statusOf(row) }));
    return [...rows.filter((row) => row.status !== "unused"), ...rows.filter((row) => row.status === "unused")];
  });
  const counts = { ok: 0, fail: 0, warn: 0, unused: 0 };
  for (const row of rows) counts[row.status]++;
  return { workdir, rows, first: rows.find((row) => row.status === "fail"), counts };
}

/** The table: the verdict line first, then each group; a group of all-ok grammars is one line. */
export function formatReport(report: DoctorReport): string {
  const lines = [`sidecar doctor — ${report.workdir}`, "", verdict(report)];
  if (report.first?.hint) lines.push(`  hint: ${report.first.hint}`);
  let group = "";
  for (const row of collapseGrammars(report.rows)) {
    if (row.group !== group) {
      group = row.group;
      lines.push("", group);
    }
    lines.push(...rowLines(row));
  }
  const { ok, fail, warn, unused } = report.counts;
  lines.push("", `${ok} ok, ${fail} not working, ${warn} optional missing, ${unused} not used here`);
  return `${lines.join("\n")}\n`;
}

function verdict(report: DoctorReport): string {
  const { first, counts } = report;
  if (!first) return `ok: everything this checkout uses works${counts.warn ? ` (${counts.warn} optional ${counts.warn === 1 ? "library is" : "libraries are"} missing)` : ""}.`;
  const more = counts.fail > 1 ? ` (and ${counts.fail - 1} more below)` : "";
  return `FAIL: ${first.group}: ${first.name}: ${first.detail}${more}`;
}

function rowLines(row: ReportRow): string[] {
  const detail = row.status === "unused" ? `not used here: ${row.detail}` : row.detail;
  const lines = [`  ${LABEL[row.status].padEnd(4)}  ${row.name.padEnd(NAME_WIDTH)} ${detail}`];
  if (row.hint && (row.status === "fail" || row.status === "warn")) lines.push(`        ${"".padEnd(NAME_WIDTH)} hint: ${row.hint}`);
  return lines;
}

/** Eighteen "ok" grammar lines said one thing; a grammar that fails still gets its own. */
function collapseGrammars(rows: ReportRow[]): ReportRow[] {
  const grammars = rows.filter((row) => row.group === "grammars");
  if (grammars.length < 2 || grammars.some((row) => row.status !== "ok")) return rows;
  const at = rows.indexOf(grammars[0]!);
  const summary: ReportRow = {
    group: "grammars",
    name: `${grammars.length} grammars`,
    ok: true,
    status: "ok",
    detail: `load from the binary: ${grammars.map((row) => row.name).join(", ")}`,
  };
  return [...rows.slice(0, at), summary, ...rows.slice(at).filter((row) => row.group !== "grammars")];
}
