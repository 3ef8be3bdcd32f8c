// debug attached to a running `node --inspect` program: breakpoints in it, and terminate letting it run on.
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { freePort } from "../helpers/free-port.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, count, debugHarness, killSession, requireTool, untilCountPasses, untilListening } from "./harness.ts";

const COUNTER = 'const fs = require("node:fs");\nlet n = 0;\nsetInterval(() => {\n  n++;\n  fs.writeFileSync("count.txt", String(n));\n}, 10);\n';

describe("debug with node: attach", () => {
  test("a breakpoint stops the attached program; terminate detaches and it keeps counting", async () => {
    requireTool("/usr/bin/node", "apt install nodejs");
    await using dir = await tempDir();
    await dir.write({ "package.json": "{}\n", "count.js": COUNTER });
    const port = await freePort();
    const server = spawn("/usr/bin/node", [`--inspect=127.0.0.1:${port}`, "count.js"], { cwd: dir.path, stdio: "ignore", detached: true });
    try {
      await untilListening(port);
      await untilCountPasses(dir.path, 0);
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
      await h.ok({ operation: "breakpoints", file: "count.js", lines: [4] });
      const attached = await h.ok({ operation: "attach", port }); // package.json: the node adapter, unnamed
      expect(attached.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { file: "count.js", line: 4 } });
      const held = count(dir.path);
      expect(Number((await h.ok({ operation: "evaluate", expression: "n" })).data.result)).toBe(held);
      expect(count(dir.path)).toBe(held); // stopped: it counts no further

      const ended = await h.ok({ operation: "terminate" });
      expect(ended.text).toContain(`detached from the program (pid ${server.pid}), which is running`);
      expect(await untilCountPasses(dir.path, held)).toBeGreaterThan(held);
    } finally {
      killSession(server.pid);
    }
  }, ADAPTER_TEST_TIMEOUT_MS);
});
