// Benchmark for editing by symbol (issue 39), on a real checkout (a git repository; CI never runs it):
// 1. what `body` and the name-path lookup add over the server's own documentSymbol on a warm server
//    (in process, the same server, medians);
// 2. an agent's round through the MCP tools: list the outline, read a method by name path, replace
//    its body (the same statements plus a comment), resolve; each step's median time and the
//    diagnostics resolve reported. The file is put back with git after each round.
// Run: bun bench/symbols.ts <corpus-folder> <file> <name_path> [samples=20] [rounds=5]
import { execFileSync } from "node:child_process";
import { delimiter, join, resolve } from "node:path";
import type { DocumentSymbol } from "vscode-languageserver-protocol";
import { answerLspCall } from "../src/tools/lsp-actions.ts";
import { findDefinition } from "../src/lsp/addressing.ts";
import { syncDocument } from "../src/lsp/documents.ts";
import { LanguageServices } from "../src/lsp/service.ts";
import { resolveInWorkdir } from "../src/workspace/paths.ts";
import { call } from "../test/lsp/fixtures.ts";
import { startTestRun } from "../test/helpers/sidecar.ts";
import { countArg } from "./args.ts";
import { median, ms } from "./stats.ts";

const USAGE = "bun bench/symbols.ts <corpus-folder> <file> <name_path> [samples=20] [rounds=5]";
const [corpusArg, file, namePath] = process.argv.slice(2);
if (!corpusArg || !file || !namePath) {
  console.error(`usage: ${USAGE}`);
  process.exit(2);
}
const corpus = resolve(corpusArg);
const SAMPLES = countArg(5, "samples", 20, USAGE);
const ROUNDS = countArg(6, "rounds", 5, USAGE);
process.env.PATH = `${join(resolve(import.meta.dir, ".."), "node_modules", ".bin")}${delimiter}${process.env.PATH}`;

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

/** Part 1: documentSymbol straight to the server vs the name-path lookup and body, each on the same warm server. */
async function overhead(): Promise<void> {
  const services = new LanguageServices(corpus, {}, { trust: "workspace" });
  const signal = new AbortController().signal;
  try {
    const path = resolveInWorkdir(services.workdir, file!);
    const body = { action: "body" as const, file, name_path: namePath };
    await answerLspCall(services, body, signal); // starts the server and loads the project
    const handle = await services.supervisor.serverFor(path);
    const documentSymbol = async () => {
      const document = await syncDocument(handle.client, services.workdir, path);
      await services.supervisor.current(handle.client);
      return handle.client.query<DocumentSymbol[]>("textDocument/documentSymbol", { textDocument: { uri: document.uri } }, signal);
    };
    const raw: number[] = [];
    const lookup: number[] = [];
    const bodies: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      raw.push((await timed(documentSymbol))[0]);
      lookup.push((await timed(() => findDefinition(services.supervisor, file, namePath!, signal)))[0]);
      bodies.push((await timed(() => answerLspCall(services, body, signal)))[0]);
    }
    const base = median(raw);
    console.log(`warm server, ${SAMPLES} samples each (medians):`);
    console.log(`  documentSymbol straight to the server  ${ms(base)}`);
    console.log(`  name-path lookup                       ${ms(median(lookup))}  (+${ms(median(lookup) - base)})`);
    console.log(`  lsp body by name path                  ${ms(median(bodies))}  (+${ms(median(bodies) - base)})`);
  } finally {
    await services.close();
  }
}

/** The statements of the body the `body` rows show, plus a comment line: a change that changes no behaviour. */
function touchedBody(rows: { line: number; text: string }[], hashComments: boolean): string {
  // `#` starts a comment only in Python: `#calculateDelay() {` is a TypeScript private method.
  const code = (t: string) => !(hashComments ? /^\s*(#|@)/ : /^\s*(\/\/|\/\*|\*|@)/).test(t);
  const opens = rows.findIndex((r) => code(r.text) && (r.text.includes("{") || r.text.trimEnd().endsWith(":")));
  const braced = rows[opens]!.text.includes("{");
  const inner = rows.slice(opens + 1, braced ? rows.length - 1 : rows.length).map((r) => r.text);
  const lead = /^\s*/.exec(inner.find((t) => t.trim()) ?? "")![0];
  return [...inner, `${lead}${hashComments ? "#" : "//"} touched by bench/symbols.ts`].join("\n");
}

/** Part 2: one agent round through the MCP tools, ROUNDS times. */
async function round(): Promise<void> {
  await using run = await startTestRun(corpus, { trust: "workspace", resources: { languageServers: {}, parser: {} } });
  const client = await run.client();
  const steps: Record<string, number[]> = { outline: [], body: [], replace_body: [], resolve: [] };
  const first: Record<string, string> = {};
  // The first call starts the server and loads the project: timed apart, not in the medians.
  const [cold] = await timed(() => call(client, "lsp", { action: "symbols", file }));
  for (let i = 0; i < ROUNDS; i++) {
    const [outlineMs, outline] = await timed(() => call(client, "lsp", { action: "symbols", file }));
    const [bodyMs, body] = await timed(() => call(client, "lsp", { action: "body", file, name_path: namePath }));
    if (body.isError) throw new Error(`body failed: ${body.text}`);
    const text = touchedBody(body.data.results as { line: number; text: string }[], /\.pyi?$/.test(file!));
    const [editMs, staged] = await timed(() => call(client, "symbol_edit", { file, name_path: namePath, operation: "replace_body", text }));
    if (staged.isError) throw new Error(`symbol_edit failed: ${staged.text}`);
    const [resolveMs, accepted] = await timed(() => call(client, "resolve", { edit_id: staged.data.edit_id, action: "accept" }));
    steps.outline!.push(outlineMs);
    steps.body!.push(bodyMs);
    steps.replace_body!.push(editMs);
    steps.resolve!.push(resolveMs);
    if (i === 0) Object.assign(first, { outline: `${(outline.data.total as number) ?? "?"} rows`, body: `${body.data.end_line as number - (body.data.start_line as number) + 1} lines`, resolve: accepted.text.split("\n").slice(1).filter((l) => !/^\s+\S+ \(\d+ replacement/.test(l)).join(" / ") });
    execFileSync("git", ["checkout", "--", file!], { cwd: corpus });
  }
  console.log(`\nagent round through MCP, ${ROUNDS} rounds (first call, which starts the server: ${ms(cold)}), medians:`);
  for (const [step, times] of Object.entries(steps)) console.log(`  ${step.padEnd(13)} ${ms(median(times)).padStart(10)}   ${first[step] ?? ""}`);
}

console.log(`${corpus}: ${file} ${namePath}`);
await overhead();
await round();
process.exit(0);
