// Regenerates src/lsp/provision/locks/<install>.lock, the Bun lockfile (with integrity hashes) of each
// language server the sidecar installs from npm, from the pins in src/lsp/catalog-npm.ts.
// Run after changing a pin: `npx bun build/server-locks.ts`; then review and commit the lockfiles.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NPM_SERVERS } from "../src/lsp/catalog-npm.ts";
import { manifestOf } from "../src/lsp/provision/manifest.ts";

const LOCKS = join(import.meta.dir, "..", "src", "lsp", "provision", "locks");
const only = new Set(process.argv.slice(2));
const done = new Set<string>();

for (const spec of NPM_SERVERS) {
  const npm = spec.npm!;
  const name = npm.name ?? spec.id;
  if (done.has(name) || (only.size > 0 && !only.has(name))) continue;
  done.add(name);
  const dir = mkdtempSync(join(tmpdir(), `server-lock-${name}-`));
  try {
    writeFileSync(join(dir, "package.json"), manifestOf(name, npm));
    execFileSync(process.execPath, ["install", "--lockfile-only", "--ignore-scripts"], { cwd: dir, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, BUN_BE_BUN: "1" } });
    copyFileSync(join(dir, "bun.lock"), join(LOCKS, `${name}.lock`));
    console.log(`${name}: locks/${name}.lock`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
