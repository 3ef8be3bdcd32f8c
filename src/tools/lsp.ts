// The `lsp` tool: language-server queries by file, line and symbol (read tier).
import * as v from "valibot";
import { capList, capText } from "../tool/budget.ts";
import { defineTool, type Tool } from "../tool/define.ts";
import { ToolFailure } from "../answer/failure.ts";
import { runChecker } from "../lsp/checkers.ts";
import { collectDiagnostics } from "../lsp/diagnostics.ts";
import { diagnosticsUnavailable } from "../lsp/launch.ts";
import { refreshOpenDocuments, syncDocument } from "../lsp/documents.ts";
import { diagnosticLine, diagnosticRow, isErrorOrWarning, placeLine, SourceLines, type DiagnosticRow } from "../lsp/present.ts";
import { codeActions, documentSymbols, hover, locate, navigate, refuseWhileIndexing, workspaceSymbols, type SymbolRow } from "../lsp/queries.ts";
import { scanRoots } from "../workspace/project-roots.ts";
import type { LanguageServices } from "../lsp/service.ts";
import { relativeToWorkdir, resolveInWorkdir } from "../workspace/paths.ts";
import description from "./lsp.txt" with { type: "text" };
import { shownPath } from "../workspace/shown-path.ts";

export const REFERENCES_CAP = 50;
export const WORKSPACE_SYMBOLS_CAP = 100;
export const DOCUMENT_SYMBOLS_CAP = 200;
export const DIAGNOSTICS_CAP = 200;
const LOCATIONS_CAP = 50;
const HOVER_MAX_BYTES = 8_000;

const ACTIONS = ["diagnostics", "definition", "type_definition", "implementation", "references", "hover", "symbols", "code_actions", "status", "reload"] as const;

const input = v.strictObject({
  action: v.pipe(v.picklist(ACTIONS, `expected one of ${ACTIONS.join(", ")}`), v.description("What to ask; the tool's description lists the arguments each action takes.")),
  file: v.optional(
    v.pipe(
      v.string("expected a workspace-relative path"),
      v.minLength(1, "expected a path, got an empty string"),
      v.description('Workspace-relative path of the file asked about ("*" with diagnostics: the project checker for every root). With symbols and query: which project\'s server searches; with reload: whose root restarts.'),
    ),
  ),
  line: v.optional(
    v.pipe(
      v.number("expected a 1-based line number"),
      v.integer("expected a whole line number"),
      v.minValue(1, "lines are 1-based"),
      v.description("1-based line of file on which symbol is written (definition, type_definition, implementation, references, hover, code_actions)."),
    ),
  ),
  symbol: v.optional(
    v.pipe(
      v.string("expected the identifier as written on the line"),
      v.minLength(1, "expected an identifier, got an empty string"),
      v.description("The identifier as written on line, never a column; name#2 for its second occurrence on that line."),
    ),
  ),
  query: v.optional(
    v.pipe(
      v.string("expected a search text"),
      v.minLength(1, "expected a search text, got an empty string"),
      v.description("With symbols: the name (or part of it) to search the workspace's symbols for."),
    ),
  ),
});

const row = v.record(v.string(), v.unknown());
const output = v.object({
  action: v.string(),
  results: v.optional(v.array(row)),
  hover: v.optional(v.string()),
  status: v.optional(v.string()),
  shown: v.optional(v.number()),
  total: v.optional(v.number()),
  note: v.optional(v.string()),
});
type Output = v.InferInput<typeof output>;
type Input = v.InferOutput<typeof input>;

export function lspTool(services: LanguageServices): Tool {
  return defineTool({
    name: "lsp",
    tier: "read",
    title: "Language-server queries",
    description,
    input,
    output,
    async run(args, ctx) {
      // A server missing on first use is installed during the call: each step reaches the client as progress.
      let step = 0;
      const stopReporting = services.supervisor.provisioner.onProgress((message) => ctx.progress({ progress: ++step, message }));
      try {
        const reply = await answer(services, args, ctx.signal);
        return { text: reply.text, data: reply.data };
      } finally {
        stopReporting();
      }
    },
  });
}

async function answer(services: LanguageServices, args: Input, signal: AbortSignal): Promise<{ text: string; data: Output }> {
  const { supervisor } = services;
  const { action } = args;
  const need = (what: "file") => {
    if (args[what] === undefined) throw new ToolFailure(`${action} needs ${what}, e.g. {"action": "${action}", "file": "src/a.ts"}.`);
    return args[what]!;
  };
  switch (action) {
    case "definition":
    case "type_definition":
    case "implementation":
    case "references": {
      const target = await locate(supervisor, need("file"), args.line, args.symbol, action);
      const rows = await navigate(target, action, signal);
      const capped = capList(rows, action === "references" ? REFERENCES_CAP : LOCATIONS_CAP);
      const head = rows.length ? "" : `No ${action.replace("_", " ")} found for ${args.symbol} on line ${args.line}.`;
      return listed(action, capped, capped.items.map(placeLine), head);
    }
    case "hover": {
      const target = await locate(supervisor, need("file"), args.line, args.symbol, action);
      const text = capText(await hover(target, signal), HOVER_MAX_BYTES).text;
      return { text: text || `The server has no hover text for ${args.symbol} on line ${args.line}.`, data: { action, hover: text } };
    }
    case "code_actions": {
      const target = await locate(supervisor, need("file"), args.line, args.symbol, action);
      const rows = await codeActions(target, signal);
      const lines = rows.map((a) => `- ${a.title}${a.kind ? ` [${a.kind}]` : ""}${a.preferred ? " (preferred)" : ""}`);
      return listed(action, capList(rows, LOCATIONS_CAP), lines, rows.length ? "" : `The server offers no code actions at ${args.symbol} on line ${args.line}.`);
    }
    case "symbols": {
      if (args.query !== undefined) {
        const rows = await workspaceSymbols(supervisor, args.query, args.file, signal);
        return listed(action, capList(rows, WORKSPACE_SYMBOLS_CAP), capList(rows, WORKSPACE_SYMBOLS_CAP).items.map(symbolLine), rows.length ? "" : `No symbol matches ${JSON.stringify(args.query)}.`);
      }
      const rows = await documentSymbols(supervisor, need("file"), signal);
      const capped = capList(rows, DOCUMENT_SYMBOLS_CAP);
      return listed(action, capped, capped.items.map(symbolLine), rows.length ? "" : `The server lists no symbols in ${args.file}.`);
    }
    case "diagnostics":
      return need("file") === "*" ? projectCheck(services, signal) : fileDiagnostics(services, args.file!, signal);
    case "status": {
      const rows = await supervisor.status();
      const lines = rows.map((r) => `${r.server.padEnd(10)} ${(r.root ? shownPath(r.root) : "-").padEnd(16)} ${r.state}${r.reason ? ` — ${r.reason}` : ""}`);
      return { text: lines.join("\n"), data: { action, results: rows.map((r) => ({ ...r })) } };
    }
    case "reload": {
      // The file only names the root; finding it must not start a server just to restart it.
      const roots = args.file === undefined ? undefined : supervisor.rootsFor(resolveInWorkdir(supervisor.workdir, args.file));
      if (roots?.length === 0) throw new ToolFailure(`No language server has a root for ${args.file}: no root marker in its folder or above it. lsp status lists the markers.`);
      const reloaded = roots === undefined ? await supervisor.reload() : (await Promise.all(roots.map((root) => supervisor.reload(root)))).flat();
      const text = reloaded.length ? reloaded.join("\n") : "No server had been started for that root yet; they start on first use.";
      return { text, data: { action, results: reloaded.map((name) => ({ server: name })) } };
    }
  }
}

async function fileDiagnostics(services: LanguageServices, file: string, signal: AbortSignal): Promise<{ text: string; data: Output }> {
  const { supervisor } = services;
  const path = resolveInWorkdir(supervisor.workdir, file);
  const handle = await supervisor.serverFor(path);
  const unavailable = diagnosticsUnavailable(handle.spec, supervisor.launchContext());
  if (unavailable) throw new ToolFailure(unavailable);
  const document = await syncDocument(handle.client, supervisor.workdir, path);
  await refreshOpenDocuments(handle.client, supervisor.workdir, document.uri); // its imports may have changed on disk
  const collected = await collectDiagnostics(handle.client, document, signal);
  if (collected.status === "timed_out") {
    refuseWhileIndexing(handle.client);
    throw new ToolFailure(`The ${handle.spec.id} server sent no diagnostics for ${file} in time; try again, or lsp reload if it keeps happening.`);
  }
  const lines = new SourceLines(supervisor.workdir);
  const rows = collected.diagnostics.filter(isErrorOrWarning).map((d) => diagnosticRow(path, d, lines)).sort((a, b) => a.line - b.line);
  const capped = capList(rows, DIAGNOSTICS_CAP);
  return listed("diagnostics", capped, capped.items.map(diagnosticLine), rows.length ? "" : `No errors or warnings in ${file}.`, "fresh");
}

/** `diagnostics "*"`: every root's project checker, one after another (they are CPU-heavy). */
async function projectCheck(services: LanguageServices, signal: AbortSignal): Promise<{ text: string; data: Output }> {
  const { supervisor } = services;
  const lines = new SourceLines(supervisor.workdir);
  const rows: DiagnosticRow[] = [];
  const notes: string[] = [];
  let timedOut = false;
  let unchecked = 0;
  for (const spec of supervisor.catalog) {
    if (!spec.checker) continue;
    for (const root of scanRoots(supervisor.workdir, spec.rootMarkers)) {
      const rel = shownPath(relativeToWorkdir(supervisor.workdir, root));
      try {
        const run = await runChecker(spec, spec.checker, root, supervisor.launchContext(), lines, signal);
        rows.push(...run.rows);
        timedOut ||= run.timedOut;
        notes.push(`${spec.id} in ${rel}: \`${run.command}\`${run.timedOut ? " timed out" : ""}, ${run.rows.length} finding(s)`);
      } catch (error) {
        unchecked++;
        notes.push(`${spec.id} in ${rel}: not checked — ${(error as Error).message}`);
      }
    }
  }
  if (notes.length === 0) throw new ToolFailure(`No project root with a checker was found in the workspace (markers such as tsconfig.json, pyproject.toml, go.mod, Cargo.toml, compile_commands.json, pubspec.yaml).`);
  const capped = capList(rows, DIAGNOSTICS_CAP);
  // A project that was not checked is unknown, never clean: the answer says so and is not `fresh`.
  const checked = notes.length - unchecked;
  const emptyText =
    unchecked === 0
      ? "No errors or warnings."
      : checked === 0
        ? "No project could be checked (reasons above), so nothing is known about its errors."
        : `No errors or warnings in the ${checked} project(s) checked; ${unchecked} could not be checked (above).`;
  const reply = listed("diagnostics", capped, capped.items.map(diagnosticLine), emptyText, timedOut ? "timed_out" : unchecked > 0 ? "unsupported" : "fresh");
  reply.text = `${notes.join("\n")}\n${reply.text}`;
  reply.data.note = [reply.data.note, ...notes].filter(Boolean).join("; ");
  return reply;
}

function listed<T extends object>(
  action: string,
  capped: { items: T[]; shown: number; total: number; note: string },
  lines: string[],
  emptyText: string,
  status?: string,
): { text: string; data: Output } {
  const text = capped.total === 0 ? emptyText : [...lines, ...(capped.note ? [`(${capped.note})`] : [])].join("\n");
  return {
    text,
    data: {
      action,
      results: capped.items.map((item) => ({ ...item }) as Record<string, unknown>),
      shown: capped.shown,
      total: capped.total,
      ...(capped.note ? { note: capped.note } : {}),
      ...(status ? { status } : {}),
    },
  };
}

function symbolLine(s: SymbolRow): string {
  return `${shownPath(s.path)}:${s.line}: ${s.kind} ${s.name}${s.container ? ` (in ${s.container})` : ""}`;
}

