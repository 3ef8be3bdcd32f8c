// Benchmark: the sidecar's added latency over a direct JSON-RPC client of the same server (p50), and
// diagnostics-on-write latency per server. Run: bun bench/lsp.ts [samples]
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { delimiter, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver-protocol/node";
import { parseConfig, settle } from "../src/config/load.ts";
import { bunPrimitives } from "../src/runtime/bun.ts";
import { startRun } from "../src/run/start.ts";
import { connectClient } from "../build/spawn-sidecar.ts";
import { tempDir } from "../test/helpers/temp-dir.ts";

const SAMPLES = Number(process.argv[2] ?? 30);
const WRITE_SAMPLES = Math.max(4, Math.round(SAMPLES / 3));
process.env.PATH = `${join(resolve(import.meta.dir, ".."), "node_modules", ".bin")}${delimiter}${process.env.PATH}`;

const SHAPES = "export class Circle {\n  constructor(readonly radius: number) {}\n  area(): number {\n    return Math.PI * this.radius ** 2;\n  }\n}\n";
const MAIN = 'import { Circle } from "./shapes";\nconst circle = new Circle(2);\nconsole.log(circle.area());\n';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(2)} ms`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Hover through a bare vscode-jsonrpc connection: the floor the sidecar is compared with. */
async function directHover(root: string): Promise<{ hover: () => Promise<unknown>; close: () => Promise<void> }> {
  const child = spawn("typescript-language-server", ["--stdio"], { cwd: root, stdio: ["pipe", "pipe", "ignore"] });
  const c = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  c.onRequest("window/workDoneProgress/create", () => null);
  c.onRequest("workspace/configuration", (p: { items: unknown[] }) => p.items.map(() => null));
  c.onRequest("client/registerCapability", () => null);
  c.listen();
  const rootUri = pathToFileURL(root).href;
  await c.sendRequest("initialize", { processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name: "b" }], capabilities: {} });
  await c.sendNotification("initialized", {});
  const uri = pathToFileURL(join(root, "src/main.ts")).href;
  await c.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version: 1, text: MAIN } });
  const hover = () => c.sendRequest("textDocument/hover", { textDocument: { uri }, position: { line: 1, character: 19 } });
  for (let i = 0; i < 5; i++) await hover(); // warm-up: project load
  return {
    hover,
    async close() {
      await c.sendRequest("shutdown").catch(() => {});
      child.kill("SIGKILL");
      c.dispose();
    },
  };
}

async function main() {
  await using dir = await tempDir("sidecar-bench-");
  await dir.write({
    "ts/package.json": "{}",
    "ts/tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "es2022" } }),
    "ts/src/shapes.ts": SHAPES,
    "ts/src/main.ts": MAIN,
    "py/pyproject.toml": '[project]\nname = "b"\nversion = "0"\n',
    "py/m.py": "value = 1\n",
    "c/compile_flags.txt": "-std=c11\n",
    "c/m.c": "int main(void) { return 0; }\n",
    "go/go.mod": "module example.com/b\n\ngo 1.19\n",
    "go/m.go": "package main\n\nfunc main() {}\n",
  });
  const direct = await directHover(join(dir.path, "ts"));
  const directSamples: number[] = [];

  const run = await startRun(settle(parseConfig({ workdir: dir.path, resources: { languageServers: {} } })), bunPrimitives);
  try {
    const services = run.services.languageServers!;
    const { locate, hover } = await import("../src/lsp/queries.ts");
    const inProcess = async () => hover(await locate(services.supervisor, "ts/src/main.ts", 2, "Circle", "hover"));
    for (let i = 0; i < 5; i++) await inProcess();
    const client = await connectClient(run.url, run.surfaces.default!, "bench");
    const viaMcp = () => client.callTool({ name: "lsp", arguments: { action: "hover", file: "ts/src/main.ts", line: 2, symbol: "Circle" } });
    for (let i = 0; i < 3; i++) await viaMcp();
    // Interleaved, so the three paths see the same load on a shared machine.
    const inProcessSamples: number[] = [];
    const mcpSamples: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      directSamples.push(await timed(direct.hover));
      inProcessSamples.push(await timed(inProcess));
      mcpSamples.push(await timed(viaMcp));
    }
    await client.close();
    await direct.close();

    const floor = median(directSamples);
    console.log(`hover on typescript-language-server, ${SAMPLES} interleaved samples (p50):`);
    console.log(`  direct vscode-jsonrpc client        ${ms(floor)}`);
    console.log(`  sidecar in-process (locate + query) ${ms(median(inProcessSamples))}  added ${ms(median(inProcessSamples) - floor)}`);
    console.log(`  sidecar tool call via MCP over HTTP ${ms(median(mcpSamples))}  added ${ms(median(mcpSamples) - floor)}`);

    const cases = [
      { server: "typescript", file: "ts/src/extra.ts", clean: "export const a: number = 1;\n", broken: 'export const a: number = "x";\n' },
      { server: "python", file: "py/m.py", clean: "value = 1\n", broken: "value = missing_name\n" },
      { server: "c (clangd)", file: "c/m.c", clean: "int main(void) { return 0; }\n", broken: "int main(void) { return nope; }\n" },
      { server: "go (gopls)", file: "go/m.go", clean: "package main\n\nfunc main() {}\n", broken: "package main\n\nfunc main() { nope() }\n" },
    ];
    console.log(`diagnostics on write via POST /harness/after-write, ${WRITE_SAMPLES} writes each (p50, after warm-up):`);
    for (const c of cases) {
      const post = async () => {
        const response = await fetch(run.url.replace(/\/mcp$/, "/harness/after-write"), {
          method: "POST",
          headers: { Authorization: `Bearer ${run.surfaces.default}`, "Content-Type": "application/json" },
          body: JSON.stringify({ paths: [c.file] }),
        });
        return (await response.json()) as { status: string };
      };
      await writeFile(join(dir.path, c.file), c.clean);
      await post();
      const samples: number[] = [];
      const statuses = new Map<string, number>();
      for (let i = 0; i < WRITE_SAMPLES; i++) {
        await writeFile(join(dir.path, c.file), i % 2 === 0 ? c.broken : c.clean);
        let status = "";
        samples.push(await timed(async () => (status = (await post()).status)));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      console.log(`  ${c.server.padEnd(12)} ${ms(median(samples))}  (${[...statuses].map(([s, n]) => `${n} ${s}`).join(", ")})`);
    }
  } finally {
    await run.close();
  }
}

await main();
