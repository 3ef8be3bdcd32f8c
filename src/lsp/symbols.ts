// Symbols: a file's outline as the server's hierarchy, and a workspace search merged across servers.
import type { DocumentSymbol, SymbolInformation, WorkspaceSymbol } from "vscode-languageserver-protocol";
import { ToolFailure } from "../answer/failure.ts";
import { resolveInWorkdir } from "../workspace/paths.ts";
import { scanRoots } from "../workspace/project-roots.ts";
import { syncDocument } from "./documents.ts";
import { pathOfUri } from "./present.ts";
import { refuseWhileIndexing, requireProvider } from "./queries.ts";
import { sampleFileFor } from "./roots.ts";
import { kindName } from "./symbol-kinds.ts";
import { STATUS_PROBE_ROOTS, type LanguageServerSupervisor, type ServerHandle } from "./supervisor.ts";

export interface SymbolRow {
  name: string;
  kind: string;
  path: string;
  line: number;
  /** Enclosing symbol. */
  container?: string;
  /** In an outline: 0 for a top-level entry, 1 for its members, … */
  depth?: number;
  /** Set for a symbol outside the workdir (the standard library, a dependency). */
  outside?: "library" | "link";
}

interface Outline {
  rows: SymbolRow[];
  /** Locals of functions and methods, left out of the outline. */
  locals: number;
}

/** Symbol kinds whose children are locals (a function's variables), not members. */
const LOCAL_SCOPES = new Set([6, 9, 12]); // method, constructor, function

/**
 * A file's outline in source order: top-level entries, and the members of classes, interfaces,
 * enums, namespaces and objects below them. tsserver lists children by name and every local of a
 * function as a child: 81 rows sorted by name for a file of 17 declarations.
 */
export async function documentOutline(supervisor: LanguageServerSupervisor, file: string, signal?: AbortSignal): Promise<Outline> {
  const path = resolveInWorkdir(supervisor.workdir, file);
  const handle = await supervisor.serverFor(path);
  const document = await syncDocument(handle.client, supervisor.workdir, path);
  await supervisor.current(handle.client);
  requireProvider(handle.client, "documentSymbolProvider", "symbols");
  const answer = await handle.client.query<(DocumentSymbol | SymbolInformation)[] | null>("textDocument/documentSymbol", { textDocument: { uri: document.uri } }, signal);
  const shown = supervisor.lines().display(path);
  const rows: SymbolRow[] = [];
  let locals = 0;
  const list = answer ?? [];
  if (list.length > 0 && "location" in list[0]!) {
    // A flat SymbolInformation list: its containerName is all the hierarchy there is.
    for (const s of [...(list as SymbolInformation[])].sort((a, b) => a.location.range.start.line - b.location.range.start.line)) {
      rows.push({ name: s.name, kind: kindName(s.kind), path: shown, line: s.location.range.start.line + 1, ...(s.containerName ? { container: s.containerName } : {}) });
    }
  } else {
    const walk = (symbols: DocumentSymbol[], depth: number, container?: string) => {
      for (const s of [...symbols].sort((a, b) => a.selectionRange.start.line - b.selectionRange.start.line || a.selectionRange.start.character - b.selectionRange.start.character)) {
        rows.push({ name: s.name, kind: kindName(s.kind), path: shown, line: s.selectionRange.start.line + 1, depth, ...(container ? { container } : {}) });
        if (!s.children?.length) continue;
        if (LOCAL_SCOPES.has(s.kind)) locals += countAll(s.children);
        else walk(s.children, depth + 1, s.name);
      }
    };
    walk(list as DocumentSymbol[], 0);
  }
  if (rows.length === 0) refuseWhileIndexing(handle.client);
  return { rows, locals };
}

function countAll(symbols: DocumentSymbol[]): number {
  return symbols.reduce((n, s) => n + 1 + countAll(s.children ?? []), 0);
}

interface WorkspaceSearch {
  rows: SymbolRow[];
  /** One per server that failed or could not search; the others' rows still count. */
  notes: string[];
}

/**
 * Workspace search on the file's server when a file is given, else on every running server (or,
 * with none running, on the servers of the roots found). Rows are merged across servers, the same
 * symbol found by two (two roots of one language) once; a server that fails becomes a note.
 */
export async function workspaceSymbols(supervisor: LanguageServerSupervisor, query: string, file: string | undefined, signal?: AbortSignal): Promise<WorkspaceSearch> {
  let handles: ServerHandle[];
  const notes: string[] = [];
  if (file !== undefined) {
    const path = resolveInWorkdir(supervisor.workdir, file);
    const handle = await supervisor.serverFor(path);
    // tsserver answers workspace/symbol only for projects with an open file.
    await syncDocument(handle.client, supervisor.workdir, path);
    handles = [handle];
  } else {
    handles = supervisor.running();
    if (handles.length === 0) handles = await startForSearch(supervisor, notes);
    if (handles.length === 0) throw new ToolFailure(`No language server could start for this workspace${notes.length ? ` (${notes.join("; ")})` : ""}; see lsp status. Pass file with query to pick the project to search.`, { code: "server_unavailable" });
  }
  const lines = supervisor.lines();
  const answers = await Promise.all(
    handles.map(async (handle) => {
      const { client } = handle;
      try {
        // Open files changed on disk are re-sent first: a symbol's line came from the server's old copy.
        await supervisor.current(client);
        const answer = await client.query<(SymbolInformation | WorkspaceSymbol)[] | null>("workspace/symbol", { query }, signal);
        return (answer ?? []).map((s): SymbolRow => {
          const location = s.location as { uri: string; range?: { start: { line: number } } };
          const where = lines.whereabouts(pathOfUri(location.uri));
          return {
            name: s.name,
            kind: kindName(s.kind),
            path: where.shown,
            line: (location.range?.start.line ?? 0) + 1,
            ...(s.containerName ? { container: s.containerName } : {}),
            ...(where.inside ? {} : { outside: where.outside }),
          };
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        // tsserver answers "No Project" for a root holding only a package.json: the others still count.
        notes.push(`${client.spec.id} (${lines.display(handle.root)}) could not search: ${firstLine((error as Error).message)}`);
        return [];
      }
    }),
  );
  const seen = new Set<string>();
  const rows = answers.flat().filter((row) => {
    const key = `${row.name}\0${row.kind}\0${row.path}\0${row.line}`;
    return !seen.has(key) && seen.add(key);
  });
  if (rows.length === 0) for (const { client } of handles) refuseWhileIndexing(client);
  return { rows, notes };
}

/**
 * A server's error can carry a whole stack trace: its first lines without the frames say what
 * happened ("<main> TypeScript Server Error (5.9.3) No Project.").
 */
function firstLine(message: string): string {
  const lines = message.split("\n").map((line) => line.trim()).filter((line) => line && !line.startsWith("at ") && !line.startsWith("Error: "));
  return lines.slice(0, 2).join(" ") || message;
}

/** Nothing runs yet: start each server on its roots (bounded), opening one file so the project loads. */
async function startForSearch(supervisor: LanguageServerSupervisor, notes: string[]): Promise<ServerHandle[]> {
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
      } catch (error) {
        notes.push(firstLine((error as Error).message));
        return [];
      }
    }),
  );
  const unique = new Map(started.flat().map((h) => [h.client, h]));
  return [...unique.values()];
}
