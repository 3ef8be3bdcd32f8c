// The npm packages, built from a real release build by build/npm-packages.ts, packed with `npm pack`
// and installed from the tarballs into a fresh project: `npx sidecar` runs this platform's binary.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildNpmPackages, platformPackage, WRAPPER } from "../../build/npm-packages.ts";
import { TARGETS } from "../../compile.ts";
import { VERSION } from "../../src/version.ts";
import { BUILD_TIMEOUT_MS, releaseBuild } from "./release-build.ts";

const NPM_TIMEOUT_MS = 240_000;
let work: string;
let tarballs: Record<string, string>;

function npm(args: string[], cwd: string): string {
  return execFileSync("npm", [...args, "--no-audit", "--no-fund", "--offline"], { cwd, encoding: "utf8", timeout: NPM_TIMEOUT_MS });
}

function project(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir);
  npm(["init", "-y"], dir);
  return dir;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "sidecar-npm-"));
  const dirs = buildNpmPackages(await releaseBuild(), join(work, "packages"), false);
  const packed = join(work, "tarballs");
  mkdirSync(packed);
  tarballs = {};
  for (const dir of dirs) {
    const name = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string }).name;
    const file = npm(["pack", "--silent", "--pack-destination", packed, dir], work).trim().split("\n").pop()!;
    tarballs[name] = join(packed, file);
  }
}, BUILD_TIMEOUT_MS + NPM_TIMEOUT_MS);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("npm packages", () => {
  test("the wrapper depends on one optional package per platform; each platform package names its os and cpu", () => {
    const wrapper = JSON.parse(readFileSync(join(work, "packages", "sidecar", "package.json"), "utf8")) as Record<string, unknown>;
    expect(wrapper.name).toBe(WRAPPER);
    expect(wrapper.version).toBe(VERSION);
    expect(wrapper.bin).toEqual({ sidecar: "bin/sidecar.js" });
    expect(wrapper.optionalDependencies).toEqual(Object.fromEntries(TARGETS.map((t) => [platformPackage(t), VERSION])));
    const linux = JSON.parse(readFileSync(join(work, "packages", "sidecar-linux-x64", "package.json"), "utf8")) as Record<string, unknown>;
    expect(linux).toMatchObject({ name: platformPackage("linux-x64"), version: VERSION, os: ["linux"], cpu: ["x64"], libc: ["glibc"] });
    expect(readdirSync(join(work, "packages", "sidecar-linux-x64", "bin"))).toEqual(["sidecar"]);
  });

  test("npm install of the tarballs, then `npx sidecar --version` runs the binary; exit codes pass through", () => {
    const dir = project("app");
    npm(["install", tarballs[WRAPPER]!, tarballs[platformPackage("linux-x64")]!], dir);
    const version = spawnSync("npx", ["--offline", "sidecar", "--version"], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    expect(version.stderr).toBe("");
    expect(version.stdout).toMatch(new RegExp(`^sidecar ${VERSION.replace(/\./g, "\\.")} \\([0-9a-f]{12}\\)\\n$`));
    expect(version.status).toBe(0);
    const refused = spawnSync("npx", ["--offline", "sidecar", "doctr"], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    expect(refused.stderr).toContain('sidecar: Unknown command "doctr". Did you mean `doctor`?');
    expect(refused.status).toBe(2);
  }, NPM_TIMEOUT_MS);

  test("installed without its optional dependencies, the wrapper says what is missing and how to fix it", () => {
    const dir = project("no-optional");
    npm(["install", "--omit=optional", tarballs[WRAPPER]!], dir);
    const result = spawnSync("npx", ["--offline", "sidecar", "--version"], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    expect(result.stderr).toContain(`sidecar (npm): the package ${platformPackage("linux-x64")}, which carries the sidecar binary for this platform, is not installed.`);
    expect(result.stderr).toContain("reinstall without --omit=optional");
    expect(result.status).toBe(1);
  }, NPM_TIMEOUT_MS);
});
