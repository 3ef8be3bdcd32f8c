// One surface cannot end another's sessions: a plan token opening sessions (and their event streams)
// in a loop makes room among plan's own sessions, and the default client keeps working.
import { describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { MAX_SESSIONS_PER_SURFACE } from "../../src/http/session-table.ts";
import { PROBE_TOOLS } from "../helpers/probe-tools.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "loop", version: "1" } } });

/** A new session for the surface's token; its id. */
async function initialize(t: TestRun, surface: string): Promise<string> {
  const response = await t.fetch("/mcp", {
    method: "POST",
    headers: { Authorization: `Bearer ${t.run.surfaces[surface]}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: INITIALIZE,
  });
  await response.text();
  expect(response.status).toBe(200);
  return response.headers.get("mcp-session-id")!;
}

/** The session's standalone event stream, held open on a raw socket (fetch runs at most 256 at once per process). */
function holdEventStream(t: TestRun, surface: string, session: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(t.run.port, "127.0.0.1", () =>
      socket.write(
        `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${t.run.port}\r\nAuthorization: Bearer ${t.run.surfaces[surface]}\r\nAccept: text/event-stream\r\n` +
          `Mcp-Session-Id: ${session}\r\nMcp-Protocol-Version: 2025-06-18\r\nConnection: close\r\n\r\n`,
      ),
    );
    socket.once("data", (head) => (head.toString().startsWith("HTTP/1.1 200") ? resolve(socket) : reject(new Error(head.toString()))));
    socket.on("error", reject);
  });
}

describe("sessions are capped and evicted per surface", () => {
  test("1000 plan sessions, each holding its event stream, leave the default client's session and stream working", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS });
    const client = await t.client("default");
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    expect((await client.callTool({ name: "test_echo", arguments: { text: "before" } })).structuredContent).toEqual({ echoed: "before" });

    const streams: Socket[] = [];
    const plan: string[] = [];
    try {
      for (let k = 0; k < 1000; k++) {
        plan.push(await initialize(t, "plan"));
        streams.push(await holdEventStream(t, "plan", plan.at(-1)!));
      }
      const open = streams.filter((socket) => !socket.readableEnded && !socket.destroyed);
      // Plan made room among its own: its oldest sessions ended (their streams with them), its newest live.
      const status = async (id: string) =>
        (await t.fetch("/mcp", { method: "POST", headers: { Authorization: `Bearer ${t.run.surfaces.plan}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18" }, body: '{"jsonrpc":"2.0","id":2,"method":"ping"}' })).status;
      expect(await status(plan[0]!)).toBe(404);
      expect(await status(plan.at(-1)!)).toBe(200);
      expect(open.length).toBeLessThanOrEqual(MAX_SESSIONS_PER_SURFACE + 1);

      expect((await client.callTool({ name: "test_echo", arguments: { text: "after" } })).structuredContent).toEqual({ echoed: "after" });
      // The default client's own event stream still carries the server's notifications.
      for (let i = 0; i < 100 && changes === 0; i++) {
        t.run.registry.changed();
        await Bun.sleep(50);
      }
      expect(changes).toBeGreaterThan(0);
    } finally {
      for (const socket of streams) socket.destroy();
    }
  }, 180_000);
});
