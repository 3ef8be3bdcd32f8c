// A script run with the sidecar's own Bun, in a checkout that carries a bunfig.toml preload and a
// .env: neither takes effect (the compiled binary's own case is in build/smoke.ts).
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ownBunCommand } from "../../src/platform/own-bun.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";

/** A checkout whose bunfig.toml preload writes `preloaded` and whose .env sets CHECKOUT_CHOSE, with `scripts`. */
async function checkout(dir: TempDir, scripts: Record<string, string>): Promise<string> {
  const preloaded = join(dir.path, "preloaded");
  await dir.write({
    "evil.ts": `require("node:fs").writeFileSync(${JSON.stringify(preloaded)}, "ran");\n`,
    "bunfig.toml": 'preload = ["./evil.ts"]\n',
    ".env": "CHECKOUT_CHOSE=yes\n",
    ...scripts,
  });
  return preloaded;
}

/** `server.js` run in the checkout as the sidecar runs a script with its own Bun. */
function runOwnBun(dir: TempDir) {
  const { command, args, env } = ownBunCommand(["server.js"]);
  return spawnSync(command, args, { cwd: dir.path, env: { ...process.env, ...env }, encoding: "utf8" });
}

const PRINT_ENV = "console.log(JSON.stringify({ env: process.env.CHECKOUT_CHOSE ?? null }));\n";

test("a script run with the sidecar's Bun in a checkout reads neither its bunfig.toml nor its .env", async () => {
  await using dir = await tempDir();
  const preloaded = await checkout(dir, { "server.js": PRINT_ENV });
  const run = runOwnBun(dir);
  expect(run.status).toBe(0);
  expect(JSON.parse(run.stdout)).toEqual({ env: null });
  expect(existsSync(preloaded)).toBe(false);

  // The same checkout, run as plain Bun would be: both take effect, so the test above can fail.
  const plain = spawnSync(process.execPath, ["server.js"], { cwd: dir.path, env: process.env, encoding: "utf8" });
  expect(JSON.parse(plain.stdout)).toEqual({ env: "yes" });
  expect(existsSync(preloaded)).toBe(true);
});

test("a Bun process the script forks with an execArgv of its own reads neither either (tsserver's case)", async () => {
  await using dir = await tempDir();
  const preloaded = await checkout(dir, {
    // typescript-language-server forks tsserver so: `execArgv: []` drops the flags it was started with.
    "server.js": 'const child = require("node:child_process").fork("./child.js", [], { execArgv: [], stdio: "inherit" });\nchild.on("exit", (code) => process.exit(code ?? 1));\n',
    "child.js": PRINT_ENV,
  });
  const run = runOwnBun(dir);
  expect(run.status).toBe(0);
  expect(JSON.parse(run.stdout)).toEqual({ env: null });
  expect(existsSync(preloaded)).toBe(false);
});
