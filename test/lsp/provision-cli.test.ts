// `sidecar servers`: list, and the refusals that say what to type instead (installs themselves: provision.test.ts).
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../helpers/temp-dir.ts";

const MAIN = resolve(import.meta.dir, "../../src/main.ts");

function sidecar(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [MAIN, ...args], { encoding: "utf8", env: { ...process.env, XDG_CACHE_HOME: "/nonexistent-cache-home" } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("sidecar servers", () => {
  test("list shows each npm install, installed with its size or not, and a stray install not in the catalog", async () => {
    await using cache = await tempDir("sidecar-cache-");
    mkdirSync(join(cache.path, "pyright-old@1.1.300", "node_modules"), { recursive: true });
    writeFileSync(join(cache.path, "pyright-old@1.1.300", "node_modules", "x.js"), "x".repeat(5000));
    const r = sidecar("servers", "list", "--cache-dir", cache.path);
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith(`Install cache: ${cache.path}\n`);
    expect(r.stdout).toMatch(/typescript@5\.3\.0\s+typescript\s+not installed \(installs on first use\)/);
    expect(r.stdout).toMatch(/vscode-langservers-extracted@4\.10\.0\s+json, html, css\s+not installed/);
    expect(r.stdout).toMatch(/pyright-old@1\.1\.300\s+not in this sidecar's catalog, 8 KB \(sidecar servers remove pyright-old@1\.1\.300\)/);
    expect(r.stdout).toContain("Not installed by the sidecar (from PATH or a configured command): go, rust, c, dart, java,");
    const removed = sidecar("servers", "remove", "pyright-old@1.1.300", "--cache-dir", cache.path);
    expect(removed.stdout).toBe("pyright-old@1.1.300: removed\n");
  });

  test.each([
    [["servers"], "`servers` needs ACTION (list, install or remove)."],
    [["servers", "install"], "`servers install` needs server ids or --all, e.g. `sidecar servers install typescript python`."],
    [["servers", "install", "typscript"], 'No server "typscript" in the catalog. Installable: typescript, python, bash, yaml, json, html, css, dockerfile, php, vue, svelte, astro, sql, graphql, prisma.'],
    [["servers", "install", "go"], "The go server is not installed by the sidecar (it is not on npm): apt-get install gopls golang-go (or: go install golang.org/x/tools/gopls@latest)."],
    [["servers", "remove", "../../etc@1"], '"../../etc@1" is not an install name (name@version)'],
    [["servers", "list", "--cache-dir", "relative/dir"], '--cache-dir needs an absolute path, got "relative/dir".'],
  ])("sidecar %j is refused: %s", (args, message) => {
    const r = sidecar(...args);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(message);
  });
});
