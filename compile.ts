// Builds the sidecar binary: `bun compile.ts` → dist/sidecar for this machine; `bun compile.ts --all`
// → dist/sidecar-<os>-<arch>[.exe] for every release target, an archive each and SHA256SUMS.
// Every grammar and embedded script is bundled in; version and commit are stamped in.
// Bun fetches each target's runtime from the npm registry once and caches it in ~/.bun/install/cache,
// so later builds work offline (docs/release.md).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

export const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const;
export type Target = (typeof TARGETS)[number];
/** What every archive holds beside the binary: a user's documentation, every link in it resolving there. */
export const SHIPPED_FILES = ["README.md", "LICENSE", "docs"] as const;
/** No release binary may grow past this. */
export const SIZE_BUDGET_BYTES = 130 * 1024 * 1024;

const root = import.meta.dir;
const dist = join(root, "dist");

function commit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "unknown";
  }
}

export function binaryName(target: Target | undefined): string {
  if (!target) return "sidecar";
  return `sidecar-${target}${target.startsWith("windows") ? ".exe" : ""}`;
}

async function build(target: Target | undefined): Promise<string> {
  const outfile = join(dist, binaryName(target));
  const result = await Bun.build({
    // The parse worker is another entrypoint so the binary embeds it (src/runtime/parse-worker.bun.ts).
    entrypoints: [join(root, "src", "main.ts"), join(root, "src", "syntax", "parse-worker.ts")],
    compile: {
      outfile,
      ...(target ? { target: `bun-${target}` as Bun.Build.CompileTarget } : {}),
      // A compiled Bun binary reads bunfig.toml (whose `preload` runs code) and .env from the
      // directory it starts in, which for sidecar is usually the checkout: a cloned repository
      // could run code in, or set the tokens of, every sidecar started there.
      autoloadBunfig: false,
      autoloadDotenv: false,
      autoloadTsconfig: false,
      autoloadPackageJson: false,
    },
    minify: true,
    // Precompiled bytecode: the bundle is several MB of JavaScript, and parsing it dominated start-up.
    bytecode: true,
    sourcemap: "linked",
    define: { SIDECAR_COMMIT: JSON.stringify(commit()) },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`build failed for ${target ?? "this machine"}`);
  }
  return outfile;
}

/** One archive per target: the binary plus README and LICENSE-style notes, as .tar.gz. */
function archive(binary: string): string {
  const archivePath = `${binary.replace(/\.exe$/, "")}.tar.gz`;
  execFileSync("tar", ["-czf", archivePath, "-C", dist, basename(binary), "-C", root, "README.md"]);
  return archivePath;
}

function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

async function main(): Promise<void> {
  const all = process.argv.includes("--all");
  mkdirSync(dist, { recursive: true });
  const sums: string[] = [];
  const oversize: string[] = [];
  for (const target of all ? TARGETS : [undefined]) {
    const started = performance.now();
    const binary = await build(target);
    const size = statSync(binary).size;
    console.log(
      `built ${binary} (${(size / 1024 / 1024).toFixed(1)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    if (size > SIZE_BUDGET_BYTES) oversize.push(`${basename(binary)} is ${(size / 1024 / 1024).toFixed(1)} MB`);
    if (all) {
      const packed = archive(binary);
      sums.push(`${sha256(binary)}  ${basename(binary)}`, `${sha256(packed)}  ${basename(packed)}`);
    }
  }
  if (all) {
    writeFileSync(join(dist, "SHA256SUMS"), `${sums.join("\n")}\n`);
    console.log(`wrote ${join(dist, "SHA256SUMS")}`);
  }
  if (oversize.length) {
    console.error(`Over the ${SIZE_BUDGET_BYTES / 1024 / 1024} MB size budget: ${oversize.join("; ")}`);
    process.exit(1);
  }
}

if (import.meta.main) await main();
