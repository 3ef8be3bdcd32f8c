// The supervisor against real servers: status reasons, one process per root, crash recovery, idle shutdown, reload.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { procStatFields } from "../../src/platform/proc-stat.ts";
import { chmod } from "node:fs/promises";
import { join } from "node:path";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call, LSP_CONFIG, requireBinary, TS_PROJECT } from "./fixtures.ts";

/** The rustup proxy's answer on this machine when the rust-analyzer component is missing (exit 1). */
const RUSTUP_PROXY_STANDIN = `#!/bin/sh
echo "error: Unknown binary 'rust-analyzer' in official toolchain 'stable-x86_64-unknown-linux-gnu'." >&2
exit 1
`;

/** Processes whose working directory is `root` and whose command line mentions `name`. */
function processesIn(root: string, name: string): number[] {
  return readdirSync("/proc").filter((p) => /^\d+$/.test(p)).flatMap((pid) => {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      return cwd === root && cmdline.includes(name) ? [Number(pid)] : [];
    } catch {
      return [];
    }
  });
}

/** Live processes in the process group `pgid` (a server and whatever it spawned). */
function groupMembers(pgid: number): number[] {
  return readdirSync("/proc").filter((p) => /^\d+$/.test(p)).flatMap((pid) => {
    const fields = procStatFields(Number(pid));
    return fields && fields[0] !== "Z" && Number(fields[2]) === pgid ? [Number(pid)] : [];
  });
}

function statusRows(result: { data: Record<string, unknown> }) {
  return result.data.results as { server: string; root: string | null; state: string; reason: string }[];
}

/** Polls `check` for up to `limitMs` (a bound, not an assertion on speed). */
async function eventually(check: () => boolean | Promise<boolean>, limitMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return check();
}

function serverPid(t: TestRun): number {
  const handles = t.run.resources.lsp!.supervisor.running();
  expect(handles).toHaveLength(1);
  return handles[0]!.client.child.pid!;
}

describe("status says why a server is not usable", () => {
  test("missing marker, missing binary, and a binary that exits at once (the broken rustup proxy)", async () => {
    await using dir = await tempDir();
    await using tools = await tempDir();
    await dir.write({
      "web/package.json": "{}",
      "crate/Cargo.toml": '[package]\nname = "c"\nversion = "0.1.0"\n',
    });
    await tools.write({ "rust-analyzer": RUSTUP_PROXY_STANDIN });
    await chmod(join(tools.path, "rust-analyzer"), 0o755);
    const servers = { typescript: { command: "no-such-language-server" }, rust: { command: join(tools.path, "rust-analyzer") } };
    await using t = await startTestRun(dir.path, { resources: { languageServers: { servers } } });
    await dir.write({ "crate/src/lib.rs": "pub fn f() {}\n" });
    const client = await t.client();
    // Status starts nothing: before any call the broken server is only found, not yet known broken.
    const before = statusRows(await call(client, "lsp", { action: "status" })).find((r) => r.server === "rust")!;
    expect(before).toMatchObject({ root: "crate", state: "idle", reason: expect.stringContaining("not started (starts on first use)") });
    const hover = await call(client, "lsp", { action: "hover", file: "crate/src/lib.rs", line: 1, symbol: "f" });
    expect(hover.text).toContain("The rust server for crate failed to start: exit code 1: error: Unknown binary 'rust-analyzer'");
    const rows = statusRows(await call(client, "lsp", { action: "status" }));
    expect(rows).toContainEqual(expect.objectContaining({ server: "python", root: null, state: "unavailable", reason: expect.stringContaining("no root marker (pyproject.toml") }));
    expect(rows).toContainEqual(expect.objectContaining({ server: "typescript", root: "web", state: "unavailable", reason: expect.stringContaining("binary not found: no-such-language-server") }));
    const rust = rows.find((r) => r.server === "rust")!;
    expect(rust).toMatchObject({ root: "crate", state: "unavailable" });
    expect(rust.reason).toContain("exited during start-up with exit code 1: error: Unknown binary 'rust-analyzer' in official toolchain");
    expect(rust.reason).toMatch(/retrying at \d\d:\d\d:\d\d UTC/);

    // The next call on a file of that root gives the same reason, remembered rather than rediscovered.
    const again = await call(client, "lsp", { action: "hover", file: "crate/src/lib.rs", line: 1, symbol: "f" });
    expect(again.text).toContain("The rust server for crate is unavailable: exited during start-up with exit code 1");
  });
});

describe("a server that never answers initialize", () => {
  test("is stopped after the configured timeout and reported as such", async () => {
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "m.py": "x = 1\n" });
    // `sleep` stands in for a hung server: it reads nothing and answers nothing.
    const servers = { python: { command: "sleep", args: ["600"] } };
    await using t = await startTestRun(dir.path, { resources: { languageServers: { servers, initializeTimeoutSeconds: 1 } } });
    const r = await call(await t.client(), "lsp", { action: "hover", file: "m.py", line: 1, symbol: "x" });
    expect(r.text).toBe("The python server for . failed to start: initialize timed out after 1 s. Check `sleep 600` runs in .; lsp reload retries.");
    const rows = statusRows(await call(await t.client(), "lsp", { action: "status" }));
    expect(rows.find((row) => row.server === "python")!.reason).toMatch(/^initialize timed out after 1 s; retrying at/);
    expect(processesIn(dir.path, "sleep")).toEqual([]);
  });
});

describe("lifecycle", () => {
  test("concurrent first uses start one server; kill -9 mid-request is a clear error; the next call restarts it", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write(TS_PROJECT);
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    const hover = { action: "hover", file: "src/main.ts", line: 3, symbol: "Circle" };
    const answers = await Promise.all([call(client, "lsp", hover), call(client, "lsp", hover), call(client, "lsp", { action: "symbols", file: "src/shapes.ts" })]);
    expect(answers.map((a) => a.isError)).toEqual([false, false, false]);
    expect(processesIn(dir.path, "typescript-language-server")).toHaveLength(1);
    // One tsserver: the partial syntax server, which answers from the open files alone while the
    // project loads, is configured off (the catalog's useSyntaxServer "never").
    expect(processesIn(dir.path, "tsserver.js")).toHaveLength(1);

    const pid = serverPid(t);
    // Freeze the server so the request is surely in flight, then kill it as an OOM killer would.
    process.kill(pid, "SIGSTOP");
    const pending = call(client, "lsp", { action: "references", file: "src/shapes.ts", line: 7, symbol: "Circle" });
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(pid, "SIGKILL");
    const failed = await pending;
    expect(failed.isError).toBe(true);
    expect(failed.text).toBe("The typescript language server exited (killed by SIGKILL) before answering. The next call restarts it.");

    const again = await call(client, "lsp", { action: "references", file: "src/shapes.ts", line: 7, symbol: "Circle" });
    expect(again.isError).toBe(false);
    expect(again.data.total).toBe(4);
    expect(serverPid(t)).not.toBe(pid);
    // Nothing of the killed server's group (its tsserver children) is left behind.
    expect(await eventually(() => groupMembers(pid).length === 0)).toBe(true);
  });

  test("an idle server is shut down and starts again on the next use; reload restarts it", async () => {
    requireBinary("pyright-langserver", "npm i -D pyright");
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": '[project]\nname = "w"\nversion = "0"\n', "m.py": "def f() -> int:\n    return 1\n" });
    await using t = await startTestRun(dir.path, { resources: { languageServers: { idleShutdownSeconds: 1 } } });
    const client = await t.client();
    expect((await call(client, "lsp", { action: "hover", file: "m.py", line: 1, symbol: "f" })).isError).toBe(false);
    const first = serverPid(t);
    expect(await eventually(() => groupMembers(first).length === 0)).toBe(true);
    const idle = statusRows(await call(client, "lsp", { action: "status" })).find((r) => r.server === "python")!;
    expect(idle).toMatchObject({ root: ".", state: "idle" });
    expect(idle.reason).toContain("starts on next use");

    expect((await call(client, "lsp", { action: "hover", file: "m.py", line: 1, symbol: "f" })).text).toContain("def f() -> int");
    const before = serverPid(t);
    const reload = await call(client, "lsp", { action: "reload", file: "m.py" });
    expect(reload.text).toBe("python (.): restarted");
    expect(serverPid(t)).not.toBe(before);
  });

  test("closing the run leaves no server process behind", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write(TS_PROJECT);
    const t = await startTestRun(dir.path, LSP_CONFIG);
    expect((await call(await t.client(), "lsp", { action: "symbols", file: "src/shapes.ts" })).isError).toBe(false);
    const pid = serverPid(t);
    expect(groupMembers(pid).length).toBeGreaterThan(1);
    await t[Symbol.asyncDispose]();
    expect(groupMembers(pid)).toEqual([]);
  });
});
