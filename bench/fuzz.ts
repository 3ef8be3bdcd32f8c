// Fuzzes the HTTP/MCP surface of a run with every tool the embedded defaults (plus vibe, questions)
// register: N hostile inputs (default 100k), tallied by status; 5xx and unreadable tool errors listed.
// Usage: bun bench/fuzz.ts [N] [SEED]
import { parseConfig, settle } from "../src/config/load.ts";
import { bunPrimitives } from "../src/runtime/bun.ts";
import { connectResources } from "../src/run/connect.ts";
import { Lifecycle } from "../src/host/lifecycle.ts";
import { createApp } from "../src/http/app.ts";
import { ToolRegistry } from "../src/tool/registry.ts";
import { toolCatalog } from "../src/run/catalog.ts";
import { fuzz } from "../test/hardening/fuzz-driver.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countArg } from "./args.ts";

const count = countArg(2, "N", 100_000, "bun bench/fuzz.ts [N=100000] [SEED=1]");
const seed = countArg(3, "SEED", 1, "bun bench/fuzz.ts [N=100000] [SEED=1]", 0);
const workdir = mkdtempSync(join(tmpdir(), "sidecar-fuzz-"));
const settings = settle(parseConfig({ workdir, conversation: "fuzz", resources: { parser: {}, languageServers: {}, debugAdapters: {}, kernels: {} } }));
const lifecycle = new Lifecycle();
const resources = connectResources(settings, bunPrimitives, lifecycle);
const registry = new ToolRegistry(toolCatalog(resources));
const surface = settings.surfaces.find((s) => s.name === "default")!;
const { app, sessions } = createApp({ registry, surfaces: settings.surfaces, identity: { name: "sidecar", version: "fuzz" }, runSignal: new AbortController().signal });
const tools = registry.forSurface(surface);

const started = performance.now();
const tally = await fuzz(app, surface.token, tools, count, seed);
const seconds = (performance.now() - started) / 1000;
await sessions.closeAll();
await lifecycle.close();
rmSync(workdir, { recursive: true, force: true });

console.log(`fuzzed ${tally.inputs} inputs in ${seconds.toFixed(1)} s (${(tally.inputs / seconds).toFixed(0)}/s) over ${tools.length} tools: ${tools.map((t) => t.name).join(", ")}`);
console.log(`responses by status: ${JSON.stringify(tally.byStatus)}`);
console.log(`tool-argument errors answered as readable isError results: ${tally.toolArgumentErrors}`);
console.log(`non-object arguments answered as JSON-RPC invalid params: ${tally.protocolArgumentErrors}`);
console.log(`5xx: ${tally.serverErrors.length}; unreadable tool errors: ${tally.unreadableToolErrors.length}`);
for (const line of [...tally.serverErrors, ...tally.unreadableToolErrors].slice(0, 10)) console.log(`  ${line}`);
process.exit(tally.serverErrors.length + tally.unreadableToolErrors.length > 0 ? 1 : 0);
