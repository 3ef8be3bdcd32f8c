// Starts a real run in-process (Bun runtime primitives, real HTTP listener) and connects the
// official MCP SDK client to it.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "../../build/spawn-sidecar.ts";
import { parseConfig, settle } from "../../src/config/load.ts";
import type { RunConfig } from "../../src/config/schema.ts";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { startRun, type RunningSidecar, type StartOptions } from "../../src/run/start.ts";

export interface TestRun extends AsyncDisposable {
  run: RunningSidecar;
  /** An SDK client connected with the named surface's token. */
  client(surface?: string): Promise<Client>;
  /** Raw HTTP against the server, for guard tests. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

export async function startTestRun(workdir: string, config: RunConfig = {}, options: StartOptions = {}): Promise<TestRun> {
  const settings = settle(parseConfig({ ...config, workdir }));
  // The fast tier (build/test-unit.ts) starts no warm-up unless a test asks for one: hundreds of
  // short runs over tiny folders each spent CPU parsing ahead for a search no test times.
  if (process.env.SIDECAR_TEST_NO_WARM_UP && settings.resources.parser && settings.resources.parser.warmMiB === undefined) settings.resources.parser.warmMiB = 0;
  const run = await startRun(settings, bunPrimitives, options);
  const clients: Client[] = [];
  const origin = run.url.replace(/\/mcp$/, "");
  return {
    run,
    async client(surface = "default") {
      const token = run.surfaces[surface];
      if (!token) throw new Error(`no surface ${surface}`);
      const client = await connectClient(run.url, token, "sidecar-test");
      clients.push(client);
      return client;
    },
    fetch: (path, init) => fetch(`${origin}${path}`, init),
    async [Symbol.asyncDispose]() {
      await Promise.allSettled(clients.map((c) => c.close()));
      await run.close();
    },
  };
}
