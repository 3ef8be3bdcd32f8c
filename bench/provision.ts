// Benchmark: the first lsp call of a fresh sidecar on a TypeScript and a Python project, end to end
// (spawn, MCP call, answer): with an empty install cache (install + start + answer), with a warm
// cache (start + answer, the server on the sidecar's own Bun), and — the reference, same run — with
// the same server found on PATH and run by Node, as a user who installed it would have. Also the
// size on disk of each install. Run: bun bench/provision.ts [runs] [--binary path/to/sidecar]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawnSidecar } from "../build/spawn-sidecar.ts";
import { formatBytes, ServerCache } from "../src/lsp/provision/cache.ts";
import { PY_PROJECT, TS_PROJECT } from "../test/lsp/fixtures.ts";
import { median } from "./stats.ts";

const REPO = resolve(import.meta.dir, "..");
const args = process.argv.slice(2);
const binaryAt = args.indexOf("--binary");
const BINARY = binaryAt >= 0 ? resolve(args[binaryAt + 1]!) : undefined;
const RUNS = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== "--binary") ?? 3);
/** A machine with no language server on PATH (node is in /usr/bin). */
const BARE_PATH = "/usr/local/bin:/usr/bin:/bin";
const WITH_SERVERS_PATH = `${join(REPO, "node_modules", ".bin")}:${BARE_PATH}`;

const QUERIES = {
  typescript: { action: "hover", file: "src/shapes.ts", line: 14, symbol: "totalArea" },
  python: { action: "hover", file: "pkg/app.py", line: 3, symbol: "Rectangle" },
} as const;

type Mode = "empty cache" | "warm cache" | "PATH + Node (reference)";

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function scratch(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** One fresh sidecar, one call; the time from the call to its answer (the sidecar's own start-up excluded). */
async function firstCall(workdir: string, cacheDir: string, path: string, language: keyof typeof QUERIES): Promise<number> {
  const config = join(cacheDir, "..", `bench-run-${process.pid}-${Date.now()}.json`);
  writeFileSync(config, JSON.stringify({ workdir, resources: { languageServers: { cacheDir, initializeTimeoutSeconds: 600 } } }));
  const argv = BINARY ? [BINARY, "serve", "--config", config] : [process.execPath, join(REPO, "src/main.ts"), "serve", "--config", config];
  const { NPM_CONFIG_REGISTRY: _a, BUN_CONFIG_REGISTRY: _b, ...env } = process.env;
  await using sidecar = await spawnSidecar(argv, { env: { ...env, PATH: path } });
  const client = await sidecar.connect();
  const started = performance.now();
  const result = await client.callTool({ name: "lsp", arguments: QUERIES[language] }, undefined, { timeout: 600_000, resetTimeoutOnProgress: true });
  const elapsed = performance.now() - started;
  const text = (result.content as { text?: string }[]).map((c) => c.text ?? "").join("\n");
  if (result.isError) throw new Error(`${language}: ${text}`);
  rmSync(config, { force: true });
  return elapsed;
}

async function main() {
  const workdir = scratch("sidecar-bench-project-");
  for (const [name, content] of Object.entries({ ...TS_PROJECT, ...PY_PROJECT })) {
    const path = join(workdir, name);
    await Bun.write(path, content);
  }
  const samples = new Map<string, number[]>();
  const record = (language: string, mode: Mode, ms: number) => samples.set(`${language}|${mode}`, [...(samples.get(`${language}|${mode}`) ?? []), ms]);
  const sizes = new Map<string, number>();
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const language of ["typescript", "python"] as const) {
        const cacheDir = scratch("sidecar-bench-cache-");
        try {
          record(language, "empty cache", await firstCall(workdir, cacheDir, BARE_PATH, language));
          record(language, "warm cache", await firstCall(workdir, cacheDir, BARE_PATH, language));
          for (const entry of new ServerCache(cacheDir).list()) sizes.set(entry.key, entry.bytes);
        } finally {
          rmSync(cacheDir, { recursive: true, force: true });
        }
        const none = scratch("sidecar-bench-cache-");
        try {
          record(language, "PATH + Node (reference)", await firstCall(workdir, none, WITH_SERVERS_PATH, language));
        } finally {
          rmSync(none, { recursive: true, force: true });
        }
      }
    }
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
  console.log(`first lsp hover of a fresh sidecar (${BINARY ? `binary ${BINARY}` : "from source"}), median of ${RUNS}:`);
  for (const language of ["typescript", "python"]) {
    const reference = median(samples.get(`${language}|PATH + Node (reference)`)!);
    for (const mode of ["empty cache", "warm cache", "PATH + Node (reference)"] as Mode[]) {
      const xs = samples.get(`${language}|${mode}`)!;
      const m = median(xs);
      console.log(`  ${language.padEnd(10)} ${mode.padEnd(24)} ${seconds(m).padStart(9)}  ×${(m / reference).toFixed(2)} of the reference  (runs: ${xs.map(seconds).join(", ")})`);
    }
  }
  console.log("installs on disk:");
  for (const [key, bytes] of sizes) console.log(`  ${key.padEnd(20)} ${formatBytes(bytes)}`);
}

await main();
