// Smoke test of a built binary: `bun build/smoke.ts dist/sidecar [--runner "qemu-aarch64-static -L …"]`.
// Copies the binary alone into an empty directory, then: --version, doctor, serve with a temp
// config, the official MCP client lists tools per surface and calls one, and a clean shutdown
// leaves no process behind.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { randomUUID } from "node:crypto";
import { spawnSidecar } from "./spawn-sidecar.ts";
import { waitForNoLeftovers } from "./leftovers.ts";
import manifest from "../grammars/manifest.json" with { type: "json" };

const [binaryArg, ...rest] = process.argv.slice(2);
if (!binaryArg) {
  console.error("usage: bun build/smoke.ts BINARY [--runner 'CMD ARGS']");
  process.exit(2);
}
const runnerIndex = rest.indexOf("--runner");
const runner = runnerIndex >= 0 ? (rest[runnerIndex + 1] ?? "").split(" ").filter(Boolean) : [];
/** Emulated binaries start slowly; give them time. */
const READY_TIMEOUT_MS = runner.length ? 180_000 : 30_000;

const empty = mkdtempSync(join(tmpdir(), "sidecar-smoke-"));
const binary = join(empty, basename(binaryArg));
copyFileSync(resolve(binaryArg), binary);
const started = performance.now();
const step = (what: string) => console.log(`smoke: ${what} (${((performance.now() - started) / 1000).toFixed(1)} s)`);

function run(args: string[]): string {
  return execFileSync(runner[0] ?? binary, [...runner.slice(1), ...(runner.length ? [binary] : []), ...args], {
    cwd: empty,
    encoding: "utf8",
    timeout: READY_TIMEOUT_MS,
  });
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`smoke: ${message}`);
}

try {
  const version = run(["--version"]);
  check(/^sidecar \d+\.\d+\.\d+/.test(version), `--version printed ${JSON.stringify(version)}`);
  step(`--version: ${version.trim()}`);

  const doctor = run(["doctor", "--json"]); // exits non-zero (and throws here) when a grammar fails to load
  const rows = (JSON.parse(doctor) as { rows: { group: string; name: string; status: string }[] }).rows;
  const missing = manifest.grammars.filter((g) => !rows.some((row) => row.group === "grammars" && row.name === g.id && row.status === "ok"));
  check(missing.length === 0, `doctor did not load ${missing.map((g) => g.id).join(", ")}:\n${doctor}`);
  step("doctor: every grammar loads from inside the binary");

  const workdir = join(empty, "work");
  mkdirSync(workdir);
  writeFileSync(join(workdir, "app.py"), "def area(r):\n    return 3.14 * r * r\n\nprint(area(2))\n");
  const config = join(empty, "run.json");
  writeFileSync(config, JSON.stringify({ workdir, conversation: "smoke", resources: { parser: {} } }));

  // The directory it starts in is usually the checkout: its bunfig.toml and .env must do nothing.
  const preloaded = join(empty, "preloaded-by-the-checkout");
  writeFileSync(join(empty, "checkout-preload.ts"), `require("node:fs").writeFileSync(${JSON.stringify(preloaded)}, "ran")\n`);
  writeFileSync(join(empty, "bunfig.toml"), 'preload = ["./checkout-preload.ts"]\n');
  const checkoutToken = "chosen-by-the-checkout-0123456789";
  writeFileSync(join(empty, ".env"), `SIDECAR_TOKEN=${checkoutToken}\n`);

  const marker = randomUUID();
  const sidecar = await spawnSidecar([...runner, binary, "serve", "--config", config], {
    cwd: empty,
    env: { ...process.env, SIDECAR_SMOKE_MARK: marker },
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
  step(`serve: ready at ${sidecar.ready.url}`);
  check(!existsSync(preloaded), "the binary ran the preload of a bunfig.toml in the directory it started in");
  check(sidecar.ready.surfaces.default !== checkoutToken, "the binary took SIDECAR_TOKEN from a .env in the directory it started in");
  step("the start directory's bunfig.toml and .env are not read");
  try {
    const client = await sidecar.connect("default");
    const all = await client.listTools();
    const planClient = await sidecar.connect("plan");
    const plan = await planClient.listTools();
    check(plan.tools.every((t) => t.annotations?.readOnlyHint === true), "the plan surface lists a non-read tool");
    check(all.tools.some((t) => t.name === "ast_edit") && !plan.tools.some((t) => t.name === "ast_edit"), "ast_edit must be on default only");
    step(`tools: default sees ${all.tools.length}, plan sees ${plan.tools.length}`);
    const found = await planClient.callTool({ name: "ast_grep", arguments: { pattern: "$A * $B", path: "app.py" } });
    const matches = (found.structuredContent as { matches?: unknown[] } | undefined)?.matches ?? [];
    check(!found.isError && matches.length === 2, `ast_grep found ${matches.length} matches: ${JSON.stringify(found)}`);
    step("ast_grep: 2 matches in the fixture, through the plan surface");
  } finally {
    const code = await sidecar.stop();
    check(code === 0, `serve exited with ${code} after SIGTERM; stderr:\n${sidecar.stderr()}`);
  }
  const left = await waitForNoLeftovers("SIDECAR_SMOKE_MARK", marker);
  check(left.length === 0, `processes survived the shutdown: ${left.join(", ")}`);
  step("shutdown: clean, no process left");
  console.log("smoke: passed");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  rmSync(empty, { recursive: true, force: true });
}
