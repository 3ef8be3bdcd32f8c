// Builds the npm packages from the release binaries: `bun build/npm-packages.ts [--dist DIR] [--out DIR] [--all]`.
// One package per platform carries its binary (os/cpu set, so npm installs only the matching one), and
// the wrapper @sidecar-mcp/sidecar depends on all of them as optional and runs the one installed
// (the esbuild/biome pattern). Publishing them is a release step (docs/release.md).
import { chmodSync, copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import rootPackage from "../package.json" with { type: "json" };
import { binaryName, TARGETS, type Target } from "../compile.ts";

export const SCOPE = "@sidecar-mcp";
export const WRAPPER = `${SCOPE}/sidecar`;
export const platformPackage = (target: Target) => `${SCOPE}/sidecar-${target}`;

const root = resolve(import.meta.dir, "..");
const NODE_PLATFORM = { linux: "linux", darwin: "darwin", windows: "win32" } as const;

const common = {
  version: rootPackage.version,
  license: rootPackage.license,
  repository: rootPackage.repository,
  homepage: "https://github.com/sidecar-mcp/sidecar#readme",
};

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

function platformDir(out: string, target: Target, dist: string): string {
  const [os, cpu] = target.split("-") as [keyof typeof NODE_PLATFORM, string];
  const dir = join(out, `sidecar-${target}`);
  const binary = `sidecar${os === "windows" ? ".exe" : ""}`;
  mkdirSync(join(dir, "bin"), { recursive: true });
  copyFileSync(join(dist, binaryName(target)), join(dir, "bin", binary));
  chmodSync(join(dir, "bin", binary), 0o755);
  copyFileSync(join(root, "LICENSE"), join(dir, "LICENSE"));
  writeFileSync(join(dir, "README.md"), `# ${platformPackage(target)}\n\nThe sidecar binary for ${target}, installed by [${WRAPPER}](https://www.npmjs.com/package/${WRAPPER}); use that package.\n`);
  writeJson(join(dir, "package.json"), {
    name: platformPackage(target),
    ...common,
    description: `The sidecar binary for ${target}; install ${WRAPPER}, which runs it.`,
    os: [NODE_PLATFORM[os]],
    cpu: [cpu],
    // Bun's Linux builds link glibc; npm ≥ 10.4 skips this package on musl (Alpine) instead of installing a binary that cannot start.
    ...(os === "linux" ? { libc: ["glibc"] } : {}),
    files: [`bin/${binary}`, "LICENSE", "README.md"],
    preferUnplugged: true,
  });
  return dir;
}

function wrapperDir(out: string): string {
  const dir = join(out, "sidecar");
  mkdirSync(join(dir, "bin"), { recursive: true });
  copyFileSync(join(root, "packages", "sidecar", "bin", "sidecar.js"), join(dir, "bin", "sidecar.js"));
  chmodSync(join(dir, "bin", "sidecar.js"), 0o755);
  copyFileSync(join(root, "packages", "sidecar", "README.md"), join(dir, "README.md"));
  copyFileSync(join(root, "LICENSE"), join(dir, "LICENSE"));
  writeJson(join(dir, "package.json"), {
    name: WRAPPER,
    ...common,
    description: rootPackage.description,
    bin: { sidecar: "bin/sidecar.js" },
    files: ["bin/sidecar.js", "LICENSE", "README.md"],
    engines: { node: ">=18" },
    optionalDependencies: Object.fromEntries(TARGETS.map((target) => [platformPackage(target), rootPackage.version])),
  });
  return dir;
}

/** The package folders: the wrapper and one per target whose binary is in `dist` (all five with `requireAll`). */
export function buildNpmPackages(dist: string, out: string, requireAll: boolean): string[] {
  const missing = TARGETS.filter((target) => !existsSync(join(dist, binaryName(target))));
  if (requireAll && missing.length) throw new Error(`no binary in ${dist} for ${missing.join(", ")}; run \`bun compile.ts --all\` first`);
  rmSync(out, { recursive: true, force: true });
  return [wrapperDir(out), ...TARGETS.filter((t) => !missing.includes(t)).map((target) => platformDir(out, target, dist))];
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const option = (name: string, fallback: string) => resolve(argv[argv.indexOf(name) + 1] && argv.includes(name) ? argv[argv.indexOf(name) + 1]! : fallback);
  const dirs = buildNpmPackages(option("--dist", join(root, "dist")), option("--out", join(root, "dist", "npm")), argv.includes("--all"));
  for (const dir of dirs) console.log(`package: ${dir}`);
  console.log("publish the platform packages first, then the wrapper: docs/release.md");
}
