// debug attached to a running `node --inspect` program, JavaScript or TypeScript (tsx's loader): breakpoints in it, and terminate letting it run on.
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { freePort } from "../helpers/free-port.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, count, debugHarness, killSession, requireTool, untilCountPasses, untilListening } from "./harness.ts";

const COUNTER = 'const fs = require("node:fs");\nlet n = 0;\nsetInterval(() => {\n  n++;\n  fs.writeFileSync("count.txt", String(n));\n}, 10);\n';

// Type-only lines first, so the .ts line differs from the JavaScript line node runs.
const TS_COUNTER = `import { writeFileSync } from "node:fs";
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

const TSX_LOADER = join(import.meta.dir, "..", "..", "node_modules", "tsx", "dist", "loader.mjs");

const PROGRAMS: { language: string; files: Record<string, string>; node: string[]; file: string; line: number; counter: string }[] = [
  { language: "JavaScript", files: { "package.json": "{}\n", "count.js": COUNTER }, node: ["count.js"], file: "count.js", line: 4, counter: "n" },
  {
    language: "TypeScript (tsx's loader)",
    files: { "package.json": '{"type": "module"}\n', "count.ts": TS_COUNTER },
    node: ["--import", TSX_LOADER, "count.ts"],
    file: "count.ts",
    line: 8,
    counter: "tally.n",
  },
];

describe("debug with node: attach", () => {
  test.each(PROGRAMS)(
    "$language: a breakpoint stops the attached program at its line; terminate detaches and it keeps counting",
    async ({ files, node, file, line, counter }) => {
      requireTool("/usr/bin/node", "apt install nodejs");
      requireTool(TSX_LOADER, "npm install (tsx is a devDependency)");
      await using dir = await tempDir();
      await dir.write(files);
      const port = await freePort();
      const server = spawn("/usr/bin/node", [`--inspect=127.0.0.1:${port}`, ...node], { cwd: dir.path, stdio: "ignore", detached: true });
      try {
        await untilListening(port);
        await untilCountPasses(dir.path, 0);
        await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
        await h.ok({ operation: "breakpoints", file, lines: [line] });
        const attached = await h.ok({ operation: "attach", port }); // package.json: the node adapter, unnamed
        expect(attached.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { file, line } });
        const held = count(dir.path);
        expect(Number((await h.ok({ operation: "evaluate", expression: counter })).data.result)).toBe(held);
        expect(count(dir.path)).toBe(held); // stopped: it counts no further

        const ended = await h.ok({ operation: "terminate" });
        expect(ended.text).toContain(`detached from the program (pid ${server.pid}), which is running`);
        expect(await untilCountPasses(dir.path, held)).toBeGreaterThan(held);
      } finally {
        killSession(server.pid);
      }
    },
    ADAPTER_TEST_TIMEOUT_MS,
  );
});
