// The call record: every tool call of a real run appended to <stateDir>/calls.jsonl, long strings cut
// with their length, writes naming their files; bounded, and whole lines even after SIGKILL.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CALL_RECORD_FILE, type CallRecord } from "../../src/activity/call-record.ts";
import type { CallEntry } from "../../src/activity/call-entry.ts";
import { spawnSidecar } from "../../build/spawn-sidecar.ts";
import { LineFile } from "../../src/log/line-file.ts";
import { RunLog, type LogEvent } from "../../src/log/log.ts";
import { PROBE_TOOLS } from "../helpers/probe-tools.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");

async function linesOf(record: CallRecord): Promise<CallEntry[]> {
  await (record as unknown as { file: LineFile }).file.flush();
  return readFileSync(record.path!, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CallEntry);
}

describe("calls.jsonl in the stateDir", () => {
  test("each call: time, surface, tool, arguments with long strings cut, outcome, code, duration, answer size", async () => {
    await using dir = await tempDir();
    await using state = await tempDir("sidecar-state-test-");
    await using t = await startTestRun(dir.path, { stateDir: state.path }, { extraTools: PROBE_TOOLS });
    const client = await t.client();
    const long = "x".repeat(5_000);
    await client.callTool({ name: "test_echo", arguments: { text: long, times: 2 } });
    await client.callTool({ name: "test_echo", arguments: { text: 5 } });
    await (await t.client("plan")).callTool({ name: "test_exec", arguments: {} }).catch(() => {}); // not plan's: no call
    await client.callTool({ name: "test_exec", arguments: {} });

    expect(t.run.record.path).toBe(join(state.path, CALL_RECORD_FILE));
    const lines = await linesOf(t.run.record);
    expect(lines).toHaveLength(3);
    const [echo, invalid, failed] = lines as [CallEntry, CallEntry, CallEntry];
    expect(echo).toMatchObject({ id: 1, surface: "default", tool: "test_echo", outcome: "ok", answer_bytes: 10_000 });
    expect(echo.arguments).toEqual({ text: `${"x".repeat(200)}… (5000 characters in all)`, times: 2 });
    expect(Date.parse(echo.time)).toBeGreaterThan(Date.now() - 60_000);
    expect(echo.duration_ms).toBeGreaterThanOrEqual(0);
    expect(echo.run).toMatch(/^[0-9a-f]{8}$/);
    expect(invalid).toMatchObject({ id: 2, outcome: "error", code: "invalid_arguments", arguments: { text: 5 } });
    expect(failed).toMatchObject({ id: 3, outcome: "error", code: "failed" });
    // The stateDir stays out of the checkout's git status and searches.
    expect(readFileSync(join(state.path, ".gitignore"), "utf8")).toContain("*");
  });

  test("a write names the files it changed: resolve accept after ast_edit", async () => {
    await using dir = await tempDir();
    await using state = await tempDir("sidecar-state-test-");
    await dir.write({ "a.py": "print(1)\n", "b.py": "x = 2\n" });
    await using t = await startTestRun(dir.path, { stateDir: state.path, resources: { parser: { workers: 0 } } });
    const client = await t.client();
    const staged = await client.callTool({ name: "ast_edit", arguments: { pattern: "print($A)", rewrite: "log($A)", language: "python" } });
    const editId = (staged.structuredContent as { edit_id: string }).edit_id;
    await client.callTool({ name: "resolve", arguments: { edit_id: editId, action: "accept" } });
    const [edit, resolve] = await linesOf(t.run.record);
    expect(edit).toMatchObject({ tool: "ast_edit", outcome: "ok" });
    expect(edit!.files).toBeUndefined(); // staging writes nothing
    expect(resolve).toMatchObject({ tool: "resolve", outcome: "ok", files: ["a.py"] });
  });

  test("a cancelled call is recorded as cancelled", async () => {
    await using dir = await tempDir();
    await using state = await tempDir("sidecar-state-test-");
    await using t = await startTestRun(dir.path, { stateDir: state.path }, { extraTools: PROBE_TOOLS });
    const controller = new AbortController();
    const call = (await t.client()).callTool({ name: "test_slow", arguments: { ms: 30_000 } }, undefined, { signal: controller.signal });
    await Bun.sleep(200);
    controller.abort();
    await call.catch(() => {});
    for (let i = 0; i < 100 && t.run.record.recent.entries().length === 0; i++) await Bun.sleep(20);
    expect(await linesOf(t.run.record)).toMatchObject([{ tool: "test_slow", outcome: "cancelled" }]);
  });

  test("without a stateDir nothing is written, and the page still has the calls; each is a debug event in the log", async () => {
    await using dir = await tempDir();
    const log = new RunLog();
    const events: LogEvent[] = [];
    log.add({ write: (event) => events.push(event) });
    await using t = await startTestRun(dir.path, {}, { extraTools: PROBE_TOOLS, log });
    await (await t.client()).callTool({ name: "test_echo", arguments: { text: "hi" } });
    expect(t.run.record.path).toBeUndefined();
    expect(t.run.record.recent.entries()).toMatchObject([{ tool: "test_echo", outcome: "ok" }]);
    expect(t.run.record.recent.detail(1)).toMatchObject({ text: "hi" });
    const call = events.find((event) => event.event === "call")!;
    expect(call).toMatchObject({ level: "debug", fields: { tool: "test_echo", surface: "default", outcome: "ok" } });
    expect(call.message).toMatch(/^call 1: test_echo \(default\): ok in \d+ ms, 2 B$/);
  });

  test("a calls.jsonl the checkout made a symlink is not followed: nothing is appended to its target", async () => {
    await using dir = await tempDir();
    await dir.write({ "target.txt": "untouched\n" });
    const state = join(dir.path, ".sidecar");
    await dir.write({ ".sidecar/.keep": "" });
    symlinkSync(join(dir.path, "target.txt"), join(state, CALL_RECORD_FILE));
    const log = new RunLog();
    const warnings: string[] = [];
    log.add({ write: (event) => void (event.level === "warn" && warnings.push(event.message)) });
    await using t = await startTestRun(dir.path, { stateDir: state }, { extraTools: PROBE_TOOLS, log });
    await (await t.client()).callTool({ name: "test_echo", arguments: { text: "hi" } });
    expect(readFileSync(join(dir.path, "target.txt"), "utf8")).toBe("untouched\n");
    expect(warnings.join("\n")).toContain("calls are not recorded in this run");
  });
});

describe("the record's file", () => {
  test("rotates past its size: the older half is calls.jsonl.1, and no line is split", async () => {
    await using dir = await tempDir();
    const path = join(dir.path, "calls.jsonl");
    const file = new LineFile(path, { rotateBytes: 1_000 });
    for (let i = 0; i < 30; i++) file.append(JSON.stringify({ i, pad: "y".repeat(50) }));
    await file.close();
    const older = readFileSync(`${path}.1`, "utf8").trim().split("\n");
    const newer = readFileSync(path, "utf8").trim().split("\n");
    expect(readFileSync(path).length).toBeLessThanOrEqual(1_000);
    const numbers = [...older, ...newer].map((line) => (JSON.parse(line) as { i: number }).i);
    expect(numbers.slice(-newer.length)).toEqual(Array.from({ length: newer.length }, (_, k) => 30 - newer.length + k));
  });

  test("a half line left by a killed process is ended, so the next line stands alone", async () => {
    await using dir = await tempDir();
    const path = join(dir.path, "calls.jsonl");
    writeFileSync(path, '{"id":1}\n{"id":2,"tool":"ls');
    const file = new LineFile(path);
    file.append('{"id":3}');
    await file.close();
    expect(readFileSync(path, "utf8")).toBe('{"id":1}\n{"id":2,"tool":"ls\n{"id":3}\n');
  });

  test("a real sidecar killed with SIGKILL mid-traffic leaves whole lines: every recorded call, in order, none cut", async () => {
    await using dir = await tempDir();
    await using state = await tempDir("sidecar-state-test-");
    await dir.write({ "a.py": "x = 1\n" });
    const config = join(dir.path, "run.json");
    writeFileSync(config, JSON.stringify({ stateDir: state.path, resources: { parser: { workers: 0 } } }));
    const sidecar = await spawnSidecar([process.execPath, MAIN, "serve", "--config", config, "--workdir", dir.path]);
    const client = await sidecar.connect();
    const answered = 40;
    for (let i = 0; i < answered; i++) await client.callTool({ name: "ast_grep", arguments: { pattern: `$X = ${i}`, language: "python" } });
    // The record is written in the background, never holding an answer back: wait until the answered
    // calls are on disk (a loaded machine may take a while), then kill it with calls still arriving.
    const recordPath = join(state.path, CALL_RECORD_FILE);
    while (!existsSync(recordPath) || readFileSync(recordPath, "utf8").split("\n").length <= answered) await Bun.sleep(10);
    // Some of these may be recorded, none half-written.
    for (let i = 0; i < 20; i++) void client.callTool({ name: "ast_grep", arguments: { pattern: "$X", language: "python" } }).catch(() => {});
    await Bun.sleep(5);
    sidecar.child.kill("SIGKILL");
    await new Promise((resolve) => sidecar.child.once("exit", resolve));
    const text = readFileSync(join(state.path, CALL_RECORD_FILE), "utf8");
    // After the last newline: nothing, or the half line a write cut short (allowed, and ended by the next run).
    const entries = text.split("\n").slice(0, -1).map((line) => JSON.parse(line) as CallEntry);
    expect(entries.length).toBeGreaterThanOrEqual(answered);
    expect(entries.slice(0, answered).map((e) => e.arguments)).toEqual(Array.from({ length: answered }, (_, i) => ({ pattern: `$X = ${i}`, language: "python" })));
    expect(existsSync(join(state.path, `${CALL_RECORD_FILE}.1`))).toBe(false);
  }, 120_000);
});
