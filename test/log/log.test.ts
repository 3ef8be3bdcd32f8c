// serve's log: --log-level, --log-format text|json and --log-file, one line per event, on a real
// `sidecar serve`; and the lines themselves.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSidecar } from "../../build/spawn-sidecar.ts";
import { formatLogLine } from "../../src/log/log-line.ts";
import type { LogEvent } from "../../src/log/log.ts";
import { runCli } from "../cli/run-cli.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");

const EVENT: LogEvent = {
  time: new Date("2026-12-01T20:42:16.123Z"),
  level: "warn",
  event: "record.failed",
  message: "The call record cannot be written (ENOSPC).\n  at write",
  fields: { path: "/state/calls.jsonl", message: "a field never overwrites the four" },
};

describe("a log line", () => {
  test("text: time, sidecar, the level's word, the message on one line", () => {
    expect(formatLogLine(EVENT, "text")).toBe("2026-12-01T20:42:16.123Z sidecar: warning: The call record cannot be written (ENOSPC). ⏎ at write");
    expect(formatLogLine({ ...EVENT, level: "info", message: "serving" }, "text")).toBe("2026-12-01T20:42:16.123Z sidecar: serving");
  });

  test("json: time, level, event and message first, then the event's fields", () => {
    expect(JSON.parse(formatLogLine(EVENT, "json"))).toEqual({
      time: "2026-12-01T20:42:16.123Z",
      level: "warn",
      event: "record.failed",
      message: EVENT.message,
      path: "/state/calls.jsonl",
    });
  });
});

describe("sidecar serve's log", () => {
  test("--log-level debug --log-format json --log-file: every event a JSON line on stderr and in the file, calls included", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.py": "x = 1\n" });
    const file = join(dir.path, "sidecar.log");
    const config = join(dir.path, "run.json");
    await dir.write({ "run.json": JSON.stringify({ resources: { parser: { workers: 0 }, languageServers: false, debugAdapters: false, kernels: false, questions: false } }) });
    const sidecar = await spawnSidecar([process.execPath, MAIN, "serve", "--config", config, "--workdir", dir.path, "--log-level", "debug", "--log-format", "json", "--log-file", file]);
    const client = await sidecar.connect();
    await client.callTool({ name: "ast_grep", arguments: { pattern: "$X = 1", language: "python" } });
    await client.callTool({ name: "ast_grep", arguments: { pattern: 1 } });
    expect(await sidecar.stop()).toBe(0);

    const stderr = sidecar.stderr().trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(stderr.map((e) => e.event)).toEqual(["run.serving", "call", "call", "run.stopping", "run.stopped"]);
    for (const event of stderr) expect(Object.keys(event).slice(0, 4)).toEqual(["time", "level", "event", "message"]);
    expect(stderr[0]).toMatchObject({ level: "info", workdir: dir.path, url: sidecar.ready.url });
    expect(stderr[1]).toMatchObject({ level: "debug", tool: "ast_grep", surface: "default", outcome: "ok" });
    expect(stderr[2]).toMatchObject({ tool: "ast_grep", outcome: "error", code: "invalid_arguments" });
    expect(stderr[3]).toMatchObject({ level: "info", reason: "SIGTERM received", message: "SIGTERM received, shutting down" });
    const written = readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(written).toEqual(stderr);
  }, 60_000);

  test("--log-level warn keeps the info lines off stderr; the text format is the default", async () => {
    await using dir = await tempDir();
    await dir.write({ "run.json": JSON.stringify({ resources: { languageServers: false, debugAdapters: false, kernels: false } }) });
    const PARSER_ONLY = ["--config", join(dir.path, "run.json")];
    const quiet = await spawnSidecar([process.execPath, MAIN, "serve", ...PARSER_ONLY, "--workdir", dir.path, "--log-level", "warn"]);
    expect(await quiet.stop()).toBe(0);
    expect(quiet.stderr()).toBe("");
    const plain = await spawnSidecar([process.execPath, MAIN, "serve", ...PARSER_ONLY, "--workdir", dir.path]);
    expect(await plain.stop()).toBe(0);
    expect(plain.stderr()).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z sidecar: serving .* at http:\/\/127\.0\.0\.1:\d+\/mcp\n/);
    expect(plain.stderr()).toContain("sidecar: SIGTERM received, shutting down\n");
  }, 60_000);

  test.each([
    [["--log-level", "loud"], "--log-level must be one of error, warn, info, debug, not \"loud\"."],
    [["--log-format", "xml"], "--log-format must be one of text, json, not \"xml\"."],
    [["--log-file", "/nonexistent-dir/sidecar.log"], "--log-file /nonexistent-dir/sidecar.log: cannot open it for appending"],
  ])("serve %j is refused with a sentence", (flags, expected) => {
    const { code, stderr } = runCli(["serve", ...flags]);
    expect(code).toBe(2);
    expect(stderr).toContain(expected);
  });
});
