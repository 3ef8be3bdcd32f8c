// The attack that made the executable lookup one policy (src/platform/executables.ts): PATH's first
// entry is a folder outside the checkout that is a symlink to a folder inside it, holding programs
// the sidecar starts by name. Untrusted (`trust: "none"`), none of them may run, for any kind of
// child: a language server, a checker, a debug adapter and its python, a kernel's interpreter, a
// background or doctor probe, git, and the shell behind each child's orphan watcher. Each planted
// program leaves a mark and then runs the real one, so every call still works and the test shows
// the call really reached the child it names; a trusted run shows the planting is live.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { spawnSidecar } from "../../build/spawn-sidecar.ts";
import { findExecutable, TRUST_ALL } from "../../src/platform/executables.ts";
import { MAIN, runCli } from "../cli/run-cli.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";

const TEST_TIMEOUT_MS = 240_000;

/** Names the sidecar or its children start through PATH; each real one is run by its path after the mark. */
const PLANTED = ["python3", "python", "bash", "sh", "git", "clang", "clangd", "dlv", "lldb-dap", "go", "node"];
/** debugpy lives with the system python; the planted python must be worth choosing. */
const REAL: Record<string, string | undefined> = Object.fromEntries(
  PLANTED.map((name) => [name, name.startsWith("python") && existsSync("/usr/bin/python3") ? "/usr/bin/python3" : findExecutable(name, { trust: TRUST_ALL })]),
);

interface Planted {
  dir: TempDir;
  workdir: string;
  marks: string;
  env: NodeJS.ProcessEnv;
  config: string;
}

/** The checkout (a C file with compile_commands.json, a Python program) and PATH led into its .tools/. */
async function plant(dir: TempDir, trust: "none" | "workspace"): Promise<Planted> {
  const workdir = join(dir.path, "checkout");
  const marks = join(dir.path, "marks");
  await dir.write({
    "checkout/main.c": "int add(int a, int b) { return a + b; }\nint main(void) { return add(1, 2); }\n",
    "checkout/compile_commands.json": JSON.stringify([{ directory: ".", file: "main.c", arguments: ["cc", "-c", "main.c"] }]),
    "checkout/app.py": "print('hello from app')\n",
    "checkout/pyproject.toml": "",
    "marks/.keep": "",
  });
  for (const name of PLANTED) {
    const real = REAL[name];
    const script = join(workdir, ".tools", name);
    await dir.write({ [`checkout/.tools/${name}`]: `#!/bin/sh\n/usr/bin/touch "${marks}/${name}"\n${real ? `exec "${real}" "$@"` : "exit 1"}\n` });
    chmodSync(script, 0o755);
  }
  // Outside the checkout by name; inside it by real path.
  symlinkSync(join(workdir, ".tools"), join(dir.path, "tools"));
  const config = join(dir.path, "run.json");
  writeFileSync(config, JSON.stringify({ trust, resources: { parser: {}, languageServers: { install: "never" }, debugAdapters: {}, kernels: {} } }));
  return { dir, workdir, marks, env: { ...process.env, PATH: `${join(dir.path, "tools")}:${process.env.PATH}` }, config };
}

/** The planted programs that ran since the last look, and the marks cleared. */
function ranSince(marks: string): string[] {
  const ran = readdirSync(marks).filter((name) => name !== ".keep");
  for (const name of ran) rmSync(join(marks, name));
  return ran.sort();
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 180_000 });
  const text = (result.content as { text: string }[])[0]?.text ?? "";
  if (result.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${text}`);
  return text;
}

describe("an untrusted run with a planted program first on PATH through a symlink", () => {
  let dir: TempDir;
  let planted: Planted;
  beforeAll(async () => {
    dir = await tempDir();
    planted = await plant(dir, "none");
  });
  afterAll(async () => {
    await dir[Symbol.asyncDispose]();
  });

  test("runs none of them: not for a server, a checker, an adapter, an interpreter, a probe or a watcher", async () => {
    const { workdir, marks, env, config } = planted;
    const ran: Record<string, string[]> = {};
    const failed: Record<string, string> = {};
    // Each step's planted programs are noted, and a step that fails does not hide the later ones.
    const step = async (name: string, work: () => Promise<unknown>) => {
      await work().catch((error: Error) => (failed[name] = error.message));
      const names = ranSince(marks);
      if (names.length) ran[name] = names;
    };
    const sidecar = await spawnSidecar([process.execPath, MAIN, "serve", "--config", config, "--workdir", workdir], { env });
    try {
      const client = await sidecar.connect();
      // The language server, and the start-up probes (debugpy's python in the background, git's snapshot).
      await step("lsp hover (clangd) and the start-up probes", async () => expect(await call(client, "lsp", { action: "hover", file: "main.c", line: 1, symbol: "add" })).toContain("add"));
      await step("lsp diagnostics * (the untrusted C checker)", async () => expect(await call(client, "lsp", { action: "diagnostics", file: "*" })).toContain("clang"));
      await step("debug adapters (adapter probes)", () => call(client, "debug", { operation: "adapters" }));
      await step("debug launch app.py (debugpy and its python)", async () => expect(await call(client, "debug", { operation: "launch", program: "app.py" })).toContain("hello from app"));
      await step("eval python", async () => expect(await call(client, "eval", { code: "6 * 7", description: "multiply two small numbers here" })).toContain("42"));
      await step("eval javascript", async () => expect(await call(client, "eval", { code: "6 * 7", description: "multiply two small numbers here", language: "javascript" })).toContain("42"));
    } finally {
      await step("the run's close", () => sidecar.stop());
    }
    await step("sidecar doctor (every probe)", async () => {
      const doctor = runCli(["doctor", "--json", "--config", config, "--workdir", workdir], { env, timeoutMs: 180_000 });
      if (doctor.code !== 0) throw new Error(`exit ${doctor.code}: ${doctor.stderr}`);
    });
    expect({ ran, failed }).toEqual({ ran: {}, failed: {} });
  }, TEST_TIMEOUT_MS);
});

describe("a trusted run with the same PATH", () => {
  test("uses the planted python, which shows the planting is live", async () => {
    await using dir = await tempDir();
    const { workdir, marks, env, config } = await plant(dir, "workspace");
    const sidecar = await spawnSidecar([process.execPath, MAIN, "serve", "--config", config, "--workdir", workdir], { env });
    try {
      const client = await sidecar.connect();
      await call(client, "debug", { operation: "adapters" });
    } finally {
      await sidecar.stop();
    }
    expect(ranSince(marks)).toContain("python3");
  }, TEST_TIMEOUT_MS);
});
