// Turns a finished cell into what the model reads: a status line, output in order, images apart.
import type { ImageBlock } from "../tool/define.ts";
import { capText } from "../tool/budget.ts";
import type { CellReport } from "../kernel/factory.ts";
import { MAX_DISPLAYS } from "../kernel/cell-output.ts";
import type { CellEnding } from "../kernel/kernel-process.ts";

/** Text output is bounded (head + tail kept); image data never is. */
const CELL_TEXT_MAX_BYTES = 40_000;

export type CellStatus = "ok" | "error" | "interrupted" | "timed_out" | "cancelled" | "died";

interface RenderedCell {
  text: string;
  images: ImageBlock[];
  status: CellStatus;
  stopped?: "interrupted" | "killed";
  cutBytes: number;
}

export function renderCell(report: CellReport, label: string): RenderedCell {
  const { outcome } = report;
  const images: ImageBlock[] = [];
  const body: string[] = [];
  for (const item of outcome.output.items) {
    if (item.kind === "stream") body.push(item.text);
    else if (item.kind === "error") body.push(ensureNewline(item.traceback || `${item.ename}: ${item.evalue}`));
    else {
      const prefix = item.result ? `Out[${outcome.count}]: ` : "";
      const png = item.data["image/png"];
      if (png !== undefined) {
        images.push({ data: png, mimeType: "image/png" });
        body.push(`${prefix}[image ${images.length}: ${pngSize(png)} PNG, attached below]\n`);
      } else {
        const shown = item.data["text/markdown"] ?? item.data["text/plain"] ?? "";
        body.push(ensureNewline(prefix + (item.result && shown.includes("\n") && prefix ? `\n${shown}` : shown)));
      }
    }
  }
  const { droppedBytes, droppedDisplays } = outcome.output;
  if (droppedDisplays > 0) body.push(`(${droppedDisplays} more displays not shown: ${MAX_DISPLAYS} of ${MAX_DISPLAYS + droppedDisplays} shown)\n`);
  const ending = endingLine(outcome.ending, report.language);
  if (ending) body.push(ensureNewline(ending));
  const capped = capText(body.join(""), CELL_TEXT_MAX_BYTES);
  // Bytes dropped while the output arrived were cut from the same middle; count them in.
  const cutBytes = capped.cutBytes + droppedBytes;
  if (droppedBytes > 0) capped.text = capped.text.replace(`… ${capped.cutBytes} bytes cut …`, `… ${cutBytes} bytes cut …`);
  const status = statusOf(outcome.ending);
  const elapsed = outcome.elapsedMs < 10_000 ? `${Math.round(outcome.elapsedMs)} ms` : `${(outcome.elapsedMs / 1000).toFixed(1)} s`;
  const header = `${label}\n[${report.language} · In [${outcome.count}] · ${status} · ${elapsed} · ${report.interpreter} ${report.where}]`;
  const notes = report.notes.map((note) => `Note: ${note}\n`).join("");
  const text = [header, notes + capped.text].filter((part) => part.trim() !== "").join("\n");
  return {
    text: text.trimEnd(),
    images,
    status,
    ...("stopped" in outcome.ending ? { stopped: outcome.ending.stopped } : {}),
    cutBytes,
  };
}

function statusOf(ending: CellEnding): CellStatus {
  return ending.kind === "finished" ? ending.status : ending.kind;
}

function endingLine(ending: CellEnding, language: string): string | undefined {
  const lost = `Its state (variables, imports, loaded data) was lost; the next call starts a fresh ${language} kernel.`;
  switch (ending.kind) {
    case "finished":
      return undefined;
    case "timed_out":
      return ending.stopped === "interrupted"
        ? `Stopped: no output for ${ending.idleSeconds} s (the cell's inactivity budget), so the cell was interrupted with SIGINT. The kernel and its state survive.`
        : `Stopped: no output for ${ending.idleSeconds} s (the cell's inactivity budget); SIGINT did not stop it, so the kernel's process group was killed. ${lost}`;
    case "cancelled":
      return ending.stopped === "interrupted"
        ? "Cancelled: the call was cancelled, so the cell was interrupted with SIGINT. The kernel and its state survive."
        : `Cancelled: the call was cancelled and SIGINT did not stop the cell, so the kernel's process group was killed. ${lost}`;
    case "died":
      return `The ${language} kernel died during this cell: it ${ending.exit}. ${lost}`;
  }
}

function ensureNewline(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}

/** "640×480" from a base64 PNG's IHDR chunk, or "unknown size". */
export function pngSize(base64: string): string {
  const head = Buffer.from(base64.slice(0, 44), "base64");
  if (head.length < 24 || head.toString("latin1", 12, 16) !== "IHDR") return "unknown size";
  return `${head.readUInt32BE(16)}×${head.readUInt32BE(20)}`;
}
