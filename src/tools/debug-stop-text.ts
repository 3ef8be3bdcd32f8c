// A stop report as the model reads it: one line of where (or that the program runs, exited or
// ended), the source line, then the output and what was left out of it.
import { exitSentence } from "../dap/exit-words.ts";
import type { StopReport } from "../dap/stop-report.ts";
import { shownPath } from "../workspace/shown-path.ts";

/** The report as the model reads it: one line of where, the source line, then the output. */
export function stopReportText(report: StopReport): string {
  const lines: string[] = [];
  switch (report.state) {
    case "running":
      lines.push(
        report.waited_ms === undefined
          ? "The program is running; call pause to stop it where it is."
          : `Still running after ${report.waited_ms} ms; call pause to stop it, or status to check again.`,
      );
      break;
    case "exited":
      lines.push(
        exitSentence({
          ...(report.exit_code !== undefined ? { exitCode: report.exit_code } : {}),
          ...(report.signal_number !== undefined ? { signal: { number: report.signal_number, certain: report.signal_certain === true } } : {}),
        }),
      );
      break;
    case "ended":
      lines.push(`The debug session ended: ${report.description}.`);
      break;
    case "stopped": {
      const where = report.frame?.file ? `${shownPath(report.frame.file)}:${report.frame.line} in ${report.frame.name}` : report.frame?.name ?? "an unknown place";
      const thread = report.thread ? ` (thread ${report.thread.id}${report.thread.name ? ` ${report.thread.name}` : ""})` : "";
      lines.push(`Stopped (${report.reason}) at ${where}${thread}${processWords(report)}; frame id ${report.frame?.id ?? "?"}.`);
      if (report.exception) lines.push(`Exception: ${report.exception}`);
      else if (report.description && report.description !== report.reason) lines.push(report.description);
      if (report.frame?.source !== undefined) lines.push(`  ${report.frame.line} | ${report.frame.source}`);
      break;
    }
  }
  if (report.process && report.state !== "stopped") lines.push(`(about the ${report.process.role} process${report.process.pid !== undefined ? ` ${report.process.pid}` : ""})`);
  for (const event of report.process_events ?? []) lines.push(`Meanwhile: ${event}.`);
  if (report.output) lines.push(`Output since the last report:\n${report.output.replace(/\n$/, "")}`);
  if (report.output_dropped) lines.push(`(${report.output_dropped} characters of output were dropped; the buffer is bounded)`);
  if (report.output_cut) {
    const { from, to } = report.output_cut;
    lines.push(`(characters ${from}–${to} of the output, ${to - from} in all, were left out of this report; output with offset ${from} returns them)`);
  }
  if (report.output_incomplete) lines.push("(output may still be arriving: it was still coming when this report was made; call output for the rest)");
  return lines.join("\n");
}

/** " in child process 1234": which process stopped, when children are debugged; later calls act on it. */
function processWords(report: StopReport): string {
  if (!report.process) return "";
  return ` in the ${report.process.role} process${report.process.pid !== undefined ? ` ${report.process.pid}` : ""}`;
}
