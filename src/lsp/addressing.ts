// Where a call points: a line + symbol, or a name path through a file's outline (or the workspace's, without a file).
import type { DocumentSymbol, Range, SymbolInformation } from "vscode-languageserver-protocol";
import { ToolFailure } from "../answer/failure.ts";
import { resolveInWorkdir } from "../workspace/paths.ts";
import { shownPath } from "../workspace/shown-path.ts";
import { syncDocument, type SyncedDocument } from "./documents.ts";
import { definitionNamedAt, definitionsOf, enclosingDefinition, matchNamePath, nameSegments, parseNamePath, pickDefinition, shownNamePath, type Definition } from "./name-path.ts";
import { pathOfUri } from "./present.ts";
import { locate, refuseWhileIndexing, requireProvider, type Target } from "./queries.ts";
import type { LanguageServerSupervisor, ServerHandle } from "./supervisor.ts";
import { workspaceSymbols } from "./symbols.ts";

/** A position as the model names it: a line and the symbol written on it, or a definition's name path. */
export interface Address {
  file?: string;
  line?: number;
  symbol?: string;
  name_path?: string;
}

/** A file's outline as definitions, from the server that holds the file (synced first). */
interface FileOutline {
  handle: ServerHandle;
  path: string;
  document: SyncedDocument;
  definitions: Definition[];
}

/** Files a name path without `file` is looked for in, at most: the workspace search's matches. */
const SEARCHED_FILES = 10;

async function fileOutline(supervisor: LanguageServerSupervisor, path: string, signal?: AbortSignal): Promise<FileOutline> {
  const handle = await supervisor.serverFor(path);
  const document = await syncDocument(handle.client, supervisor.workdir, path);
  await supervisor.current(handle.client);
  requireProvider(handle.client, "documentSymbolProvider", "name_path");
  const answer = await handle.client.query<(DocumentSymbol | SymbolInformation)[] | null>("textDocument/documentSymbol", { textDocument: { uri: document.uri } }, signal);
  const definitions = definitionsOf(answer);
  if (definitions.length === 0) refuseWhileIndexing(handle.client);
  return { handle, path, document, definitions };
}

/** A definition found by its name path, in the file given or through the workspace's symbol search. */
interface FoundDefinition extends FileOutline {
  definition: Definition;
}

export async function findDefinition(supervisor: LanguageServerSupervisor, file: string | undefined, namePath: string, signal?: AbortSignal): Promise<FoundDefinition> {
  if (file !== undefined) {
    const outline = await fileOutline(supervisor, resolveInWorkdir(supervisor.workdir, file), signal);
    return { ...outline, definition: pickDefinition(outline.definitions, namePath, shownPath(supervisor.lines().display(outline.path))) };
  }
  const path = parseNamePath(namePath);
  const last = path.segments[path.segments.length - 1]!;
  const search = await workspaceSymbols(supervisor, last, undefined, signal);
  const files = [...new Set(search.rows.filter((row) => !row.outside && nameSegments(row.name.replace(/.*\./, "")).at(-1) === last).map((row) => row.path))];
  const found: FoundDefinition[] = [];
  for (const shown of files.slice(0, SEARCHED_FILES)) {
    const outline = await fileOutline(supervisor, resolveInWorkdir(supervisor.workdir, shown), signal);
    for (const definition of matchNamePath(outline.definitions, path)) found.push({ ...outline, definition });
  }
  const where = (f: FoundDefinition) => `${shownPath(supervisor.lines().display(f.path))}:${f.definition.selectionRange.start.line + 1} ${shownNamePath(f.definition)} (${f.definition.kind})`;
  const searched = files.length > SEARCHED_FILES ? ` (the first ${SEARCHED_FILES} of ${files.length} files the search named were looked in)` : "";
  if (path.pick !== undefined) {
    const picked = found[path.pick - 1];
    if (picked) return picked;
    throw new ToolFailure(`${JSON.stringify(namePath)}: the workspace holds ${found.length} definition(s) of ${path.segments.join("/")}${searched}, so #${path.pick} does not exist. ${found.map(where).join("; ")}`, {
      code: "symbol_not_found",
    });
  }
  if (found.length === 1) return found[0]!;
  if (found.length === 0) {
    const notes = search.notes.length ? ` (${search.notes.join("; ")})` : "";
    throw new ToolFailure(`The workspace symbol search found no definition with the name path ${JSON.stringify(namePath)}${searched}${notes}. Pass file to look in one file's outline (lsp symbols {file} lists it), or search with lsp symbols {query}.`, {
      code: "symbol_not_found",
    });
  }
  throw new ToolFailure(`${JSON.stringify(namePath)} matches ${found.length} definitions in the workspace${searched}: ${found.map(where).join("; ")}. Pass file (and a longer name path, or name#N) to pick one.`, {
    code: "ambiguous_symbol",
    matches: found.map((f) => ({ path: supervisor.lines().display(f.path), line: f.definition.selectionRange.start.line + 1, name_path: shownNamePath(f.definition) })),
  });
}

/** A target for a position action: the name's place in the definition a name path names, or line + symbol as before. */
export async function locateAddress(supervisor: LanguageServerSupervisor, address: Address, action: string, signal?: AbortSignal): Promise<Target> {
  if (address.name_path === undefined) {
    if (address.file === undefined) throw new ToolFailure(`${action} needs file with line and symbol, or a name_path — e.g. {"file": "src/a.ts", "line": 12, "symbol": "parseConfig"} or {"name_path": "Parser/parse_args"}.`, { code: "invalid_arguments" });
    return locate(supervisor, address.file, address.line, address.symbol, action);
  }
  if (address.line !== undefined || address.symbol !== undefined) {
    throw new ToolFailure(`${action} takes either name_path or line and symbol, not both: name_path names the definition on its own.`, { code: "invalid_arguments" });
  }
  const found = await findDefinition(supervisor, address.file, address.name_path, signal);
  const { selectionRange } = found.definition;
  const length = selectionRange.end.line === selectionRange.start.line ? selectionRange.end.character - selectionRange.start.character : found.definition.name.length;
  return {
    supervisor,
    handle: found.handle,
    path: found.path,
    document: found.document,
    position: selectionRange.start,
    length,
    label: `${shownNamePath(found.definition)} (line ${selectionRange.start.line + 1})`,
    definition: found.definition,
  };
}

/**
 * The definition an address names: by name path, or the one whose name is at line + symbol (a
 * use elsewhere is followed to its definition through the server).
 */
export async function definitionAt(supervisor: LanguageServerSupervisor, address: Address, action: string, signal?: AbortSignal): Promise<FoundDefinition> {
  if (address.name_path !== undefined) {
    if (address.line !== undefined || address.symbol !== undefined) throw new ToolFailure(`${action} takes either name_path or line and symbol, not both.`, { code: "invalid_arguments" });
    return findDefinition(supervisor, address.file, address.name_path, signal);
  }
  const target = await locateAddress(supervisor, address, action, signal);
  const outline = await fileOutline(supervisor, target.path, signal);
  const here = definitionNamedAt(outline.definitions, target.position);
  if (here) return { ...outline, definition: here };
  requireProvider(target.handle.client, "definitionProvider", action);
  type Place = { uri?: string; targetUri?: string; range?: Range; targetSelectionRange?: Range };
  const answer = await target.handle.client.query<Place[] | Place | null>("textDocument/definition", { textDocument: { uri: target.document.uri }, position: target.position }, signal);
  const first = Array.isArray(answer) ? answer[0] : (answer ?? undefined);
  const uri = first?.targetUri ?? first?.uri;
  const start = first?.targetSelectionRange?.start ?? first?.range?.start;
  if (uri && start) {
    const path = resolveInWorkdir(supervisor.workdir, pathOfUri(uri));
    const there = await fileOutline(supervisor, path, signal);
    const definition = definitionNamedAt(there.definitions, start);
    if (definition) return { ...there, definition };
  }
  throw new ToolFailure(`${target.label} is no definition the ${target.handle.client.spec.id} server's outline lists, and its definition is not one either. Pass name_path (lsp symbols {file} shows the outline).`, { code: "symbol_not_found" });
}

/** A use, and the definition it sits inside (`Parser/parse_args`), when the file's outline has one around it. */
export type ContainedRow<T> = T & { in?: string };

/**
 * Says of each row inside the workspace which definition holds it, from its file's outline: so an
 * agent can read the callers' bodies next. A file whose outline cannot be had is counted in the
 * note, its rows left without `in` (never a guess).
 */
export async function withContainers<T extends { path: string; line: number; column: number; outside?: string }>(
  supervisor: LanguageServerSupervisor,
  rows: readonly T[],
  signal?: AbortSignal,
): Promise<{ rows: ContainedRow<T>[]; note?: string }> {
  const outlines = new Map<string, Definition[] | undefined>();
  for (const row of rows) {
    if (row.outside || outlines.has(row.path)) continue;
    try {
      outlines.set(row.path, (await fileOutline(supervisor, resolveInWorkdir(supervisor.workdir, row.path), signal)).definitions);
    } catch (error) {
      if (signal?.aborted) throw error;
      outlines.set(row.path, undefined);
    }
  }
  const unknown = [...outlines].filter(([, definitions]) => definitions === undefined).map(([path]) => shownPath(path));
  const contained = rows.map((row) => {
    const definitions = outlines.get(row.path);
    const holder = definitions && enclosingDefinition(definitions, { line: row.line - 1, character: row.column - 1 });
    return holder ? { ...row, in: shownNamePath(holder) } : { ...row };
  });
  return { rows: contained, ...(unknown.length ? { note: `which definition holds each use is not known in ${unknown.join(", ")} (its outline could not be had)` } : {}) };
}
