// The worker resource (config `vibe`): the roster of background workers, vibe_* while vibe mode is on.
import type { GlanceSection } from "../../console/glance.ts";
import { vibeKillTool } from "../../tools/vibe-kill.ts";
import { vibeListTool } from "../../tools/vibe-list.ts";
import { vibeSendTool } from "../../tools/vibe-send.ts";
import { vibeSpawnTool } from "../../tools/vibe-spawn.ts";
import { vibeWaitTool } from "../../tools/vibe-wait.ts";
import { connect } from "../../workers/connect.ts";
import { workerChecks } from "../../workers/doctor.ts";
import { lastOutcome, type WorkerRecord } from "../../workers/worker-record.ts";
import { vibeModeRoutes } from "../../workers/mode-route.ts";
import { cut, joined } from "./glance-text.ts";
import { defineResource } from "./resource.ts";

export const workers = defineResource({
  name: "workers",
  configKey: "vibe",
  settings: (resources) => resources.vibe,
  connect,
  tools: (roster) => [vibeSpawnTool(roster), vibeSendTool(roster), vibeWaitTool(roster), vibeKillTool(roster), vibeListTool(roster)],
  // Vibe mode is switched during the run (POST /harness/vibe); tools/list asks again each time.
  listed: (roster) => roster.isOn,
  toolsNeed: "vibe tools appear only while vibe mode is on",
  routes: (roster, { registry }) => vibeModeRoutes(roster, registry),
  glance: (roster) => [workerSection(roster.list())],
  doctor: { label: "workers", check: workerChecks },
});

function workerSection(records: WorkerRecord[]): GlanceSection {
  const rows = records.map((record) => {
    const outcome = lastOutcome(record);
    const running = record.state === "running" || record.state === "queued";
    return {
      name: `${record.id} ${record.label}`.trim(),
      state: record.state,
      detail: joined([
        `${record.grade}, generation ${record.generation}`,
        running && record.lastProgress ? `now: ${cut(record.lastProgress)}` : undefined,
        !running && outcome?.result ? `result: ${cut(outcome.result)}` : undefined,
        !running && outcome?.note ? outcome.note : undefined,
      ]),
    };
  });
  return { title: "Workers", rows, empty: "No worker spawned yet (vibe_spawn)." };
}
