// The harness's switch for vibe mode: GET /harness/vibe reads it, POST sets it and announces the change.
import { readJsonBody } from "../host/json-body.ts";
import * as v from "valibot";
import type { HarnessRoute } from "../host/harness-route.ts";
import type { ToolRegistry } from "../tool/registry.ts";
import type { WorkerRoster } from "./roster.ts";

const modeBody = v.strictObject({ mode: v.picklist(["on", "off"], 'expected "mode": "on" or "off"') });

function status(roster: WorkerRoster) {
  const workers = roster.list();
  return {
    mode: roster.isOn ? "on" : "off",
    workers: workers.length,
    running: workers.filter((w) => w.state === "running").length,
    queued: workers.filter((w) => w.state === "queued").length,
  };
}

export function vibeModeRoutes(roster: WorkerRoster, registry: ToolRegistry): HarnessRoute[] {
  return [
    {
      method: "GET",
      path: "/harness/vibe",
      handle: () => Response.json(status(roster)),
    },
    {
      method: "POST",
      path: "/harness/vibe",
      async handle(request) {
        const parsed = await readJsonBody(request, modeBody, '{"mode": "on"} or {"mode": "off"}');
        if (!parsed.ok) return parsed.response;
        const changed = roster.setMode(parsed.value.mode);
        // Connected clients re-list their tools; turning the mode off stops no worker by itself.
        if (changed) registry.changed();
        return Response.json({ ...status(roster), changed });
      },
    },
  ];
}
