// Two clean builds of one commit, checked out in two different directories, give byte-identical
// binaries, source maps, archives and SHA256SUMS. Builds HEAD: uncommitted edits are not in it.
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { tempDir } from "../helpers/temp-dir.ts";

const root = join(import.meta.dir, "..", "..");
const BUILD_TIMEOUT_MS = 240_000;

/** A clean checkout of HEAD at `dir`, with node_modules hard-linked in (a real folder, as `npm ci` makes it). */
function checkout(dir: string): void {
  execFileSync("git", ["clone", "--quiet", "--no-hardlinks", root, dir]);
  execFileSync("git", ["-C", dir, "checkout", "--quiet", execFileSync("git", ["-C", root, "rev-parse", "HEAD"], { encoding: "utf8" }).trim()]);
  execFileSync("cp", ["-al", realpathSync(join(root, "node_modules")), join(dir, "node_modules")]);
}

function build(dir: string): Record<string, string> {
  execFileSync(process.execPath, ["compile.ts", "--target", "linux-x64"], { cwd: dir, stdio: "ignore", timeout: BUILD_TIMEOUT_MS });
  const dist = join(dir, "dist");
  return Object.fromEntries(readdirSync(dist).sort().map((name) => [name, createHash("sha256").update(readFileSync(join(dist, name))).digest("hex")]));
}

test("two checkouts of one commit build the same bytes", async () => {
  await using first = await tempDir();
  await using second = await tempDir();
  checkout(join(first.path, "sidecar"));
  checkout(join(second.path, "elsewhere", "sidecar-copy"));
  const a = build(join(first.path, "sidecar"));
  const b = build(join(second.path, "elsewhere", "sidecar-copy"));
  expect(Object.keys(a)).toEqual(expect.arrayContaining(["sidecar-linux-x64", "sidecar-linux-x64.tar.gz", "sidecar-linux-x64.map", "SHA256SUMS"]));
  expect(b).toEqual(a);
}, 2 * BUILD_TIMEOUT_MS);
