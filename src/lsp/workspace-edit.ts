// A server's WorkspaceEdit (text edits and file operations) turned into whole-file contents to write at once.
import { statSync } from "node:fs";
import type { TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import { ToolFailure } from "../answer/failure.ts";
import { readFileInside, relativeToWorkdir, resolveInWorkdir } from "../workspace/paths.ts";
import { pathOfUri } from "./present.ts";
import { shownPath } from "../workspace/shown-path.ts";

export interface PlannedEdit {
  /** Final content per path (absolute). */
  writes: Map<string, string>;
  /** Paths removed (deleted, or renamed away). */
  removals: string[];
  /** Renames applied, old → new, for telling the server. */
  renames: { from: string; to: string }[];
}

/** Applies the edit in memory; every path must stay inside the workdir, or nothing is planned. */
export function planWorkspaceEdit(workdir: string, edit: WorkspaceEdit): PlannedEdit {
  const writes = new Map<string, string>();
  const removals = new Set<string>();
  const renames: { from: string; to: string }[] = [];
  const inside = (uri: string) => resolveInWorkdir(workdir, pathOfUri(uri));
  const current = (path: string): string => {
    if (writes.has(path)) return writes.get(path)!;
    if (removals.has(path)) throw new ToolFailure(`The rename edits ${shownPath(path)} after removing it; nothing was changed.`);
    try {
      return readFileInside(workdir, path).toString("utf8"); // its content is written back inside: never copy an outside file in
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new ToolFailure(`The rename edits ${shownPath(path)}, which cannot be read (${why}); nothing was changed.`);
    }
  };
  const applyEdits = (path: string, edits: TextEdit[]) => writes.set(path, applyTextEdits(current(path), edits));

  if (edit.documentChanges) {
    for (const change of edit.documentChanges) {
      if ("textDocument" in change) applyEdits(inside(change.textDocument.uri), change.edits as TextEdit[]);
      else if (change.kind === "create") {
        const path = inside(change.uri);
        if (!writes.has(path) || change.options?.overwrite) writes.set(path, "");
        removals.delete(path);
      } else if (change.kind === "rename") {
        const from = inside(change.oldUri);
        const to = inside(change.newUri);
        if (isDirectory(from)) {
          throw new ToolFailure(
            `The rename would also move the folder ${shownPath(relativeToWorkdir(workdir, from))} to ${shownPath(relativeToWorkdir(workdir, to))} (renaming a package does), and lsp_rename moves files, not folders; nothing was changed. ` +
              "Rename a symbol inside the package instead, or move the folder yourself and fix the imports.",
            { code: "unsupported" },
          );
        }
        writes.set(to, current(from));
        writes.delete(from);
        removals.add(from);
        renames.push({ from, to });
      } else if (change.kind === "delete") {
        const path = inside(change.uri);
        writes.delete(path);
        removals.add(path);
      }
    }
  } else {
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) applyEdits(inside(uri), edits);
  }
  return { writes, removals: [...removals], renames };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Applies LSP text edits (UTF-16 line/character ranges) to a text; edits never overlap, so apply from the end. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) lineStarts.push(i + 1);
  }
  const offset = (p: { line: number; character: number }) => {
    if (p.line >= lineStarts.length) return text.length;
    const start = lineStarts[p.line]!;
    const end = p.line + 1 < lineStarts.length ? lineStarts[p.line + 1]! : text.length;
    return Math.min(start + p.character, end);
  };
  const ordered = edits
    .map((e, index) => ({ start: offset(e.range.start), end: offset(e.range.end), newText: e.newText, index }))
    .sort((a, b) => b.start - a.start || b.index - a.index);
  let result = text;
  for (const e of ordered) result = result.slice(0, e.start) + e.newText + result.slice(e.end);
  return result;
}
