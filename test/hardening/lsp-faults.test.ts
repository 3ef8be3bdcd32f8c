// Language servers that misbehave in ways the lsp suite's real servers cannot be made to (a stderr
// flood, malformed frames), or whose answers race their progress reports in an order the real ones
// produce only under load. A small scripted server stands in (test/hardening/fixtures/misbehaving-lsp.py).
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call } from "../helpers/call.ts";

const SERVER = join(import.meta.dir, "fixtures", "misbehaving-lsp.py");
/** The server's stderr is kept only to explain an early exit; a flood must not grow the sidecar. */
const FLOOD_MEMORY_BOUND_BYTES = 128 * 1024 ** 2;
const TEST_TIMEOUT_MS = 120_000;

async function runWith(dir: string, mode: string) {
  const servers = { python: { command: "python3", args: [SERVER, mode] } };
  return startTestRun(dir, { resources: { languageServers: { servers, initializeTimeoutSeconds: 30 } } });
}

describe("a language server that misbehaves", () => {
  test("flooding stderr: hovers still answer and the sidecar's memory stays bounded", async () => {
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "m.py": "value = 1\n" });
    await using t = await runWith(dir.path, "flood-stderr");
    const client = await t.client();
    // Collect first, both times: what must stay bounded is what the sidecar keeps, not garbage
    // that other tests in this process left for a lazy collector.
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    for (let i = 1; i <= 5; i++) {
      const r = await call(client, "lsp", { action: "hover", file: "m.py", line: 1, symbol: "value" });
      expect(r.text).toContain(`fake hover ${i}`);
      await Bun.sleep(500); // let the flood run between calls: megabytes each time
    }
    Bun.gc(true);
    expect(process.memoryUsage().rss - before).toBeLessThan(FLOOD_MEMORY_BOUND_BYTES);
  }, TEST_TIMEOUT_MS);

  test("sending malformed frames: that call fails with a sentence, the next call works", async () => {
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "m.py": "value = 1\n" });
    await using t = await runWith(dir.path, "malformed");
    const client = await t.client();
    const broken = await call(client, "lsp", { action: "hover", file: "m.py", line: 1, symbol: "value" });
    expect(broken.isError).toBe(true);
    expect(broken.text).toContain("malformed message");
    const next = await call(client, "lsp", { action: "hover", file: "m.py", line: 1, symbol: "value" });
    expect(next.isError).toBe(false);
    expect(next.text).toContain("fake hover");
    // The stopped server's process is gone: only the restarted one runs.
    expect(t.run.resources.lsp!.supervisor.running()).toHaveLength(1);
  }, TEST_TIMEOUT_MS);
});

describe("an answer that raced the server's progress report", () => {
  // typescript-language-server answers from its partial syntax server until the project has
  // loaded; seen on a loaded CI machine as references that listed the declaration alone.
  for (const [mode, order] of [
    ["answer-before-begin", "arrives after the progress token was created but before it began"],
    ["begin-end-then-answer", "arrives after a whole progress ran while it was in flight"],
  ] as const) {
    test(`${order}: it is not taken as final, the query is asked again`, async () => {
      await using dir = await tempDir();
      await dir.write({ "pyproject.toml": "", "m.py": "value = 1\n" });
      await using t = await runWith(dir.path, mode);
      const r = await call(await t.client(), "lsp", { action: "hover", file: "m.py", line: 1, symbol: "value" });
      expect(r.text).toBe("full hover 2");
    }, TEST_TIMEOUT_MS);
  }

  test("a progress token created and never begun stops counting after the grace period", async () => {
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "m.py": "value = 1\n" });
    await using t = await runWith(dir.path, "created-never-begun");
    const r = await call(await t.client(), "lsp", { action: "hover", file: "m.py", line: 1, symbol: "value" });
    expect(r.text).toBe("full hover 2");
    // Asked again because the token was dropped: had the query waited out the indexing wait instead,
    // the token would still count as running. (When it is dropped: test/lsp/work-progress.test.ts.)
    const [server] = t.run.resources.lsp!.supervisor.running();
    expect([...server!.client.activeProgress.keys()]).toEqual([]);
  }, TEST_TIMEOUT_MS);
});
