// A command that cannot start says why in one line a person can act on, and exits 2. (A port in use
// and an unknown flag are checked under every runtime in test/runtime/runtimes.test.ts.)
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");

async function commandFails(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, stderr };
}

describe("a command that cannot start", () => {
  test.each(["serve", "doctor", "tools"])("%s: a workdir that does not exist", async (command) => {
    const { code, stderr } = await commandFails([command, "--workdir", "/nonexistent/sidecar-checkout"]);
    expect(stderr.trim()).toBe("sidecar: workdir: /nonexistent/sidecar-checkout does not exist; pass an existing checkout directory.");
    expect(code).toBe(2);
  }, 60_000);

  test("a run config passed without --config is refused, not served as the embedded defaults", async () => {
    const { code, stderr } = await commandFails(["serve", "run.json"]);
    expect(stderr.trim()).toBe(
      'sidecar: unexpected argument "run.json" after `serve`; it takes flags only. To use a run config, pass --config run.json. Run `sidecar serve --help` for its flags.',
    );
    expect(code).toBe(2);
  }, 60_000);
});
