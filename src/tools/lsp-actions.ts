// The `lsp` tool's actions: a validated call becomes one domain query, answered as text and data.
import { capText } from "../tool/budget.ts";
import { paged, type Page } from "../tool/paging.ts";
import { ToolFailure } from "../answer/failure.ts";
import { resolveInWorkdir } from "../workspace/paths.ts";
import { shownPath } from "../workspace/shown-path.ts";
import { collectDiagnostics } from "../lsp/diagnostics.ts";
import { diagnosticsUnavailable } from "../lsp/launch.ts";
import { syncDocument } from "../lsp/documents.ts";
import { diagnosticLine, diagnosticRow, isErrorOrWarning, placeLine, type DiagnosticRow, type PlaceRow } from "../lsp/present.ts";
import { calls, type CallRow } from "../lsp/calls.ts";
import { checkProjects } from "../lsp/project-check.ts";
import { definitionAt, locateAddress, withContainers, type ContainedRow } from "../lsp/addressing.ts";
import { definitionLines, definitionSpan, outlineLines, type NumberedLine } from "../lsp/definition-text.ts";
import { shownNamePath } from "../lsp/name-path.ts";
import { splitLines } from "../lsp/position.ts";
import { codeActions, hover, navigate, referencesOnceMore, refuseWhereNoSymbol, refuseWhileIndexing } from "../lsp/queries.ts";
import type { LanguageServices } from "../lsp/service.ts";
import { documentOutline, workspaceSymbols, type SymbolRow } from "../lsp/symbols.ts";

export const ACTIONS = ["diagnostics", "definition", "type_definition", "implementation", "references", "calls", "hover", "body", "symbols", "code_actions", "status", "reload"] as const;
type LspAction = (typeof ACTIONS)[number];

/** Rows per page of references; `offset` pages on. */
const REFERENCES_CAP = 50;
const WORKSPACE_SYMBOLS_CAP = 100;
const DOCUMENT_SYMBOLS_CAP = 200;
const DIAGNOSTICS_CAP = 200;
const LOCATIONS_CAP = 50;
const HOVER_MAX_BYTES = 8_000;

export interface LspCall {
  action: LspAction;
  file?: string;
  line?: number;
  symbol?: string;
  /** The definition's path through the outline, instead of line + symbol. */
  name_path?: string;
  /** With body: 1 shows the children's signatures instead of their bodies. */
  depth?: number;
  query?: string;
  /** For calls: the calls into the function, or out of it. */
  direction?: "incoming" | "outgoing";
  /** Rows to skip, for the next page of a capped list. */
  offset?: number;
  /** With status: every server's row, the ones this checkout does not use included. */
  all?: boolean;
}

interface LspAnswer {
  text: string;
  data: {
    action: string;
    results?: Record<string, unknown>[];
    hover?: string;
    status?: string;
    shown?: number;
    total?: number;
    offset?: number;
    note?: string;
    /** With body: where the definition is and what it is. */
    path?: string;
    name_path?: string;
    kind?: string;
    start_line?: number;
    end_line?: number;
  };
}

export async function answerLspCall(services: LanguageServices, call: LspCall, signal: AbortSignal): Promise<LspAnswer> {
  const { supervisor } = services;
  const { action } = call;
  const need = (what: "file") => {
    if (call[what] === undefined) throw new ToolFailure(`${action} needs ${what}, e.g. {"action": "${action}", "file": "src/a.ts"}.`, { code: "invalid_arguments" });
    return call[what]!;
  };
  switch (action) {
    case "definition":
    case "type_definition":
    case "implementation":
    case "references": {
      const target = await locateAddress(supervisor, call, action, signal);
      let rows = await navigate(target, action, signal);
      // A name path names a definition the server's outline lists: it is a symbol, not a word in a comment.
      if (rows.length === 0 && !target.definition) await refuseWhereNoSymbol(target, call.symbol!, call.line!, signal);
      if (rows.length === 0 && action === "references") rows = await referencesOnceMore(target, signal);
      const page = paged(rows, call.offset, action === "references" ? REFERENCES_CAP : LOCATIONS_CAP);
      const head = rows.length ? "" : `No ${action.replace("_", " ")} found for ${target.label}.`;
      if (action !== "references") return listed(action, page, page.items.map(placeLine), head);
      const contained = await withContainers(supervisor, page.items, signal);
      const answer = listed(action, { ...page, items: contained.rows }, contained.rows.map(usePlaceLine), head);
      return withNotes(answer, contained.note ? [contained.note] : []);
    }
    case "body":
      return body(services, call, signal);
    case "calls": {
      if (call.direction === undefined) throw new ToolFailure(`calls needs direction: "incoming" (who calls it) or "outgoing" (what it calls), e.g. {"action": "calls", "file": "src/a.ts", "line": 12, "symbol": "parse", "direction": "incoming"}.`, { code: "invalid_arguments" });
      const target = await locateAddress(supervisor, call, action, signal);
      const rows = await calls(target, call.direction, signal);
      const page = paged(rows, call.offset, REFERENCES_CAP);
      const none = `No ${call.direction} calls found for ${target.label}.`;
      return listed(action, page, page.items.map(callLine), rows.length ? "" : none);
    }
    case "hover": {
      const target = await locateAddress(supervisor, call, action, signal);
      const text = capText(await hover(target, signal), HOVER_MAX_BYTES).text;
      return { text: text || `The server has no hover text for ${target.label}.`, data: { action, hover: text } };
    }
    case "code_actions": {
      const target = await locateAddress(supervisor, call, action, signal);
      const rows = await codeActions(target, signal);
      const page = paged(rows, call.offset, LOCATIONS_CAP);
      const lines = page.items.map((a) => `${a.number}. ${a.title}${a.kind ? ` [${a.kind}]` : ""}${a.preferred ? " (preferred)" : ""}`);
      return listed(action, page, lines, rows.length ? "" : `The server offers no code actions at ${target.label}.`);
    }
    case "symbols": {
      if (call.query !== undefined) {
        const search = await workspaceSymbols(supervisor, call.query, call.file, signal);
        const page = paged(search.rows, call.offset, WORKSPACE_SYMBOLS_CAP);
        const answer = listed(action, page, page.items.map(symbolLine), search.rows.length ? "" : `No symbol matches ${JSON.stringify(call.query)}.`);
        return withNotes(answer, search.notes);
      }
      const outline = await documentOutline(supervisor, need("file"), signal);
      const page = paged(outline.rows, call.offset, DOCUMENT_SYMBOLS_CAP);
      const answer = listed(action, page, page.items.map(outlineLine), outline.rows.length ? "" : `The server lists no symbols in ${call.file}.`);
      return withNotes(answer, outline.locals ? [`${outline.locals} local(s) of functions and methods are not listed`] : []);
    }
    case "diagnostics":
      return need("file") === "*" ? projectDiagnostics(services, call.offset, signal) : fileDiagnostics(services, call.file!, call.offset, signal);
    case "status":
      return status(services, call.all === true);
    case "reload": {
      // The file only names the root; finding it must not start a server just to restart it.
      const roots = call.file === undefined ? undefined : supervisor.rootsFor(resolveInWorkdir(supervisor.workdir, call.file));
      if (roots?.length === 0) throw new ToolFailure(`No language server has a root for ${call.file}: no root marker in its folder or above it. lsp status lists the markers.`, { code: "server_unavailable" });
      const reloaded = roots === undefined ? await supervisor.reload() : (await Promise.all(roots.map((root) => supervisor.reload(root)))).flat();
      const text = reloaded.length ? reloaded.join("\n") : "No server had been started for that root yet; they start on first use.";
      return { text, data: { action, results: reloaded.map((name) => ({ server: name })) } };
    }
  }
}

/**
 * What this checkout uses first (a root, or files waiting for one); the servers with nothing here in
 * one line, unless `all`. The data keeps every row either way.
 */
function status(services: LanguageServices, all: boolean): LspAnswer {
  const rows = services.supervisor.status();
  const unused = rows.filter((r) => r.root === null && !r.unrootedFile);
  const shown = all ? rows : rows.filter((r) => !unused.includes(r));
  const lines = shown.map((r) => `${r.server.padEnd(10)} ${(r.root ? shownPath(r.root) : "-").padEnd(16)} ${r.state}${r.reason ? ` — ${r.reason}` : ""}${r.lacks ? ` (does not offer: ${r.lacks.join(", ")})` : ""}`);
  if (shown.length === 0) lines.push("No language server is used here: no server's root marker or files are in the workspace.");
  if (!all && unused.length) {
    lines.push(`Not used here (none of their root markers or files in the workspace): ${unused.length} of ${rows.length} servers: ${unused.map((r) => r.server).join(", ")}. {"action": "status", "all": true} lists each with what it looks for.`);
  }
  const watching = services.watchStatus();
  return { text: [...lines, watching].join("\n"), data: { action: "status", results: rows.map((r) => ({ ...r })), note: watching } };
}

async function fileDiagnostics(services: LanguageServices, file: string, offset: number | undefined, signal: AbortSignal): Promise<LspAnswer> {
  const { supervisor } = services;
  const path = resolveInWorkdir(supervisor.workdir, file);
  const handle = await supervisor.serverFor(path);
  const unavailable = diagnosticsUnavailable(handle.spec, supervisor.launchContext());
  if (unavailable) throw new ToolFailure(unavailable, { code: "unsupported" });
  const document = await syncDocument(handle.client, supervisor.workdir, path);
  await supervisor.current(handle.client); // its imports may have changed on disk
  const collected = await collectDiagnostics(handle.client, document, signal);
  if (collected.status === "timed_out") {
    refuseWhileIndexing(handle.client);
    throw new ToolFailure(`The ${handle.spec.id} server sent no diagnostics for ${file} in time; try again, or lsp reload if it keeps happening.`, { code: "not_ready" });
  }
  const lines = supervisor.lines();
  const rows = collected.diagnostics.filter(isErrorOrWarning).map((d) => diagnosticRow(path, d, lines)).sort((a, b) => a.line - b.line);
  const page = paged(rows, offset, DIAGNOSTICS_CAP);
  return listed("diagnostics", page, page.items.map(diagnosticLine), rows.length ? "" : `No errors or warnings in ${file}.`, "fresh");
}

async function projectDiagnostics(services: LanguageServices, offset: number | undefined, signal: AbortSignal): Promise<LspAnswer> {
  const check = await checkProjects(services.supervisor, signal);
  if (check.notes.length === 0) {
    throw new ToolFailure(`No project root with a checker was found in the workspace (markers such as tsconfig.json, pyproject.toml, go.mod, Cargo.toml, compile_commands.json, pubspec.yaml).`, { code: "server_unavailable" });
  }
  const page = paged<DiagnosticRow>(check.rows, offset, DIAGNOSTICS_CAP);
  // A project that was not checked is unknown, never clean: the answer says so and is not `fresh`.
  const checked = check.notes.length - check.unchecked;
  const emptyText =
    check.unchecked === 0
      ? "No errors or warnings."
      : checked === 0
        ? "No project could be checked (reasons above), so nothing is known about its errors."
        : `No errors or warnings in the ${checked} project(s) checked; ${check.unchecked} could not be checked (above).`;
  const state = check.cancelled || check.timedOut ? "timed_out" : check.unchecked > 0 ? "unsupported" : "fresh";
  const reply = listed("diagnostics", page, page.items.map(diagnosticLine), emptyText, state);
  reply.text = `${check.notes.join("\n")}\n${reply.text}`;
  reply.data.note = [reply.data.note, ...check.notes].filter(Boolean).join("; ");
  return reply;
}

function listed<T extends object>(action: string, page: Page<T>, lines: string[], emptyText: string, status?: string): LspAnswer {
  const text = page.total === 0 ? emptyText : [...lines, ...(page.note ? [`(${page.note})`] : [])].join("\n");
  return {
    text,
    data: {
      action,
      results: page.items.map((item) => ({ ...item }) as Record<string, unknown>),
      shown: page.shown,
      total: page.total,
      ...(page.offset ? { offset: page.offset } : {}),
      ...(page.note ? { note: page.note } : {}),
      ...(status ? { status } : {}),
    },
  };
}

function withNotes(answer: LspAnswer, notes: readonly string[]): LspAnswer {
  if (notes.length === 0) return answer;
  answer.text = `${answer.text}\n${notes.map((note) => `note: ${note}`).join("\n")}`;
  answer.data.note = [answer.data.note, ...notes].filter(Boolean).join("; ");
  return answer;
}

/** A use, with the definition it sits in: `src/cli.py:40:5: args = parse_args(argv)  (in Parser/run)`. */
function usePlaceLine(row: ContainedRow<PlaceRow>): string {
  return `${placeLine(row)}${row.in ? `  (in ${row.in})` : ""}`;
}

/** Lines of a definition per page of `body`. */
const BODY_LINES_CAP = 200;

/** The definition's source (doc comment and decorators included), numbered and paged; depth 1: its children's signatures only. */
async function body(services: LanguageServices, call: LspCall, signal: AbortSignal): Promise<LspAnswer> {
  const { supervisor } = services;
  if (call.name_path === undefined && call.line === undefined) {
    throw new ToolFailure(`body needs name_path (with file, or alone to search the workspace), or file, line and symbol — e.g. {"action": "body", "file": "src/cli.py", "name_path": "Parser/parse_args"}.`, { code: "invalid_arguments" });
  }
  const found = await definitionAt(supervisor, call, "body", signal);
  const lines = splitLines(found.document.text);
  const span = definitionSpan(lines, found.definition, found.path);
  const rows = call.depth === 1 ? outlineLines(lines, found.definition, span, found.path) : definitionLines(lines, span);
  const page = paged(rows, call.offset, BODY_LINES_CAP);
  const shown = supervisor.lines().display(found.path);
  const namePath = shownNamePath(found.definition);
  const width = String(span.end + 1).length;
  const head = `${shownPath(shown)}:${span.start + 1}–${span.end + 1}: ${found.definition.kind} ${namePath}${call.depth === 1 ? " (children's bodies left out)" : ""}`;
  return {
    text: [head, ...page.items.map((row) => numbered(row, width)), ...(page.note ? [`(${page.note} lines)`] : [])].join("\n"),
    data: {
      action: "body",
      path: shown,
      name_path: namePath,
      kind: found.definition.kind,
      start_line: span.start + 1,
      end_line: span.end + 1,
      results: page.items.map((row) => ({ ...row })),
      shown: page.shown,
      total: page.total,
      ...(page.offset ? { offset: page.offset } : {}),
      ...(page.note ? { note: page.note } : {}),
    },
  };
}

function callLine(c: CallRow): string {
  return `${placeLine(c)}  [${c.kind} ${c.name}]`;
}

function symbolLine(s: SymbolRow): string {
  const outside = s.outside === "link" ? " (outside the workspace, through a symlink)" : s.outside ? " (outside the workspace)" : "";
  return `${shownPath(s.path)}:${s.line}:${outside} ${s.kind} ${s.name}${s.container ? ` (in ${s.container})` : ""}`;
}

function outlineLine(s: SymbolRow): string {
  return `${shownPath(s.path)}:${s.line}: ${"  ".repeat(s.depth ?? 0)}${s.kind} ${s.name}`;
}

/** A numbered line as `body` shows it: the number right-aligned, then the text; a cut line unnumbered. */
function numbered(row: NumberedLine, width: number): string {
  return `${row.line ? String(row.line).padStart(width) : " ".repeat(width)}  ${row.text}`;
}
