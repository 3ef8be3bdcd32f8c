// An idle run holds no parse worker: they start with the first structural call, not with the run.
import { expect, test } from "bun:test";
import { connectClient } from "../../build/spawn-sidecar.ts";
import { parseConfig, settle } from "../../src/config/load.ts";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { startRun } from "../../src/run/start.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call } from "./call.ts";

test("a run with a parser starts no parse worker until an ast_* call arrives", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.ts": "console.log(1);\n", "b.py": "print(2)\n" });
  // Real workers, counted as they are spawned.
  const spawned: Worker[] = [];
  const runtime = {
    ...bunPrimitives,
    spawnParseWorker() {
      const worker = bunPrimitives.spawnParseWorker!();
      spawned.push(worker);
      return worker;
    },
  };
  const run = await startRun(settle(parseConfig({ workdir: dir.path, resources: { parser: { workers: 2 } } })), runtime);
  try {
    const client = await connectClient(run.url, run.surfaces.default!, "lazy-workers-test");
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("ast_grep");
    await Bun.sleep(300); // anything started in the background after the ready line has begun by now
    expect(spawned).toHaveLength(0);
    const answer = await call(client, "ast_grep", { pattern: "console.log($A)", language: "typescript" });
    expect(answer.isError).toBe(false);
    expect(answer.data.total).toBe(1);
    expect(spawned).toHaveLength(2);
    await client.close();
  } finally {
    await run.close();
  }
}, 30_000);
