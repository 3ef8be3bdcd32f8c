// How a worker reads in vibe_* results: one shared output shape and wording for all five tools.
import * as v from "valibot";
import { WORKER_GRADES } from "../config/resources/vibe.ts";
import { capText, capValue } from "../tool/budget.ts";
import { elapsedMs, lastOutcome, WORKER_STATES, type WorkerRecord } from "../workers/worker-record.ts";

/** Lines of the last result vibe_list shows per worker. */
const PREVIEW_LINES = 3;
const PREVIEW_CHARS = 300;
/** The result vibe_wait shows; the whole result stays on disk at result_file. */
const RESULT_SHOWN_BYTES = 8 * 1024;

export const workerIdInput = v.pipe(
  v.string("expected the worker id as a string, e.g. \"w1\""),
  v.regex(/^\s*\S+\s*$/, 'expected a worker id like "w1" (vibe_list shows them)'),
  v.description('The worker\'s id, as vibe_spawn answered it ("w1"); vibe_list shows them all.'),
);

export const workerSummary = v.object({
  worker_id: v.string(),
  label: v.string(),
  tier: v.picklist(WORKER_GRADES),
  state: v.picklist(WORKER_STATES),
  generation: v.number(),
  elapsed_seconds: v.number(),
  last_progress: v.optional(v.string()),
  /** The first lines of the newest finished generation's result. */
  last_result: v.optional(v.string()),
});
type WorkerSummary = v.InferInput<typeof workerSummary>;

export function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

export function summarize(record: WorkerRecord): WorkerSummary {
  const last = lastOutcome(record);
  const preview = last ? resultPreview(last.result || (last.note ?? "")) : undefined;
  return {
    worker_id: record.id,
    label: record.label,
    tier: record.grade,
    state: record.state,
    generation: record.generation,
    elapsed_seconds: seconds(elapsedMs(record)),
    ...(record.lastProgress ? { last_progress: record.lastProgress } : {}),
    ...(preview ? { last_result: preview } : {}),
  };
}

function resultPreview(result: string): string | undefined {
  const lines = result.split("\n").filter((line) => line.trim() !== "");
  if (lines.length === 0) return undefined;
  const shown = lines.slice(0, PREVIEW_LINES).join("\n");
  const more = lines.length > PREVIEW_LINES ? `\n… (${PREVIEW_LINES} of ${lines.length} lines shown)` : "";
  return capValue(shown, PREVIEW_CHARS) + more;
}

/** `w1 "fix tests" (fast, generation 2): running for 12.5 s` */
export function headline(record: WorkerRecord): string {
  const time = seconds(elapsedMs(record));
  const how = record.state === "queued" ? `queued for ${time} s` : record.state === "running" ? `running for ${time} s` : `${record.state} after ${time} s`;
  return `${record.id} ${JSON.stringify(record.label)} (${record.grade}, generation ${record.generation}): ${how}`;
}

/** The newest result, bounded, with where the whole of it is. */
export function shownResult(result: string): string {
  return capText(result, RESULT_SHOWN_BYTES).text;
}
