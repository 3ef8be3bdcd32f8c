// The harness's switch for vibe mode: GET /harness/vibe reads it, POST sets it and announces the change.
import * as v from "valibot";
import type { HarnessRoute } from "../http/app.ts";
import type { ToolRegistry } from "../tool/registry.ts";
import type { WorkerRoster } from "../workers/roster.ts";

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
        let body: unknown;
        try {
          body = await request.json();
        } catch {
          return Response.json({ error: 'The body is not JSON; send {"mode": "on"} or {"mode": "off"}.' }, { status: 400 });
        }
        const parsed = v.safeParse(modeBody, body);
        if (!parsed.success) {
          return Response.json({ error: `Invalid body: ${parsed.issues[0].message}; send {"mode": "on"} or {"mode": "off"}.` }, { status: 400 });
        }
        const changed = roster.setMode(parsed.output.mode);
        // Connected clients re-list their tools; turning the mode off stops no worker by itself.
        if (changed) registry.changed();
        return Response.json({ ...status(roster), changed });
      },
    },
  ];
}
