// Fuzzing the HTTP/MCP surface: no 5xx, no crash, and every bad tool argument gets a readable isError
// result. (bench/fuzz.ts runs the same driver for ≥ 100k inputs and prints the tallies.)
import { expect, test } from "bun:test";
import { createApp } from "../../src/http/app.ts";
import { ToolRegistry } from "../../src/tool/registry.ts";
import { PROBE_TOOLS } from "../helpers/probe-tools.ts";
import { fuzz } from "./fuzz-driver.ts";

test("1500 hostile inputs: no server error, every bad tool argument answered readably", async () => {
  const registry = new ToolRegistry(() => PROBE_TOOLS);
  const token = "fuzz-token-0123456789abcdef0123";
  const { app, sessions } = createApp({
    registry,
    surfaces: [{ name: "default", tiers: ["read", "write", "exec"], token }],
    identity: { name: "sidecar", version: "fuzz" },
    runSignal: new AbortController().signal,
  });
  const tally = await fuzz(app, token, PROBE_TOOLS, 1500, 7);
  await sessions.closeAll();
  expect(tally.serverErrors).toEqual([]);
  expect(tally.unreadableToolErrors).toEqual([]);
  expect(tally.toolArgumentErrors).toBeGreaterThan(300);
  expect(tally.protocolArgumentErrors).toBeGreaterThan(50);
}, 60_000); // 1500 requests in-process took 7-9 s at a load average of 20 here: past bun's 5 s default
