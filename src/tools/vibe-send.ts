// vibe_send: append a message to a worker's brief and re-run it as its next generation.
import * as v from "valibot";
import { defineTool } from "../tool/define.ts";
import type { WorkerRoster } from "../workers/roster.ts";
import { WORKER_STATES } from "../workers/worker-record.ts";
import description from "./vibe-send.txt" with { type: "text" };
import { workerIdInput } from "./vibe-worker-view.ts";

export function vibeSendTool(roster: WorkerRoster) {
  return defineTool({
    name: "vibe_send",
    title: "Steer a worker",
    tier: "read",
    // Read tier so that plan mode may steer, but it stops a running worker and starts its next run.
    hints: { readOnly: false, destructive: true },
    description,
    input: v.strictObject({
      worker_id: workerIdInput,
      message: v.pipe(
        v.string("expected the message as a string"),
        v.trim(),
        v.minLength(1, "expected a message for the worker"),
        v.description("Appended to the worker's brief; the worker then runs again as a new generation (a running one is stopped first)."),
      ),
    }),
    output: v.object({
      worker_id: v.string(),
      generation: v.number(),
      state: v.picklist(WORKER_STATES),
      /** Finished generations kept in its history. */
      history_length: v.number(),
    }),
    async run({ worker_id, message }, ctx) {
      const before = roster.get(worker_id);
      const record = await roster.send(worker_id, message, { surface: ctx.surface, tiers: ctx.tiers });
      const was = before.state === "running" ? "It was running and was stopped first; " : "";
      const now = record.state === "queued" ? "it is queued and starts when a slot frees" : "it is running again";
      return {
        text: `${was}${record.id} now runs generation ${record.generation} with your message appended to its brief; ${now}. Earlier results are kept (${record.history.length} in its history). Use vibe_wait("${record.id}") for the new result.`,
        data: { worker_id: record.id, generation: record.generation, state: record.state, history_length: record.history.length },
      };
    },
  });
}
