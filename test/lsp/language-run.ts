// A run for the per-language tests: its servers installed once per test file, from the real npm registry,
// into a temporary cache (as on a user's machine), and the run told never to install anything else.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { BUILTIN_SERVERS } from "../../src/lsp/catalog.ts";
import { sidecarBun } from "../../src/lsp/provision/bun.ts";
import { ServerProvisioner } from "../../src/lsp/provision/provisioner.ts";
import { TRUST_ALL } from "../../src/platform/executables.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";

/** A first query waits for install-free start-up and project loading on a loaded 2-core box. */
const CALL_TIMEOUT_MS = 240_000;

export interface LanguageRun {
  run: TestRun;
  dir: TempDir;
  /** The lsp tool's answer: its text, structured data and whether it is an error. */
  lsp(args: Record<string, unknown>): Promise<{ text: string; data: Record<string, unknown>; isError: boolean }>;
  /** Writes the files, then asks /harness/after-write about them, as a harness's write tool would. */
  write(files: Record<string, string>): Promise<WriteOutcome>;
  dispose(): Promise<void>;
}

export interface WriteOutcome {
  status: string;
  new: { path: string; line: number; severity: string; code?: string; source?: string; message: string }[];
  text: string;
}

export async function languageRun(servers: readonly string[], files: Record<string, string>, trust: "none" | "workspace" = "none"): Promise<LanguageRun> {
  const cache = await tempDir("sidecar-cache-");
  const provisioner = new ServerProvisioner(cache.path, "auto", BUILTIN_SERVERS, sidecarBun(TRUST_ALL));
  for (const id of servers) await provisioner.install(BUILTIN_SERVERS.find((spec) => spec.id === id)!);
  const dir = await tempDir();
  await dir.write(files);
  // "never": a server the file did not provision fails loudly instead of installing quietly.
  const run = await startTestRun(dir.path, { trust, resources: { languageServers: { cacheDir: cache.path, install: "never", initializeTimeoutSeconds: 180 } } });
  const client: Client = await run.client();
  return {
    run,
    dir,
    async lsp(args) {
      const result = await client.callTool({ name: "lsp", arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
      const text = (result.content as { text?: string }[]).map((c) => c.text ?? "").join("\n");
      return { text, data: (result.structuredContent ?? {}) as Record<string, unknown>, isError: result.isError === true };
    },
    async write(changed) {
      await dir.write(changed);
      const response = await run.fetch("/harness/after-write", {
        method: "POST",
        headers: { Authorization: `Bearer ${run.run.surfaces.default}`, "Content-Type": "application/json" },
        body: JSON.stringify({ paths: Object.keys(changed) }),
      });
      if (response.status !== 200) throw new Error(`after-write answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as WriteOutcome;
    },
    async dispose() {
      await run[Symbol.asyncDispose]();
      await dir[Symbol.asyncDispose]();
      await cache[Symbol.asyncDispose]();
    },
  };
}

/** "path:line" of each row of a navigation answer, sorted. */
export function places(data: Record<string, unknown>): string[] {
  return ((data.results ?? []) as { path: string; line: number }[]).map((r) => `${r.path}:${r.line}`).sort();
}
