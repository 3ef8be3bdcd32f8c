// The navigation actions of `lsp`: a file, line and symbol become one LSP request and rows a model can read.
import type { CodeAction, Command, DocumentSymbol, Hover, MarkupContent, SymbolInformation, WorkspaceSymbol } from "vscode-languageserver-protocol";
import { ToolFailure } from "../answer/failure.ts";
import { relativeToWorkdir, resolveInWorkdir } from "../workspace/paths.ts";
import type { LanguageServerClient } from "./client.ts";
import { collectDiagnostics } from "./diagnostics.ts";
import { refreshOpenDocuments, syncDocument, type SyncedDocument } from "./documents.ts";
import { resolveSymbolColumn, splitLines } from "./position.ts";
import { pathOfUri, placesOf, SourceLines, type PlaceRow } from "./present.ts";
import { scanRoots } from "../workspace/project-roots.ts";
import { sampleFileFor } from "./roots.ts";
import { STATUS_PROBE_ROOTS, type LanguageServerSupervisor, type ServerHandle } from "./supervisor.ts";

export const NAVIGATION_METHODS = {
  definition: "textDocument/definition",
  type_definition: "textDocument/typeDefinition",
  implementation: "textDocument/implementation",
  references: "textDocument/references",
} as const;

const NAVIGATION_PROVIDERS = {
  definition: "definitionProvider",
  type_definition: "typeDefinitionProvider",
  implementation: "implementationProvider",
  references: "referencesProvider",
} as const;

export interface Target {
  workdir: string;
  handle: ServerHandle;
  path: string;
  document: SyncedDocument;
  position: { line: number; character: number };
  /** The symbol as matched, without any #n suffix. */
  length: number;
}

/** Opens the file on its server and turns line + symbol into an LSP position. */
export async function locate(supervisor: LanguageServerSupervisor, file: string, line: number | undefined, symbol: string | undefined, action: string): Promise<Target> {
  if (line === undefined || symbol === undefined) {
    throw new ToolFailure(`${action} needs file, line and symbol — e.g. {"action": "${action}", "file": "src/a.ts", "line": 12, "symbol": "parseConfig"}. Positions are never guessed from a column.`);
  }
  const path = resolveInWorkdir(supervisor.workdir, file);
  const handle = await supervisor.serverFor(path);
  const document = await syncDocument(handle.client, supervisor.workdir, path);
  await refreshOpenDocuments(handle.client, supervisor.workdir, document.uri);
  const lines = splitLines(document.text);
  if (line > lines.length) throw new ToolFailure(`${file} has ${lines.length} lines; line ${line} does not exist.`);
  const column = resolveSymbolColumn(lines[line - 1]!, symbol, line);
  const bare = symbol.replace(/#\d+$/, "");
  // On a sigil-prefixed name ($VERSION, $gap, $name) the position is its first letter: the
  // Dockerfile server resolves nothing on the `$`, and every server resolves the letter.
  const sigil = bare.length > 1 && bare.startsWith("$") ? 1 : 0;
  return { workdir: supervisor.workdir, handle, path, document, position: { line: line - 1, character: column.character + sigil }, length: lines[line - 1]!.startsWith(bare, column.character) ? bare.length - sigil : symbol.length };
}

export async function navigate(target: Target, action: keyof typeof NAVIGATION_METHODS, signal?: AbortSignal): Promise<PlaceRow[]> {
  const { client } = target.handle;
  requireProvider(client, NAVIGATION_PROVIDERS[action], action);
  const params = {
    textDocument: { uri: target.document.uri },
    position: target.position,
    ...(action === "references" ? { context: { includeDeclaration: true } } : {}),
  };
  const answer = await client.query<Parameters<typeof placesOf>[0]>(NAVIGATION_METHODS[action], params, signal);
  const rows = dedupe(placesOf(answer, new SourceLines(target.workdir)));
  if (rows.length === 0) refuseWhileIndexing(client);
  return rows;
}

export async function hover(target: Target, signal?: AbortSignal): Promise<string> {
  requireProvider(target.handle.client, "hoverProvider", "hover");
  const answer = await target.handle.client.query<Hover | null>("textDocument/hover", { textDocument: { uri: target.document.uri }, position: target.position }, signal);
  const text = answer ? hoverText(answer.contents) : "";
  if (!text) refuseWhileIndexing(target.handle.client);
  return text;
}

export interface CodeActionRow {
  title: string;
  kind?: string;
  preferred?: boolean;
}

export async function codeActions(target: Target, signal?: AbortSignal): Promise<CodeActionRow[]> {
  const { client } = target.handle;
  const range = { start: target.position, end: { line: target.position.line, character: target.position.character + target.length } };
  // Quick fixes are offered for the diagnostics passed in: on a file just opened the cache is empty,
  // and the first call listed none ("Add import" came only on a later one). Wait for this version's.
  const collected = await collectDiagnostics(client, target.document, signal);
  const current = collected.status === "fresh" ? collected.diagnostics : (client.published.get(target.document.uri)?.diagnostics ?? []);
  const onLine = current.filter(
    (d) => d.range.start.line <= target.position.line && d.range.end.line >= target.position.line,
  );
  const answer = await client.query<(Command | CodeAction)[] | null>(
    "textDocument/codeAction",
    { textDocument: { uri: target.document.uri }, range, context: { diagnostics: onLine, triggerKind: 1 } },
    signal,
  );
  return (answer ?? []).map((a) => ({ title: a.title, ...("kind" in a && a.kind ? { kind: a.kind } : {}), ...("isPreferred" in a && a.isPreferred ? { preferred: true } : {}) }));
}

export interface SymbolRow {
  name: string;
  kind: string;
  path: string;
  line: number;
  /** Enclosing symbol, for document symbols. */
  container?: string;
}

export async function documentSymbols(supervisor: LanguageServerSupervisor, file: string, signal?: AbortSignal): Promise<SymbolRow[]> {
  const path = resolveInWorkdir(supervisor.workdir, file);
  const handle = await supervisor.serverFor(path);
  const document = await syncDocument(handle.client, supervisor.workdir, path);
  await refreshOpenDocuments(handle.client, supervisor.workdir, document.uri);
  requireProvider(handle.client, "documentSymbolProvider", "symbols");
  const answer = await handle.client.query<(DocumentSymbol | SymbolInformation)[] | null>("textDocument/documentSymbol", { textDocument: { uri: document.uri } }, signal);
  const shown = relativeToWorkdir(supervisor.workdir, path);
  const rows: SymbolRow[] = [];
  const walk = (symbols: (DocumentSymbol | SymbolInformation)[], container?: string) => {
    for (const s of symbols) {
      const line = "location" in s ? s.location.range.start.line : s.selectionRange.start.line;
      rows.push({ name: s.name, kind: kindName(s.kind), path: shown, line: line + 1, ...(container ?? ("containerName" in s && s.containerName) ? { container: container ?? (s as SymbolInformation).containerName! } : {}) });
      if ("children" in s && s.children) walk(s.children, s.name);
    }
  };
  walk(answer ?? []);
  if (rows.length === 0) refuseWhileIndexing(handle.client);
  return rows;
}

/** Workspace search on the file's server when a file is given, else on every running server. */
export async function workspaceSymbols(supervisor: LanguageServerSupervisor, query: string, file: string | undefined, signal?: AbortSignal): Promise<SymbolRow[]> {
  let handles: ServerHandle[];
  if (file !== undefined) {
    const path = resolveInWorkdir(supervisor.workdir, file);
    const handle = await supervisor.serverFor(path);
    // tsserver answers workspace/symbol only for projects with an open file.
    await syncDocument(handle.client, supervisor.workdir, path);
    handles = [handle];
  } else {
    handles = supervisor.running();
    if (handles.length === 0) handles = await startForSearch(supervisor);
    if (handles.length === 0) throw new ToolFailure(`No language server could start for this workspace (see lsp status). Pass file with query to pick the project to search.`);
  }
  const lines = new SourceLines(supervisor.workdir);
  // Open files changed on disk are re-sent first: a symbol's line came from the server's old copy.
  await Promise.all(handles.map(({ client }) => refreshOpenDocuments(client, supervisor.workdir)));
  const results = await Promise.all(
    handles.map(async ({ client }) => {
      const answer = await client.query<(SymbolInformation | WorkspaceSymbol)[] | null>("workspace/symbol", { query }, signal);
      return (answer ?? []).map((s) => {
        const location = s.location as { uri: string; range?: { start: { line: number } } };
        const path = pathOfUri(location.uri);
        return { name: s.name, kind: kindName(s.kind), path: lines.display(path), line: (location.range?.start.line ?? 0) + 1, ...(s.containerName ? { container: s.containerName } : {}) };
      });
    }),
  );
  const rows = results.flat();
  if (rows.length === 0) for (const { client } of handles) refuseWhileIndexing(client);
  return rows;
}

/** Nothing runs yet: start each server on its roots (bounded), opening one file so the project loads. */
async function startForSearch(supervisor: LanguageServerSupervisor): Promise<ServerHandle[]> {
  const files = supervisor.catalog.flatMap((spec) =>
    scanRoots(supervisor.workdir, spec.rootMarkers)
      .slice(0, STATUS_PROBE_ROOTS)
      .flatMap((root) => sampleFileFor(root, spec) ?? []),
  );
  const started = await Promise.all(
    files.map(async (file) => {
      try {
        const handle = await supervisor.serverFor(file);
        await syncDocument(handle.client, supervisor.workdir, file);
        return [handle];
      } catch {
        return [];
      }
    }),
  );
  const unique = new Map(started.flat().map((h) => [h.client, h]));
  return [...unique.values()];
}

const OFFERED_ACTIONS = [
  ["definition", "definitionProvider"],
  ["references", "referencesProvider"],
  ["hover", "hoverProvider"],
  ["symbols", "documentSymbolProvider"],
  ["implementation", "implementationProvider"],
  ["type_definition", "typeDefinitionProvider"],
] as const;

/** A server that does not offer the action (sql-language-server has no hover) is said to, with what it does offer. */
function requireProvider(client: LanguageServerClient, provider: keyof LanguageServerClient["capabilities"], action: string): void {
  const unanswered = client.spec.unanswered?.[action as keyof NonNullable<typeof client.spec.unanswered>];
  if (unanswered) throw new ToolFailure(`The ${client.spec.id} server does not answer ${action.replace("_", " ")}: ${unanswered}.`);
  if (client.capabilities[provider]) return;
  const offered = OFFERED_ACTIONS.filter(([, p]) => client.capabilities[p]).map(([name]) => name);
  const instead = offered.length ? `It offers ${offered.join(", ")}.` : "It offers none of definition, references, hover or symbols; diagnostics still work.";
  throw new ToolFailure(`The ${client.spec.id} server does not offer ${action.replace("_", " ")}. ${instead}`);
}

/** An empty answer from a server still indexing is "try again", never "nothing there". */
export function refuseWhileIndexing(client: LanguageServerClient): void {
  const busy = [...client.activeProgress.values()];
  if (busy.length === 0) return;
  throw new ToolFailure(`The ${client.spec.id} server is still indexing (${busy.slice(0, 3).join("; ")}), so its empty answer means nothing yet. Try again in a few seconds.`);
}

function dedupe(rows: PlaceRow[]): PlaceRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = `${r.path}:${r.line}:${r.preview}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function hoverText(contents: Hover["contents"]): string {
  const parts = Array.isArray(contents) ? contents : [contents];
  return parts
    .map((p) => (typeof p === "string" ? p : "kind" in p ? (p as MarkupContent).value : `\`\`\`${p.language}\n${p.value}\n\`\`\``))
    .filter(Boolean)
    .join("\n\n")
    .replace(INLINE_IMAGE, "")
    .trim();
}

/** An image inlined as a data: URI (the CSS server's browser-support badge): kilobytes of base64 that tell a model nothing. */
const INLINE_IMAGE = /!\[[^\]]*\]\(data:[^)]*\)\s*/g;

const KINDS = ["", "file", "module", "namespace", "package", "class", "method", "property", "field", "constructor", "enum", "interface", "function", "variable", "constant", "string", "number", "boolean", "array", "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter"];

function kindName(kind: number): string {
  return KINDS[kind] ?? `kind ${kind}`;
}
