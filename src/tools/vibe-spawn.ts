// vibe_spawn: start a background worker on a brief; answers at once with its id.
import * as v from "valibot";
import { WORKER_GRADES } from "../config/resources/vibe.ts";
import { defineTool } from "../tool/define.ts";
import type { WorkerRoster } from "../workers/roster.ts";
import { WORKER_STATES } from "../workers/worker-record.ts";
import description from "./vibe-spawn.txt" with { type: "text" };

const MAX_LABEL_CHARS = 80;

export function vibeSpawnTool(roster: WorkerRoster) {
  return defineTool({
    name: "vibe_spawn",
    title: "Spawn a background worker",
    tier: "read",
    // Read tier so that plan mode may delegate, but it starts a worker process and uses a spawn.
    hints: { readOnly: false, destructive: false },
    description,
    input: v.strictObject({
      brief: v.pipe(
        v.string("expected the brief as a string"),
        v.trim(),
        v.minLength(1, "expected a brief saying what the worker should do"),
        v.description("Everything the worker needs: goal, files, constraints, how to report. It sees nothing of this conversation."),
      ),
      label: v.pipe(
        v.string("expected a short label as a string"),
        v.trim(),
        v.minLength(1, "expected a label of a few words"),
        v.maxLength(MAX_LABEL_CHARS, `expected a label of at most ${MAX_LABEL_CHARS} characters`),
        v.description(`A few words naming the task (at most ${MAX_LABEL_CHARS} characters), shown in vibe_list.`),
      ),
      tier: v.optional(
        v.pipe(
          v.picklist(WORKER_GRADES, `expected tier "fast" or "good"`),
          v.description("fast (the default) for mechanical work with a clear spec; good for design, judgement or review. Omitted: fast, or the run's only tier."),
        ),
      ),
    }),
    output: v.object({
      worker_id: v.string(),
      label: v.string(),
      tier: v.picklist(WORKER_GRADES),
      state: v.picklist(WORKER_STATES),
      generation: v.number(),
      spawned: v.number(),
      spawn_cap: v.number(),
    }),
    async run({ brief, label, tier: asked }, ctx) {
      // Default "fast"; a run whose harness configured only "good" gets "good" rather than a refusal.
      const tier = asked ?? (roster.grades.includes("fast") ? "fast" : roster.grades[0]!);
      const record = roster.spawn({ brief, label, grade: tier, startedBy: { surface: ctx.surface, tiers: ctx.tiers } });
      const { spawned } = roster;
      const where = record.state === "queued" ? "queued: the tier's workers are all busy; it starts when one finishes" : "running";
      return {
        text: `Spawned ${record.id} ${JSON.stringify(label)} (${tier}), ${where}. ${spawned} of ${roster.spawnCap} spawns used. Use vibe_wait("${record.id}") for its result.`,
        data: { worker_id: record.id, label, tier, state: record.state, generation: record.generation, spawned, spawn_cap: roster.spawnCap },
      };
    },
  });
}
