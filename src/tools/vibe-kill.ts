// vibe_kill: stop a worker's whole process group (or drop it from the queue).
import * as v from "valibot";
import { defineTool } from "../tool/define.ts";
import type { WorkerRoster } from "../workers/roster.ts";
import { WORKER_STATES } from "../workers/worker-record.ts";
import description from "./vibe-kill.txt" with { type: "text" };
import { headline, workerIdInput } from "./vibe-worker-view.ts";

export function vibeKillTool(roster: WorkerRoster) {
  return defineTool({
    name: "vibe_kill",
    title: "Stop a worker",
    tier: "read",
    // Read tier so that plan mode may stop its own workers, but it ends a worker's run and its unfinished work.
    hints: { readOnly: false, destructive: true, idempotent: true },
    description,
    input: v.strictObject({ worker_id: workerIdInput }),
    output: v.object({
      worker_id: v.string(),
      state: v.picklist(WORKER_STATES),
      generation: v.number(),
      /** True when it had already finished, so nothing was stopped. */
      already_finished: v.boolean(),
    }),
    async run({ worker_id }) {
      const wasQueued = roster.get(worker_id).state === "queued";
      const { record, alreadyFinal } = await roster.kill(worker_id);
      const how = wasQueued ? "it was dropped from the queue and never started" : "its process group was stopped";
      const text = alreadyFinal
        ? `${record.id} had already finished (${alreadyFinal}); nothing was stopped. ${headline(record)}.`
        : `Killed ${record.id}: ${how}. ${headline(record)}.`;
      return {
        text,
        data: { worker_id: record.id, state: record.state, generation: record.generation, already_finished: alreadyFinal !== undefined },
      };
    },
  });
}
