// debug attached to a running TypeScript program (node --inspect with tsx's loader): a breakpoint in its .ts line, and terminate letting it run on.
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { freePort } from "../helpers/free-port.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, count, debugHarness, killSession, requireTool, untilCountPasses, untilListening } from "./harness.ts";

const TSX_LOADER = join(import.meta.dir, "..", "..", "node_modules", "tsx", "dist", "loader.mjs");

// Type-only lines first, so the .ts line differs from the JavaScript line node runs.
const COUNTER = `import { writeFileSync } from "node:fs";
type Count = number;
interface Tally {
  n: Count;
}
const tally: Tally = { n: 0 };
setInterval(() => {
  tally.n++;
  writeFileSync("count.txt", String(tally.n));
}, 10);
`;

describe("debug with node: attach to a TypeScript program", () => {
  test("a breakpoint stops it at its .ts line; terminate detaches and it keeps counting", async () => {
    requireTool("/usr/bin/node", "apt install nodejs");
    requireTool(TSX_LOADER, "npm install (tsx is a devDependency)");
    await using dir = await tempDir();
    await dir.write({ "package.json": '{"type": "module"}\n', "count.ts": COUNTER });
    const port = await freePort();
    const server = spawn("/usr/bin/node", ["--import", TSX_LOADER, `--inspect=127.0.0.1:${port}`, "count.ts"], { cwd: dir.path, stdio: "ignore", detached: true });
    try {
      await untilListening(port);
      await untilCountPasses(dir.path, 0);
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
      await h.ok({ operation: "breakpoints", file: "count.ts", lines: [8] });
      const attached = await h.ok({ operation: "attach", port });
      expect(attached.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { file: "count.ts", line: 8 } });
      const held = count(dir.path);
      expect(Number((await h.ok({ operation: "evaluate", expression: "tally.n" })).data.result)).toBe(held);

      const ended = await h.ok({ operation: "terminate" });
      expect(ended.text).toContain(`detached from the program (pid ${server.pid}), which is running`);
      expect(await untilCountPasses(dir.path, held)).toBeGreaterThan(held);
    } finally {
      killSession(server.pid);
    }
  }, ADAPTER_TEST_TIMEOUT_MS);
});
