// MCP logging with the official SDK client: logging/setLevel is answered (it was -32601), and the
// run's log then arrives as notifications/message, filtered by the session's level and surface.
import { describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from "@modelcontextprotocol/sdk/types.js";
import { RunLog } from "../../src/log/log.ts";
import { PROBE_TOOLS } from "../helpers/probe-tools.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { until } from "../helpers/until.ts";

type Message = LoggingMessageNotification["params"];

function collect(client: Client): Message[] {
  const messages: Message[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void messages.push(notification.params));
  return messages;
}

describe("MCP logging", () => {
  test("a client that sets a level hears the run's events at that level and above, its own surface's calls only", async () => {
    await using dir = await tempDir();
    const log = new RunLog();
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS, log });
    const debug = await t.client();
    const warning = await t.client();
    const silent = await t.client();
    const plan = await t.client("plan");
    const heard = { debug: collect(debug), warning: collect(warning), silent: collect(silent), plan: collect(plan) };
    expect(debug.getServerCapabilities()?.logging).toEqual({});
    await debug.setLoggingLevel("debug");
    await warning.setLoggingLevel("warning");
    await plan.setLoggingLevel("debug");

    await debug.callTool({ name: "test_echo", arguments: { text: "hello" } });
    log.warn("record.failed", "The call record cannot be written (ENOSPC).");
    await until("the debug client to hear both", () => heard.debug.length >= 2 && heard.warning.length >= 1 && heard.plan.length >= 1);

    expect(heard.debug[0]).toMatchObject({ level: "debug", logger: "call", data: { tool: "test_echo", surface: "default", outcome: "ok" } });
    expect((heard.debug[0]!.data as { message: string }).message).toMatch(/^call 1: test_echo \(default\): ok in \d+ ms/);
    expect(heard.debug[1]).toEqual({ level: "warning", logger: "record.failed", data: { message: "The call record cannot be written (ENOSPC)." } });
    expect(heard.warning.map((m) => m.logger)).toEqual(["record.failed"]); // no debug call line
    expect(heard.plan.map((m) => m.logger)).toEqual(["record.failed"]); // default's call is not plan's to hear

    // The silent client never asked, so it heard nothing. Rather than wait and hope, it asks now and
    // a marker is logged: its stream is ordered, so anything sent it before would arrive first.
    await silent.setLoggingLevel("warning");
    log.warn("marker", "Sent after the silent client asked.");
    await until("the silent client to hear the marker", () => heard.silent.length >= 1);
    expect(heard.silent.map((m) => m.logger)).toEqual(["marker"]);
  });

  test("an unknown level is refused as invalid params", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, {});
    const client = await t.client();
    await expect(client.setLoggingLevel("loud" as "debug")).rejects.toThrow(/-32602: Invalid logging\/setLevel request: params.level must be one of debug, info/);
  });
});
