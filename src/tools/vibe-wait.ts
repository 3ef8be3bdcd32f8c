// vibe_wait: block until a worker finishes; a timeout answers "running", never an error.
import * as v from "valibot";
import { WORKER_GRADES } from "../config/resources/vibe.ts";
import { defineTool } from "../tool/define.ts";
import type { WorkerRoster } from "../workers/roster.ts";
import { elapsedMs, isFinal, lastOutcome, WORKER_STATES } from "../workers/worker-record.ts";
import description from "./vibe-wait.txt" with { type: "text" };
import { headline, seconds, shownResult, summarize, workerIdInput } from "./vibe-worker-view.ts";

/** Fits inside the common 60-second client request timeout. */
const DEFAULT_WAIT_SECONDS = 50;
const MAX_WAIT_SECONDS = 600;
/** How often a waiting call reports progress (elapsed time and the worker's last line). */
const WAIT_PROGRESS_INTERVAL_MS = 1_000;

export function vibeWaitTool(roster: WorkerRoster) {
  return defineTool({
    name: "vibe_wait",
    title: "Wait for a worker",
    tier: "read",
    description,
    input: v.strictObject({
      worker_id: workerIdInput,
      timeout_seconds: v.optional(
        v.pipe(
          v.number("expected timeout_seconds as a number"),
          v.gtValue(0, "expected timeout_seconds above 0"),
          v.maxValue(MAX_WAIT_SECONDS, `expected timeout_seconds of at most ${MAX_WAIT_SECONDS}; call vibe_wait again to wait longer`),
          v.description(`How long to wait (default ${DEFAULT_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS}); running out is no error: the answer says the worker is still running.`),
        ),
        DEFAULT_WAIT_SECONDS,
      ),
    }),
    output: v.object({
      worker_id: v.string(),
      label: v.string(),
      tier: v.picklist(WORKER_GRADES),
      state: v.picklist(WORKER_STATES),
      generation: v.number(),
      /** False when the wait timed out and the worker is still queued or running. */
      finished: v.boolean(),
      elapsed_seconds: v.number(),
      waited_seconds: v.number(),
      last_progress: v.optional(v.string()),
      result: v.optional(v.string()),
      result_source: v.optional(v.picklist(["result file", "stdout", "none"])),
      /** The whole result (or the whole stdout when it had no result file). */
      result_file: v.optional(v.string()),
      exit_code: v.optional(v.nullable(v.number())),
      note: v.optional(v.string()),
      stderr_tail: v.optional(v.string()),
    }),
    async run({ worker_id, timeout_seconds }, ctx) {
      const started = Date.now();
      let ticks = 0;
      const report = () => {
        const record = roster.get(worker_id);
        const line = record.lastProgress ? `: ${record.lastProgress}` : "";
        ctx.progress({ progress: ++ticks, message: `${record.id} ${record.state} for ${seconds(elapsedMs(record))} s${line}` });
      };
      report();
      const heartbeat = setInterval(report, WAIT_PROGRESS_INTERVAL_MS);
      let finished: boolean;
      try {
        finished = await roster.waitUntilFinal(worker_id, timeout_seconds * 1000, ctx.signal);
      } finally {
        clearInterval(heartbeat);
      }
      const record = roster.get(worker_id);
      const waited = seconds(Date.now() - started);
      // The same fields vibe_list shows, less the result preview (the full result follows), plus the wait.
      const { last_result: _preview, ...summary } = summarize(record);
      const base = { ...summary, waited_seconds: waited };
      const outcome = lastOutcome(record);
      if (!finished || !isFinal(record.state) || !outcome) {
        const progress = record.lastProgress ? ` Last progress: ${record.lastProgress}` : " It has printed nothing yet.";
        return {
          text: `${headline(record)}. Still ${record.state} after waiting ${waited} s — not an error.${progress}\nCall vibe_wait again to keep waiting, vibe_send to steer it, or vibe_kill to stop it.`,
          data: { ...base, finished: false },
        };
      }
      const files = roster.files(record.id, outcome.generation);
      const resultFile = outcome.resultSource === "result file" ? files.result : outcome.resultSource === "stdout" ? files.stdout : undefined;
      const result = shownResult(outcome.result);
      const showStderr = outcome.state === "failed" && outcome.stderrTail.trim() !== "";
      const text = [
        `${headline(record)}.${outcome.note ? ` ${capitalize(outcome.note)}.` : ""}`,
        outcome.resultSource === "none" ? "It produced no result (no result file, nothing on stdout)." : `Result (from its ${outcome.resultSource}):\n${result}`,
        showStderr ? `stderr (last lines):\n${outcome.stderrTail.trimEnd()}` : "",
      ].filter(Boolean);
      return {
        text: text.join("\n"),
        data: {
          ...base,
          finished: true,
          ...(outcome.resultSource === "none" ? {} : { result }),
          result_source: outcome.resultSource,
          ...(resultFile ? { result_file: resultFile } : {}),
          exit_code: outcome.exitCode,
          ...(outcome.note ? { note: outcome.note } : {}),
          ...(showStderr ? { stderr_tail: outcome.stderrTail } : {}),
        },
      };
    },
  });
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
