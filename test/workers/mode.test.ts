// Vibe mode switched by the harness during the run: the tool set follows, clients hear tools/list_changed.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { ok } from "../helpers/call.ts";
import { until } from "../helpers/until.ts";
import { vibeConfig } from "./helpers.ts";

const VIBE_TOOLS = ["vibe_kill", "vibe_list", "vibe_send", "vibe_spawn", "vibe_wait"];

function switchMode(t: TestRun, body: unknown, token = t.run.surfaces.default) {
  return t.fetch("/harness/vibe", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function toolNames(t: TestRun, surface = "default"): Promise<string[]> {
  return (await (await t.client(surface)).listTools()).tools.map((tool) => tool.name).sort();
}

describe("switching vibe mode during the run", () => {
  test("off removes the five tools and on restores them, each announced by tools/list_changed; workers keep running", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    const client = await t.client();
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notified++;
    });
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(VIBE_TOOLS);
    await ok(client, "vibe_spawn", { brief: "long.sh", label: "outlives the switch" });
    await until("a progress line", async () => (await ok(client, "vibe_list")).workers[0].last_progress);

    const off = await switchMode(t, { mode: "off" });
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ mode: "off", changed: true, workers: 1, running: 1, queued: 0 });
    await until("tools/list_changed after off", () => notified >= 1);
    expect((await client.listTools()).tools).toEqual([]);
    const refused = await client.callTool({ name: "vibe_list", arguments: {} }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(ErrorCode.InvalidParams);

    const status = await t.fetch("/harness/vibe", { headers: { Authorization: `Bearer ${t.run.surfaces.default}` } });
    expect(await status.json()).toMatchObject({ mode: "off", running: 1 });
    expect(await (await switchMode(t, { mode: "off" })).json()).toMatchObject({ mode: "off", changed: false });

    expect(await (await switchMode(t, { mode: "on" })).json()).toMatchObject({ mode: "on", changed: true });
    await until("tools/list_changed after on", () => notified >= 2);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(VIBE_TOOLS);
    expect((await ok(client, "vibe_list")).workers[0]).toMatchObject({ worker_id: "w1", state: "running" });
    await Bun.write(join(dir.path, "release-w1"), "");
    expect((await ok(client, "vibe_wait", { worker_id: "w1" })).state).toBe("done");
  });

  test('mode "off" in the run config starts without the tools; every surface gets them once on (they are tier read)', async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig({}, { mode: "off" }));
    expect(await toolNames(t)).toEqual([]);
    expect((await switchMode(t, { mode: "on" })).status).toBe(200);
    expect(await toolNames(t, "plan")).toEqual(VIBE_TOOLS);
  });
});

describe("the /harness/vibe route", () => {
  test("needs the default surface's token and a valid body", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, vibeConfig());
    expect((await switchMode(t, { mode: "off" }, "")).status).toBe(401);
    expect((await switchMode(t, { mode: "off" }, t.run.surfaces.plan)).status).toBe(401);
    const notJson = await switchMode(t, "off please");
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error).toEqual({ code: "invalid_body", message: 'The body is not JSON; send {"mode": "on"} or {"mode": "off"}.' });
    const badMode = await switchMode(t, { mode: "sometimes" });
    expect(badMode.status).toBe(400);
    expect((await badMode.json()).error.message).toContain('expected "mode": "on" or "off"');
    expect(await toolNames(t)).toEqual(VIBE_TOOLS);
  });

  test("is absent, like the tools, when the run has no vibe resource", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {});
    expect((await switchMode(t, { mode: "on" })).status).toBe(404);
    expect(await toolNames(t)).toEqual([]);
  });
});
