// The same Hono app answers under Bun, Node (@hono/node-server) and Deno, driven by the official SDK client.
import { beforeAll, describe, expect, test } from "bun:test";
import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { spawnSidecar } from "../../build/spawn-sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const root = join(import.meta.dir, "..", "..");
const nodeBundle = join(root, "dist", "test", "sidecar.node.mjs");

beforeAll(() => {
  execFileSync(process.execPath, ["build", join(root, "src", "main.node.ts"), "--target=node", "--outfile", nodeBundle], {
    stdio: "pipe",
  });
});

// Every row has three elements: bun's test.each treats a callback with more parameters than the row as async-done style.
const runtimes: [string, (workdir: string) => string[], NodeJS.ProcessEnv][] = [
  ["bun", (w) => [process.execPath, join(root, "src", "main.ts"), "serve", "--workdir", w], process.env],
  ["node", (w) => ["node", nodeBundle, "serve", "--workdir", w], { ...process.env, SIDECAR_ROOT: root }],
  ["deno", (w) => [join(root, "node_modules", ".bin", "deno"), "run", "-A", join(root, "src", "main.deno.ts"), "serve", "--workdir", w], process.env],
];

describe("the app under each runtime", () => {
  test.each(runtimes)("%s: serves MCP, lists tools per surface, answers ping, stops on SIGTERM", async (_name, argv, env) => {
    await using dir = await tempDir();
    const sidecar = await spawnSidecar(argv(dir.path), { env, cwd: root });
    try {
      expect(sidecar.ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(Object.keys(sidecar.ready.surfaces).sort()).toEqual(["default", "explore", "plan"]);
      const client = await sidecar.connect("default");
      expect(client.getServerVersion()?.name).toBe("sidecar");
      const all = await client.listTools();
      const plan = await (await sidecar.connect("plan")).listTools();
      expect(plan.tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
      expect(plan.tools.length).toBeLessThanOrEqual(all.tools.length);
      await expect(client.ping()).resolves.toBeDefined();
    } finally {
      expect(await sidecar.stop()).toBe(0);
    }
  });
});

/** Runs a serve that must fail; its exit code and stderr. */
async function failedServe(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  const [command, ...args] = argv;
  const child = spawn(command!, args, { env, cwd: root, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, stderr: stderr.trim() };
}

describe("start-up failures under each runtime: one line, exit 2", () => {
  test.each(runtimes)("%s: a port another process holds names the address", async (_name, argv, env) => {
    await using dir = await tempDir();
    const holder = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("taken") });
    try {
      const { code, stderr } = await failedServe([...argv(dir.path), "--listen", `127.0.0.1:${holder.port}`], env);
      expect(stderr).toStartWith(`sidecar: listen: port ${holder.port} on 127.0.0.1 is already in use by another process`);
      expect(stderr.split("\n")).toHaveLength(1);
      expect(code).toBe(2);
    } finally {
      holder.stop(true);
    }
  });

  // A sidecar holding the port, not a bare listener: Bun's production server set SO_REUSEPORT, and
  // a second sidecar then shared the port with the first (the kernel split connections between them).
  test.each(runtimes)("%s: a port another sidecar serves on stops the second one before its ready line", async (_name, argv, env) => {
    await using first = await tempDir();
    await using second = await tempDir();
    const holder = await spawnSidecar([process.execPath, join(root, "src", "main.ts"), "serve", "--workdir", first.path], { cwd: root });
    try {
      const port = new URL(holder.ready.url).port;
      const contender = spawn(argv(second.path)[0]!, [...argv(second.path).slice(1), "--listen", `127.0.0.1:${port}`], { env, cwd: root, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      contender.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        contender.kill("SIGTERM"); // it printed a ready line: it serves too, which fails below
      });
      contender.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => contender.once("exit", resolve));
      expect(stdout).toBe(""); // no ready line
      expect(stderr.trim()).toBe(
        `sidecar: listen: port ${port} on 127.0.0.1 is already in use by another process (another sidecar, perhaps). Stop that one, or pick another port with --listen 127.0.0.1:PORT (0 picks any free port).`,
      );
      expect(code).toBe(2);
      // The first sidecar still answers alone.
      await expect((await holder.connect("default")).ping()).resolves.toBeDefined();
    } finally {
      expect(await holder.stop()).toBe(0);
    }
  });

  test.each(runtimes)("%s: an unknown flag points to --help", async (_name, argv, env) => {
    await using dir = await tempDir();
    const { code, stderr } = await failedServe([...argv(dir.path), "--bogus"], env);
    expect(stderr).toStartWith("sidecar: Unknown option '--bogus'");
    expect(stderr).toEndWith("Run `sidecar serve --help` for its flags.");
    expect(stderr.split("\n")).toHaveLength(1);
    expect(code).toBe(2);
  });
});
