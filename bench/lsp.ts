// Benchmark: what the sidecar adds to a warm query over the same request sent straight to the same
// server (p50 per action, four servers, 40 files open), and a rename end to end (edits, write,
// diagnostics) on a 40-file project per server. Run: bun bench/lsp.ts [samples] [servers,…]
import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { delimiter, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection } from "vscode-languageserver-protocol/node";
import { connectClient } from "../build/spawn-sidecar.ts";
import { parseConfig, settle } from "../src/config/load.ts";
import { BUILTIN_SERVERS } from "../src/lsp/catalog.ts";
import { CLIENT_CAPABILITIES } from "../src/lsp/client-capabilities.ts";
import { launchFor } from "../src/lsp/server-source.ts";
import { LanguageServerSupervisor } from "../src/lsp/supervisor.ts";
import { startRun } from "../src/run/start.ts";
import { bunPrimitives } from "../src/runtime/bun.ts";
import { lspTool } from "../src/tools/lsp.ts";
import { tempDir } from "../test/helpers/temp-dir.ts";
import { countArg } from "./args.ts";
import { median } from "./stats.ts";

const SAMPLES = countArg(2, "samples", 30, "bun bench/lsp.ts [samples=30] [servers,…]");
const ONLY = process.argv[3]?.split(",");
const RENAMES = Math.max(3, Math.round(SAMPLES / 6));
const FILES = 40;
process.env.PATH = `${join(resolve(import.meta.dir, ".."), "node_modules", ".bin")}${delimiter}${process.env.PATH}`;

const ms = (x: number) => `${x.toFixed(1).padStart(6)} ms`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

type LspCall = Record<string, unknown>;

interface Project {
  server: string;
  dir: string;
  files: Record<string, string>;
  /** Where the symbol used by every query is: a use of it in another file. */
  use: { file: string; line: number; symbol: string };
  /** Its declaration, for rename. */
  declaration: { file: string; line: number; symbol: string };
  outline: string;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

function typescript(): Project {
  const files: Record<string, string> = {
    "ts/package.json": "{}",
    "ts/tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" }, include: ["src"] }),
    "ts/src/core.ts": "/** Adds one. */\nexport function compute(value: number): number {\n  return value + 1;\n}\n\nexport class Widget {\n  size = compute(1);\n  grow(): number {\n    return compute(this.size);\n  }\n}\n",
  };
  for (const i of range(FILES - 1)) files[`ts/src/f${i}.ts`] = `import { compute, Widget } from "./core";\n\nexport function step${i}(n: number): number {\n  const w = new Widget();\n  return compute(n) + w.grow() + ${i};\n}\n`;
  return { server: "typescript", dir: "ts", files, use: { file: "ts/src/f0.ts", line: 5, symbol: "compute" }, declaration: { file: "ts/src/core.ts", line: 2, symbol: "compute" }, outline: "ts/src/core.ts" };
}

function python(): Project {
  const files: Record<string, string> = {
    "py/pyproject.toml": '[project]\nname = "b"\nversion = "0"\n',
    "py/pkg/__init__.py": "",
    "py/pkg/core.py": 'def compute(value: int) -> int:\n    """Adds one."""\n    return value + 1\n\n\nclass Widget:\n    def __init__(self) -> None:\n        self.size = compute(1)\n\n    def grow(self) -> int:\n        return compute(self.size)\n',
  };
  for (const i of range(FILES - 2)) files[`py/pkg/f${i}.py`] = `from pkg.core import Widget, compute\n\n\ndef step${i}(n: int) -> int:\n    w = Widget()\n    return compute(n) + w.grow() + ${i}\n`;
  return { server: "python", dir: "py", files, use: { file: "py/pkg/f0.py", line: 6, symbol: "compute" }, declaration: { file: "py/pkg/core.py", line: 1, symbol: "compute" }, outline: "py/pkg/core.py" };
}

function go(): Project {
  const files: Record<string, string> = {
    "go/go.mod": "module example.com/b\n\ngo 1.19\n",
    "go/core/core.go": "package core\n\n// Compute adds one.\nfunc Compute(value int) int {\n\treturn value + 1\n}\n\n// Widget grows.\ntype Widget struct{ Size int }\n\n// Grow computes.\nfunc (w Widget) Grow() int {\n\treturn Compute(w.Size)\n}\n",
    "go/main.go": "package main\n\nfunc main() {}\n",
  };
  for (const i of range(FILES - 2)) files[`go/f${i}.go`] = `package main\n\nimport "example.com/b/core"\n\nfunc step${i}(n int) int {\n\tw := core.Widget{}\n\treturn core.Compute(n) + w.Grow() + ${i}\n}\n`;
  return { server: "go", dir: "go", files, use: { file: "go/f0.go", line: 7, symbol: "Compute" }, declaration: { file: "go/core/core.go", line: 4, symbol: "Compute" }, outline: "go/core/core.go" };
}

function c(root: string): Project {
  const sources = ["core.c", ...range(FILES - 2).map((i) => `f${i}.c`)];
  const files: Record<string, string> = {
    "c/core.h": "#ifndef CORE_H\n#define CORE_H\n/* Adds one. */\nint compute(int value);\n#endif\n",
    "c/core.c": '#include "core.h"\n\nint compute(int value) {\n  return value + 1;\n}\n',
    "c/compile_commands.json": JSON.stringify(sources.map((file) => ({ directory: join(root, "c"), file, arguments: ["cc", "-std=c11", "-I.", "-c", file] }))),
  };
  for (const i of range(FILES - 2)) files[`c/f${i}.c`] = `#include "core.h"\n\nint step${i}(int n) {\n  return compute(n) + ${i};\n}\n`;
  return { server: "c", dir: "c", files, use: { file: "c/f0.c", line: 4, symbol: "compute" }, declaration: { file: "c/core.h", line: 4, symbol: "compute" }, outline: "c/core.c" };
}

/** The same server driven by a bare vscode-jsonrpc connection: the floor the sidecar is read against. */
class DirectClient {
  private constructor(
    readonly child: ChildProcess,
    readonly connection: ProtocolConnection,
    readonly root: string,
    private busy: Set<string | number>,
  ) {}

  static async start(server: string, root: string): Promise<DirectClient> {
    const spec = BUILTIN_SERVERS.find((s) => s.id === server)!;
    // The launch the sidecar would use (the same binary, environment and options), found or installed.
    const launch = await launchFor(spec, root, new LanguageServerSupervisor(root, {}, { trust: "workspace" }).launchContext());
    const child = spawn(launch.command, launch.args, { cwd: root, env: launch.env, stdio: ["pipe", "pipe", process.env.BENCH_STDERR ? "inherit" : "ignore"] });
    child.on("exit", (code, signal) => process.env.BENCH_STDERR && console.error(`direct ${server} exited: ${code ?? signal}`));
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    connection.onError((e) => process.env.BENCH_STDERR && console.error("direct connection error", e));
    connection.onClose(() => process.env.BENCH_STDERR && console.error("direct connection closed"));
    const busy = new Set<string | number>();
    connection.onRequest("window/workDoneProgress/create", (p: { token: string | number }) => (busy.add(p.token), null));
    connection.onNotification("$/progress", (p: { token: string | number; value?: { kind?: string } }) => {
      if (p.value?.kind === "begin") busy.add(p.token);
      if (p.value?.kind === "end") busy.delete(p.token);
    });
    connection.onRequest("workspace/configuration", (p: { items: unknown[] }) => p.items.map(() => null));
    connection.onRequest("client/registerCapability", () => null);
    connection.onRequest("workspace/workspaceFolders", () => [{ uri: pathToFileURL(root).href, name: "b" }]);
    // pyright exits (status 1) when a request of its goes unanswered; the sidecar's client answers them all.
    for (const method of ["client/unregisterCapability", "workspace/diagnostic/refresh", "workspace/semanticTokens/refresh", "workspace/inlayHint/refresh", "workspace/codeLens/refresh", "window/showMessageRequest"]) {
      connection.onRequest(method, () => null);
    }
    connection.onRequest("workspace/applyEdit", () => ({ applied: false }));
    connection.listen();
    const rootUri = pathToFileURL(root).href;
    await connection.sendRequest("initialize", {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: "b" }],
      capabilities: CLIENT_CAPABILITIES,
      initializationOptions: launch.initializationOptions ?? spec.initializationOptions,
    });
    await connection.sendNotification("initialized", {});
    return new DirectClient(child, connection, root, busy);
  }

  async open(path: string, languageId: string): Promise<void> {
    await this.connection.sendNotification("textDocument/didOpen", { textDocument: { uri: pathToFileURL(path).href, languageId, version: 1, text: await readFile(path, "utf8") } });
  }

  async idle(): Promise<void> {
    for (let i = 0; i < 600 && this.busy.size > 0; i++) await new Promise((r) => setTimeout(r, 100));
  }

  request(method: string, params: unknown): Promise<unknown> {
    return this.connection.sendRequest(method, params);
  }

  async close(): Promise<void> {
    await Promise.race([this.connection.sendRequest("shutdown").catch(() => {}), new Promise((r) => setTimeout(r, 2000))]);
    this.child.kill("SIGKILL");
    this.connection.dispose();
  }
}

async function main() {
  await using dir = await tempDir("sidecar-bench-");
  const projects = [typescript(), python(), go(), c(dir.path)].filter((p) => !ONLY || ONLY.includes(p.server));
  for (const project of projects) await dir.write(project.files);
  const run = await startRun(settle(parseConfig({ workdir: dir.path, resources: { languageServers: {} } })), bunPrimitives);
  const mcp = await connectClient(run.url, run.surfaces.default!, "bench");
  const services = run.resources.lsp!;
  // In process: the tool's own run(), without MCP and HTTP around it.
  const tool = lspTool(services);
  const context = { signal: new AbortController().signal, progress: () => {}, describeWork: () => {}, surface: "default", tiers: ["read" as const] };
  const answerLspCall = (_services: unknown, call: LspCall, _signal: unknown) => tool.run(call, context) as Promise<{ data: { total?: number } }>;
  const signal = context.signal;
  console.log(`lsp bench: ${FILES} files per project, every file open; ${SAMPLES} interleaved samples per action (p50)`);
  try {
    for (const project of projects) {
      const root = join(dir.path, project.dir);
      const sources = Object.keys(project.files).filter((f) => /\.(ts|py|go|c|h)$/.test(f));
      const languageId = { typescript: "typescript", python: "python", go: "go", c: "c" }[project.server]!;
      const direct = await DirectClient.start(project.server, root);
      for (const file of sources) await direct.open(join(dir.path, file), languageId);
      // The sidecar holds the same files open, as it does after a rename touched them all.
      for (const file of sources) await answerLspCall(services, { action: "diagnostics", file }, signal).catch(() => undefined);
      const useText = (await readFile(join(dir.path, project.use.file), "utf8")).split("\n")[project.use.line - 1]!;
      const at = { textDocument: { uri: pathToFileURL(join(dir.path, project.use.file)).href }, position: { line: project.use.line - 1, character: useText.indexOf(project.use.symbol) } };
      const outlineUri = pathToFileURL(join(dir.path, project.outline)).href;
      const actions: { name: string; direct: () => Promise<unknown>; call: LspCall }[] = [
        { name: "hover", direct: () => direct.request("textDocument/hover", at), call: { action: "hover", ...project.use } },
        { name: "definition", direct: () => direct.request("textDocument/definition", at), call: { action: "definition", ...project.use } },
        { name: "references", direct: () => direct.request("textDocument/references", { ...at, context: { includeDeclaration: true } }), call: { action: "references", ...project.use } },
        { name: "symbols (outline)", direct: () => direct.request("textDocument/documentSymbol", { textDocument: { uri: outlineUri } }), call: { action: "symbols", file: project.outline } },
        { name: "symbols (query)", direct: () => direct.request("workspace/symbol", { query: project.use.symbol }), call: { action: "symbols", query: project.use.symbol, file: project.use.file } },
      ];
      // Warm both until the project is loaded: references must find every file.
      await direct.idle();
      for (let i = 0; i < 40; i++) {
        const refs = (await direct.request("textDocument/references", { ...at, context: { includeDeclaration: true } })) as unknown[] | null;
        const mine = await answerLspCall(services, { action: "references", ...project.use }, signal).catch(() => undefined);
        if ((refs?.length ?? 0) >= FILES - 2 && mine?.data.total === refs?.length) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      console.log(`\n${project.server}                 direct    sidecar in-process (added)    via MCP (added)`);
      for (const action of actions) {
        for (let i = 0; i < 3; i++) {
          await action.direct();
          await answerLspCall(services, action.call, signal);
        }
        const samples = { direct: [] as number[], inProcess: [] as number[], mcp: [] as number[] };
        for (let i = 0; i < SAMPLES; i++) {
          samples.direct.push(await timed(action.direct));
          samples.inProcess.push(await timed(() => answerLspCall(services, action.call, signal)));
          samples.mcp.push(await timed(() => mcp.callTool({ name: "lsp", arguments: { ...action.call } })));
        }
        const floor = median(samples.direct);
        const inProcess = median(samples.inProcess);
        const viaMcp = median(samples.mcp);
        console.log(`  ${action.name.padEnd(18)} ${ms(floor)}   ${ms(inProcess)} (${ms(inProcess - floor)})    ${ms(viaMcp)} (${ms(viaMcp - floor)})`);
      }
      await direct.close();

      const times: number[] = [];
      let summary = "";
      for (let i = 0; i < RENAMES; i++) {
        const [from, to] = i % 2 === 0 ? [project.declaration.symbol, `${project.declaration.symbol}Next`] : [`${project.declaration.symbol}Next`, project.declaration.symbol];
        let answer: { isError?: boolean; structuredContent?: unknown; content?: unknown } = {};
        times.push(await timed(async () => (answer = (await mcp.callTool({ name: "lsp_rename", arguments: { file: project.declaration.file, line: project.declaration.line, symbol: from, new_name: to } })) as typeof answer)));
        const data = answer.structuredContent as { files?: string[]; edits?: number; diagnostics?: { status: string; new: unknown[] } } | undefined;
        if (answer.isError || !data?.files) {
          summary += `${summary ? "; " : ""}failed: ${JSON.stringify(answer.content).slice(0, 300)}`;
          break;
        }
        // Each rename's own: a later one that edits fewer files (clangd's stale index) must show.
        summary += `${summary ? "; " : ""}${data.edits} edits in ${data.files.length} files, diagnostics ${data.diagnostics?.status}, ${data.diagnostics?.new.length} new`;
      }
      console.log(`  rename end to end  ${ms(median(times))} p50 of ${times.length} (${times.map((t) => t.toFixed(0)).join(", ")} ms): ${summary}`);
    }
  } finally {
    await mcp.close();
    await run.close();
  }
}

await main();
