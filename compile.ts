// Builds the sidecar binary: `bun compile.ts` → dist/sidecar for this machine; `bun compile.ts --all`
// (or `--target linux-x64`, repeatable) → dist/sidecar-<os>-<arch>[.exe] per release target, an
// archive each (.tar.gz, .zip for Windows: the binary, README.md, LICENSE, docs/) and SHA256SUMS.
// Every grammar and embedded script is bundled in; version and commit are stamped in. Two builds of
// one commit are byte-identical (docs/release.md).
// Bun fetches each target's runtime from the npm registry once and caches it in ~/.bun/install/cache,
// so later builds work offline (docs/release.md).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { tarGz, zip, type ArchiveEntry } from "./build/archive.ts";
import { reproduciblePaths } from "./build/reproducible-paths.ts";

export const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const;
export type Target = (typeof TARGETS)[number];
/** What every archive holds beside the binary: a user's documentation, every link in it resolving there. */
export const SHIPPED_FILES = ["README.md", "LICENSE", "docs"] as const;
/** No release binary may grow past this. */
export const SIZE_BUDGET_BYTES = 130 * 1024 * 1024;

const root = import.meta.dir;
/** Where the build goes: dist/, or `--outdir DIR` (tests build into a temporary folder). */
const outdirAt = process.argv.indexOf("--outdir");
const dist = outdirAt > 0 && process.argv[outdirAt + 1] ? resolve(process.argv[outdirAt + 1]!) : join(root, "dist");

function git(args: string[]): string | undefined {
  try {
    return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

const commit = () => git(["rev-parse", "--short=12", "HEAD"]) ?? "unknown";

/** The one time every archive entry carries: SOURCE_DATE_EPOCH when set, else the commit's own time. */
function archiveTime(): number {
  const given = Number(process.env.SOURCE_DATE_EPOCH ?? git(["log", "-1", "--format=%ct"]));
  return Number.isFinite(given) && given > 0 ? given : 0;
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
    // In chunks, each loaded when first imported: `serve` starts itself over once (engine-options.ts),
    // and that first start, like `--version` or a kernel, no longer loads every module's bytecode
    // (a bare entry reaches its first line in 8 ms, one in the single bundle in 27).
    format: "esm",
    splitting: true,
    sourcemap: "linked",
    define: { SIDECAR_COMMIT: JSON.stringify(commit()) },
    plugins: [reproduciblePaths(root)],
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`build failed for ${target ?? "this machine"}`);
  }
  return outfile;
}

export function archiveName(target: Target): string {
  return `sidecar-${target}${target.startsWith("windows") ? ".zip" : ".tar.gz"}`;
}

/** What the archive holds, under one folder named like it: the binary (as `sidecar`), README.md, LICENSE, docs/. */
export function archiveEntries(binary: Uint8Array, target: Target): ArchiveEntry[] {
  const folder = `sidecar-${target}`;
  const entries: ArchiveEntry[] = [
    { path: `${folder}/`, mode: 0o755 },
    { path: `${folder}/sidecar${target.startsWith("windows") ? ".exe" : ""}`, mode: 0o755, data: binary },
  ];
  const add = (relative: string) => {
    const path = join(root, relative);
    if (statSync(path).isDirectory()) {
      entries.push({ path: `${folder}/${relative}/`, mode: 0o755 });
      for (const name of readdirSync(path)) add(`${relative}/${name}`);
    } else {
      entries.push({ path: `${folder}/${relative}`, mode: 0o644, data: readFileSync(path) });
    }
  };
  for (const file of SHIPPED_FILES) add(file);
  return entries;
}

function archive(binary: string, target: Target): string {
  const entries = archiveEntries(readFileSync(binary), target);
  const path = join(dist, archiveName(target));
  writeFileSync(path, target.startsWith("windows") ? zip(entries, archiveTime()) : tarGz(entries, archiveTime()));
  return path;
}

function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** `--all`: every release target; `--target T` (repeatable): those; neither: this machine, no archive. */
function chosenTargets(argv: readonly string[]): readonly Target[] | undefined {
  if (argv.includes("--all")) return TARGETS;
  const named = argv.flatMap((arg, i) => (arg === "--target" ? [argv[i + 1] ?? ""] : []));
  const unknown = named.filter((t) => !(TARGETS as readonly string[]).includes(t));
  if (unknown.length) throw new Error(`unknown target ${unknown.join(", ")}; targets: ${TARGETS.join(", ")}`);
  return named.length ? (named as Target[]) : undefined;
}

async function main(): Promise<void> {
  const targets = chosenTargets(process.argv.slice(2));
  mkdirSync(dist, { recursive: true });
  if (lstatSync(join(root, "node_modules")).isSymbolicLink()) {
    // Bun names bundled modules by their real path: a linked node_modules puts its location in the binary.
    console.warn("compile: node_modules is a symbolic link; this binary will differ from a clean checkout's (docs/release.md).");
  }
  const sums: string[] = [];
  const oversize: string[] = [];
  for (const target of targets ?? [undefined]) {
    const started = performance.now();
    const binary = await build(target);
    const size = statSync(binary).size;
    console.log(
      `built ${binary} (${(size / 1024 / 1024).toFixed(1)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    if (size > SIZE_BUDGET_BYTES) oversize.push(`${basename(binary)} is ${(size / 1024 / 1024).toFixed(1)} MB`);
    if (target) {
      const packed = archive(binary, target);
      sums.push(`${sha256(binary)}  ${basename(binary)}`, `${sha256(packed)}  ${basename(packed)}`);
    }
  }
  if (targets) {
    writeFileSync(join(dist, "SHA256SUMS"), `${sums.join("\n")}\n`);
    console.log(`wrote ${join(dist, "SHA256SUMS")}`);
  }
  if (oversize.length) {
    console.error(`Over the ${SIZE_BUDGET_BYTES / 1024 / 1024} MB size budget: ${oversize.join("; ")}`);
    process.exit(1);
  }
}

if (import.meta.main) await main();
