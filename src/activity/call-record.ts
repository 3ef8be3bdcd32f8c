// Every tool call of the run, as it ends: a line in `<stateDir>/calls.jsonl` (when the run has a
// stateDir), an entry in the recent calls the operator page shows, and a debug event in the log.
// Nothing here makes a call wait: the file is written in the background.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LineFile } from "../log/line-file.ts";
import type { RunLog } from "../log/log.ts";
import { callEntry, cutStrings, type CallEntry } from "./call-entry.ts";
import type { CallReport, CallStart } from "./call-report.ts";
import { DETAIL_STRING_CHARS, RecentCalls } from "./recent-calls.ts";
import { RunningCalls } from "./running-calls.ts";

export const CALL_RECORD_FILE = "calls.jsonl";
/** Past this size calls.jsonl becomes calls.jsonl.1 (replacing the older one) and a new file begins. */
const CALL_RECORD_ROTATE_BYTES = 16 * 2 ** 20;

export class CallRecord {
  /** Tells this run's lines from another's in a shared stateDir. */
  readonly run = randomBytes(4).toString("hex");
  readonly recent = new RecentCalls();
  readonly running = new RunningCalls();
  private readonly file: LineFile | undefined;
  private count = 0;

  constructor(
    stateDir: string | undefined,
    private readonly log: RunLog,
  ) {
    this.file = stateDir === undefined ? undefined : openRecord(stateDir, log);
  }

  /** Where the record is written, if anywhere. */
  get path(): string | undefined {
    return this.file?.path;
  }

  callStarted(start: CallStart): void {
    this.running.started(start);
  }

  callEnded(report: CallReport): void {
    this.running.ended(report.start);
    const id = ++this.count;
    const entry = callEntry(this.run, id, report);
    this.file?.append(JSON.stringify(entry));
    const shown = { ...entry, arguments: cutStrings(report.arguments, DETAIL_STRING_CHARS, 0) };
    const text = report.result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
    const images = report.result.content.flatMap((block) => (block.type === "image" ? [{ mimeType: block.mimeType, data: block.data }] : []));
    this.recent.add(shown, text, images);
    this.log.debug("call", describeCall(entry), { ...entry, arguments: undefined });
  }

  /** Writes what is queued; the run closes this last, after its calls ended. */
  async close(): Promise<void> {
    await this.file?.close();
  }
}

function openRecord(stateDir: string, log: RunLog): LineFile | undefined {
  try {
    mkdirSync(stateDir, { recursive: true });
    // A stateDir inside the checkout must stay out of git status, searches and rewrites.
    // Exclusive create: an existing file, or a symlink the checkout put there, is left alone.
    const ignore = join(stateDir, ".gitignore");
    if (!existsSync(ignore)) writeFileSync(ignore, "# sidecar's per-run state: never part of the checkout\n*\n", { flag: "wx" });
    return new LineFile(join(stateDir, CALL_RECORD_FILE), {
      rotateBytes: CALL_RECORD_ROTATE_BYTES,
      droppedLine: (count) => JSON.stringify({ dropped: count, note: "calls not recorded: the disk was too slow" }),
      onError: (error) => log.warn("record.failed", `The call record ${join(stateDir, CALL_RECORD_FILE)} cannot be written (${error.message}); calls are no longer recorded.`),
    });
  } catch (error) {
    log.warn("record.failed", `The call record cannot be kept in ${stateDir} (${(error as Error).message}); calls are not recorded in this run.`);
    return undefined;
  }
}

/** `lsp (default): ok in 120 ms, 2.1 KB` */
function describeCall(entry: CallEntry): string {
  const outcome = entry.outcome === "error" ? `error ${entry.code ?? ""}`.trim() : entry.outcome;
  const size = entry.answer_bytes >= 1024 ? `${(entry.answer_bytes / 1024).toFixed(1)} KB` : `${entry.answer_bytes} B`;
  const files = entry.files ? `, wrote ${entry.files.join(", ")}` : "";
  return `call ${entry.id}: ${entry.tool} (${entry.surface}): ${outcome} in ${entry.duration_ms} ms, ${size}${files}`;
}
