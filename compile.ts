// Builds the sidecar binary: `bun compile.ts` for this machine, `--all` for every release target.
// Every grammar and embedded script is bundled in; version and commit are stamped in.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

export const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const;

const root = import.meta.dir;
const all = process.argv.includes("--all");

function commit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

async function build(target: string | undefined): Promise<string> {
  const name = target ? `sidecar-${target}${target.startsWith("windows") ? ".exe" : ""}` : "sidecar";
  const outfile = join(root, "dist", name);
  const result = await Bun.build({
    // The parse worker is a second entrypoint so the binary embeds it (src/runtime/parse-worker.bun.ts).
    entrypoints: [join(root, "src", "main.ts"), join(root, "src", "syntax", "parse-worker.ts")],
    compile: { outfile, ...(target ? { target: `bun-${target}` as Bun.Build.CompileTarget } : {}) },
    minify: true,
    sourcemap: "linked",
    define: { SIDECAR_COMMIT: JSON.stringify(commit()) },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`build failed for ${target ?? "this machine"}`);
  }
  return outfile;
}

mkdirSync(join(root, "dist"), { recursive: true });
for (const target of all ? TARGETS : [undefined]) {
  const started = performance.now();
  const outfile = await build(target);
  console.log(`built ${outfile} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
