// `serve` starts itself over (same pid) with the engine options it needs (ENGINE_OPTIONS: the cap on
// which WebAssembly functions the optimising tier compiles, and JavaScript without its top tier),
// which the engine reads only at its start; its children never inherit them. A harness that set one itself keeps its own choice.
// /proc/<pid>/environ is the environment the process image began with: what the engine read.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSidecar } from "../../build/spawn-sidecar.ts";
import { ENGINE_OPTIONS, startOverWithEngineOptions } from "../../src/platform/engine-options.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");
const NAME = Object.keys(ENGINE_OPTIONS)[0]!;

function startingEnvironment(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
}

async function kernelSees(env: NodeJS.ProcessEnv): Promise<{ pid: number; childPid: number; environ: string[]; kernel: string }> {
  await using dir = await tempDir();
  await dir.write({ "run.json": JSON.stringify({ workdir: dir.path, resources: { kernels: {} } }) });
  await using sidecar = await spawnSidecar([process.execPath, MAIN, "serve", "--config", join(dir.path, "run.json")], { env });
  const client = await sidecar.connect("default");
  const cell = await client.callTool({
    name: "eval",
    arguments: { code: `import os\nprint(sorted(k for k in os.environ if k.startswith(("BUN_JSC_", "SIDECAR_ENGINE"))), os.environ.get(${JSON.stringify(NAME)}))`, description: "what the kernel inherited" },
  });
  return { pid: sidecar.ready.pid, childPid: sidecar.child.pid!, environ: startingEnvironment(sidecar.ready.pid), kernel: JSON.stringify(cell.content) };
}

describe("engine options", () => {
  test("serve starts over in place with them set, and no child inherits them", async () => {
    const env = { ...process.env };
    for (const name of Object.keys(env)) if (name.startsWith("BUN_JSC_")) delete env[name];
    const seen = await kernelSees(env);
    expect(seen.pid).toBe(seen.childPid); // replaced itself: the harness's pid is the server's
    for (const [name, value] of Object.entries(ENGINE_OPTIONS)) expect(seen.environ).toContain(`${name}=${value}`);
    expect(seen.kernel).toContain("[] None");
  }, 60_000);

  test("a harness that set one keeps its value, and the sidecar does not start over", async () => {
    const seen = await kernelSees({ ...process.env, [NAME]: "7000" });
    expect(seen.environ).toContain(`${NAME}=7000`);
    for (const name of Object.keys(ENGINE_OPTIONS).filter((other) => other !== NAME)) expect(seen.environ.some((entry) => entry.startsWith(`${name}=`))).toBe(false);
    expect(seen.environ.some((entry) => entry.startsWith("SIDECAR_ENGINE_OPTIONS_SET="))).toBe(false);
    expect(seen.kernel).toContain(`['${NAME}'] 7000`);
  }, 60_000);

  // In this process, without replacing it: the two answers that return (the bench scripts print them).
  test("says whose options the engine runs with", () => {
    const saved = { ...process.env };
    try {
      for (const name of Object.keys(process.env)) if (name.startsWith("BUN_JSC_") || name.startsWith("SIDECAR_ENGINE")) delete process.env[name];
      process.env[NAME] = "7000";
      expect(startOverWithEngineOptions()).toBe("caller's");
      expect(process.env[NAME]).toBe("7000");
      Object.assign(process.env, ENGINE_OPTIONS, { SIDECAR_ENGINE_OPTIONS_SET: "1" });
      expect(startOverWithEngineOptions()).toBe("own");
      for (const name of [...Object.keys(ENGINE_OPTIONS), "SIDECAR_ENGINE_OPTIONS_SET"]) expect(process.env[name]).toBeUndefined();
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });
});
