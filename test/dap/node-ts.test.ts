// debug over the sidecar's Node.js adapter for TypeScript: tsx runs the program, source maps give .ts lines.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, debugHarness, requireTool } from "./harness.ts";

// Lines 1–4 generate no JavaScript: every line after them sits elsewhere in what node runs.
const APP = `interface Point {
  x: number;
  y: number;
}

async function delay(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

async function norm(p: Point): Promise<number> {
  await delay(1);
  const squared: number = p.x * p.x + p.y * p.y;
  return Math.sqrt(squared);
}

async function main(): Promise<void> {
  const value = await norm({ x: 3, y: 4 });
  console.log("norm", value);
}

main();
`;

/** tsx as a user has it: on PATH (here the repository's devDependency, outside the test's workspace). */
const WITH_TSX = { PATH: `${join(import.meta.dir, "..", "..", "node_modules", ".bin")}:${process.env.PATH}` };

describe("debug with node: TypeScript through tsx", () => {
  test("a breakpoint in a .ts line, the stack with its awaiting frames, steps in .ts lines, set_variable", async () => {
    requireTool("/usr/bin/node", "apt install nodejs");
    requireTool(join(import.meta.dir, "..", "..", "node_modules", ".bin", "tsx"), "npm install (tsx is a devDependency)");
    await using dir = await tempDir();
    await dir.write({ "package.json": '{"name": "app"}\n', "app.ts": APP });
    const saved = process.env.PATH;
    process.env.PATH = WITH_TSX.PATH;
    try {
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
      const found = await h.ok({ operation: "adapters" });
      expect(found.text).toContain("TypeScript through tsx");
      await h.ok({ operation: "breakpoints", file: "app.ts", lines: [12] });
      const launched = await h.ok({ operation: "launch", program: "app.ts" });
      expect(launched.data).toMatchObject({ state: "stopped", reason: "breakpoint", frame: { name: "norm", file: "app.ts", line: 12 } });

      const stack = await h.ok({ operation: "stack" });
      const names = stack.data.frames.map((frame: { name: string }) => frame.name);
      // The frame that awaits norm() is shown below an await label, at its .ts line.
      expect(names.slice(0, 3)).toEqual(["norm", "── await ──", "main"]);
      expect(stack.data.frames[2]).toMatchObject({ file: "app.ts", line: 17 });
      expect((await h.ok({ operation: "evaluate", expression: "p.x + p.y" })).data.result).toBe("7");

      const step = await h.ok({ operation: "step_over" });
      expect(step.data.frame).toMatchObject({ name: "norm", file: "app.ts", line: 13 });
      await h.ok({ operation: "set_variable", name: "squared", value: "144" });
      const done = await h.ok({ operation: "continue" });
      expect(done.data).toMatchObject({ state: "exited", exit_code: 0 });
      expect((await h.ok({ operation: "output" })).data.output).toContain("norm 12\n");
    } finally {
      process.env.PATH = saved;
    }
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("without tsx a TypeScript launch is refused with how to get it", async () => {
    requireTool("/usr/bin/node", "apt install nodejs");
    await using dir = await tempDir();
    await dir.write({ "package.json": "{}\n", "app.ts": APP });
    const saved = process.env.PATH;
    process.env.PATH = "/usr/bin:/bin";
    try {
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
      const refused = await h.call({ operation: "launch", program: "app.ts" });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain("no tsx was found to run it");
    } finally {
      process.env.PATH = saved;
    }
  }, ADAPTER_TEST_TIMEOUT_MS);
});
