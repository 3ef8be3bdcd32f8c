// The release workflow validates against the GitHub Actions schema and ships what install.sh and the
// npm packages expect: every target's archive, SHA256SUMS, install.sh; one repository named everywhere.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { archiveName, binaryName, TARGETS } from "../../compile.ts";
import rootPackage from "../../package.json" with { type: "json" };

const root = join(import.meta.dir, "..", "..");
const WORKFLOW = join(root, ".github", "workflows", "release.yml");

interface Step {
  run?: string;
  uses?: string;
  with?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  steps: Step[];
  strategy?: { matrix: { include: { os: string; archive: string; binary: string }[] } };
  permissions?: Record<string, string>;
}
const workflow = Bun.YAML.parse(readFileSync(WORKFLOW, "utf8")) as { on: { push: { tags: string[] } }; jobs: Record<string, Job> };
const runs = (job: string) => workflow.jobs[job]!.steps.map((s) => s.run ?? "").join("\n");

describe("the release workflow", () => {
  test("action-validator accepts it", () => {
    const result = spawnSync(join(root, "node_modules", ".bin", "action-validator"), [WORKFLOW], { encoding: "utf8" });
    expect(result.stderr + result.stdout).toBe("");
    expect(result.status).toBe(0);
  });

  test("runs on version tags, checks the tag against package.json, builds and smoke-tests every target", () => {
    expect(workflow.on.push.tags).toEqual(["v*.*.*"]);
    expect(runs("build")).toContain('"$GITHUB_REF_NAME" != "v$version"');
    expect(runs("build")).toContain("npx bun compile.ts --all");
    expect(runs("build")).toContain("npx bun build/smoke.ts dist/sidecar-linux-x64");
    // The others run natively, from the archive a user downloads, after checking it against SHA256SUMS.
    const smoked = workflow.jobs.smoke!.strategy!.matrix.include.map((m) => m.archive).sort();
    expect(smoked).toEqual(TARGETS.filter((t) => !t.startsWith("linux")).map(archiveName).sort());
    expect(runs("smoke")).toContain("-c archive.sum");
  });

  test("publishes every archive, SHA256SUMS and install.sh, only after every smoke test passed", () => {
    expect(workflow.jobs.publish!.needs).toEqual(["build", "smoke"]);
    expect(workflow.jobs.publish!.permissions).toEqual({ contents: "write" });
    const publish = runs("publish");
    for (const asset of ["dist/*.tar.gz", "dist/*.zip", "dist/SHA256SUMS", "dist/install.sh"]) expect(publish).toContain(asset);
    const uploaded = workflow.jobs.build!.steps.find((s) => s.uses?.startsWith("actions/upload-artifact"))!.with!.path!;
    const globs = uploaded.split("\n").map((line) => line.trim()).filter(Boolean);
    // Every archive and every binary (the npm packages are built from the binaries) reaches the later jobs.
    for (const target of TARGETS) {
      expect(globs.some((glob) => new Bun.Glob(glob).match(`dist/${archiveName(target)}`))).toBe(true);
      expect(globs.some((glob) => new Bun.Glob(glob).match(`dist/${binaryName(target)}`))).toBe(true);
    }
    expect(globs).toContain("dist/SHA256SUMS");
  });

  test("npm: the packages are built from the release binaries and the wrapper is published last", () => {
    const npm = runs("npm");
    expect(npm).toContain("npx bun build/npm-packages.ts --all");
    expect(npm.indexOf("dist/npm/sidecar-*/")).toBeLessThan(npm.indexOf("dist/npm/sidecar\n"));
  });
});

test("one GitHub repository is named everywhere: package.json, install.sh, the npm packages, the docs", () => {
  const slug = /github\.com\/([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(rootPackage.repository.url)![1]!;
  const files = [
    "install.sh",
    "build/npm-packages.ts",
    "packages/sidecar/README.md",
    ...readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
    "README.md",
  ];
  const named = files.flatMap((file) => [...readFileSync(join(root, file), "utf8").matchAll(/github\.com\/([\w-]+\/[\w-]+)/g)].map((m) => `${file}: ${m[1]}`));
  expect(named.length).toBeGreaterThan(3);
  expect(named.filter((entry) => !entry.endsWith(`: ${slug}`))).toEqual([]);
  expect(readFileSync(join(root, "install.sh"), "utf8")).toContain(`REPO="\${SIDECAR_REPO:-${slug}}"`);
});
