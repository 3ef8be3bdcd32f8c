// Keeping the server's copy of a file in step with the disk: didOpen, then didChange/didSave with rising versions.
import { statSync, type Stats } from "node:fs";
import { pathToFileURL } from "node:url";
import { ToolFailure } from "../answer/failure.ts";
import { readFileInsideAsync } from "../workspace/paths.ts";
import { languageIdFor } from "./catalog.ts";
import type { LanguageServerClient } from "./client.ts";
import { TEXT_HISTORY_KEPT, type OpenDocument } from "./document-state.ts";
import { pathOfUri } from "./present.ts";
import { shownPath } from "../workspace/shown-path.ts";

export interface SyncedDocument {
  uri: string;
  version: number;
  text: string;
  /** False when the server already had exactly this text at this version. */
  changed: boolean;
}

export function uriOf(path: string): string {
  return pathToFileURL(path).href;
}

/** What the disk said about a file when it was last read: unchanged means not read again. */
export function stampOf(info: Stats): string {
  return `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
}

/**
 * Sends the file's current disk content to the server; `save` also sends didSave (what a write does).
 * A file whose size, times and inode are those of the last read is not read again. `path` was
 * checked to lie inside `workdir` before a server was found for it, which can take seconds: the
 * read refuses it if it has been swapped for a symlink out since.
 */
export async function syncDocument(
  client: LanguageServerClient,
  workdir: string,
  path: string,
  options: { save?: boolean } = {},
): Promise<SyncedDocument> {
  const uri = uriOf(path);
  const held = client.held.has(uri) ? client.documents.get(uri) : undefined;
  // A change being checked holds the file at its text before or after: the disk waits.
  if (held) return { uri, version: held.version, text: held.text, changed: false };
  let stamp: string;
  try {
    stamp = stampOf(statSync(path));
  } catch (error) {
    throw unreadable(path, error);
  }
  let open = client.documents.get(uri);
  let changed = false;
  if (open?.stamp !== stamp) {
    let text: string;
    try {
      text = (await readFileInsideAsync(workdir, path)).toString("utf8");
    } catch (error) {
      throw unreadable(path, error);
    }
    open = client.documents.get(uri); // another sync may have got there while this one read
    if (!open) {
      open = openDocument(client, path, text, stamp);
      changed = true;
    } else if (open.text !== text) {
      sendChange(client, uri, open, text);
      changed = true;
    }
    open.stamp = stamp;
  }
  if (options.save && changed) client.notify("textDocument/didSave", { textDocument: { uri }, text: open.text });
  return { uri, version: open.version, text: open.text, changed };
}

function unreadable(path: string, error: unknown): ToolFailure {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code ? `${code}. Check the file exists and is readable` : (error as Error).message;
  return new ToolFailure(`Cannot read ${shownPath(path)}: ${why}.`, { code: code === "ENOENT" ? "file_not_found" : "failed" });
}

/**
 * Brings every document the server holds open up to date with the disk: a formatter, a shell
 * command or the harness's own edit tool may have changed one since. Without this a rename's edits
 * are computed on the server's old copy of a file and applied to the new one, corrupting it, and
 * queries answer about lines that have moved. Only files whose size, times or inode changed are
 * read (re-reading all of them before every request cost tens of milliseconds per query with
 * forty files open); a file now gone is closed.
 */
export async function syncOpenDocuments(client: LanguageServerClient, workdir: string): Promise<void> {
  const stale: string[] = [];
  for (const [uri, open] of client.documents) {
    if (client.held.has(uri)) continue;
    let stamp: string | undefined;
    try {
      stamp = stampOf(statSync(pathOfUri(uri)));
    } catch {
      stamp = undefined;
    }
    if (stamp !== open.stamp) stale.push(uri);
  }
  await Promise.all(
    stale.map(async (uri) => {
      const path = pathOfUri(uri);
      try {
        await syncDocument(client, workdir, path);
      } catch {
        closeDocument(client, path);
      }
    }),
  );
}

/** didOpen with `text` (not necessarily the disk's: a rename is checked in memory first). */
export function openDocument(client: LanguageServerClient, path: string, text: string, stamp = ""): OpenDocument {
  const uri = uriOf(path);
  const open: OpenDocument = { version: 1, text, stamp, history: [{ version: 1, text }] };
  client.documents.set(uri, open);
  client.notify("textDocument/didOpen", { textDocument: { uri, languageId: languageIdFor(client.spec, path), version: 1, text } });
  return open;
}

/** The server's open copy replaced by `text`, with the next version. */
export function sendChange(client: LanguageServerClient, uri: string, open: OpenDocument, text: string): void {
  open.version += 1;
  open.text = text;
  open.history.push({ version: open.version, text });
  if (open.history.length > TEXT_HISTORY_KEPT) open.history.shift();
  // A change without a range replaces the whole text; every sync kind accepts it.
  client.notify("textDocument/didChange", { textDocument: { uri, version: open.version }, contentChanges: [{ text }] });
}

/**
 * The open document closed and opened again with its text unchanged and the next version: the
 * server parses it afresh against the files it includes as they are now, and publishes for it.
 * clangd publishes nothing for a text re-sent as it was when its headers did not change either
 * (each such wait ran out its 15 s cap); on close it publishes an empty list without a version,
 * which a versioned wait passes over.
 */
export function reopenDocument(client: LanguageServerClient, uri: string, open: OpenDocument): void {
  client.notify("textDocument/didClose", { textDocument: { uri } });
  open.version += 1;
  open.history.push({ version: open.version, text: open.text });
  if (open.history.length > TEXT_HISTORY_KEPT) open.history.shift();
  client.notify("textDocument/didOpen", { textDocument: { uri, languageId: languageIdFor(client.spec, pathOfUri(uri)), version: open.version, text: open.text } });
}

/** Tells the server a file is gone or renamed away, so it stops reporting on a stale copy. */
export function closeDocument(client: LanguageServerClient, path: string): void {
  const uri = uriOf(path);
  if (!client.documents.delete(uri)) return;
  client.notify("textDocument/didClose", { textDocument: { uri } });
}
