// vibe_list: every worker of the run with its state, elapsed time, progress and last result.
import * as v from "valibot";
import { capList } from "../tool/budget.ts";
import { defineTool } from "../tool/define.ts";
import type { WorkerRoster } from "../workers/roster.ts";
import { lastOutcome, type WorkerRecord } from "../workers/worker-record.ts";
import description from "./vibe-list.txt" with { type: "text" };
import { headline, summarize, workerSummary } from "./vibe-worker-view.ts";

/** Workers listed per call, newest first beyond it; the rest are counted. */
const MAX_WORKERS_LISTED = 50;

export function vibeListTool(roster: WorkerRoster) {
  return defineTool({
    name: "vibe_list",
    title: "List workers",
    tier: "read",
    description,
    input: v.strictObject({}),
    output: v.object({
      workers: v.array(workerSummary),
      shown: v.number(),
      total: v.number(),
      spawn_cap: v.number(),
      note: v.optional(v.string()),
    }),
    async run() {
      const all = roster.list();
      // The newest workers matter most when the list is long; the answer says how many are left out.
      const capped = capList([...all].reverse(), MAX_WORKERS_LISTED);
      const shown = capped.items.reverse();
      const lines = shown.map((record) => {
        const summary = summarize(record);
        const extra = [
          summary.last_progress && record.state === "running" ? `   progress: ${summary.last_progress}` : "",
          summary.last_result ? `   ${resultLabel(record)}: ${summary.last_result.replaceAll("\n", "\n      ")}` : "",
        ].filter(Boolean);
        return [`- ${headline(record)}`, ...extra].join("\n");
      });
      const header = all.length === 0
        ? "No workers yet; start one with vibe_spawn."
        : `${all.length} worker(s), ${all.length} of ${roster.spawnCap} spawns used${capped.note ? `; ${capped.note} (the newest)` : ""}:`;
      return {
        text: [header, ...lines].join("\n"),
        data: {
          workers: shown.map(summarize),
          shown: capped.shown,
          total: capped.total,
          spawn_cap: roster.spawnCap,
          ...(capped.note ? { note: `${capped.note}, newest first kept` } : {}),
        },
      };
    },
  });
}

/** "last result", naming its generation when it is an earlier one than the worker now runs. */
function resultLabel(record: WorkerRecord): string {
  const last = lastOutcome(record);
  return last && last.generation !== record.generation ? `last result (generation ${last.generation}, ${last.state})` : "last result";
}
