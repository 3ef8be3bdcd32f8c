// Keeping the server's copy of a file in step with the disk: didOpen, then didChange/didSave with rising versions.
import { pathToFileURL } from "node:url";
import { ToolFailure } from "../answer/failure.ts";
import { readFileInsideAsync } from "../workspace/paths.ts";
import { languageIdFor } from "./catalog.ts";
import type { LanguageServerClient } from "./client.ts";
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

/**
 * Sends the file's current disk content to the server; `save` also sends didSave (what a write does).
 * `path` was checked to lie inside `workdir` before a server was found for it, which can take
 * seconds: the read refuses it if it has been swapped for a symlink out since.
 */
export async function syncDocument(
  client: LanguageServerClient,
  workdir: string,
  path: string,
  options: { save?: boolean } = {},
): Promise<SyncedDocument> {
  let text: string;
  try {
    text = (await readFileInsideAsync(workdir, path)).toString("utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code ? `${code}. Check the file exists and is readable` : (error as Error).message;
    throw new ToolFailure(`Cannot read ${shownPath(path)}: ${why}.`);
  }
  const uri = uriOf(path);
  const open = client.documents.get(uri);
  let changed = true;
  if (!open) {
    client.documents.set(uri, { version: 1, text });
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: languageIdFor(client.spec, path), version: 1, text } });
  } else if (open.text !== text) {
    sendChange(client, uri, open, text);
  } else {
    changed = false;
  }
  if (options.save && changed) client.notify("textDocument/didSave", { textDocument: { uri }, text });
  const current = client.documents.get(uri)!;
  return { uri, version: current.version, text, changed };
}

/**
 * Brings every document the server holds open up to date with the disk: a formatter, a shell
 * command or the harness's own edit tool may have changed one since. Without this a rename's edits
 * are computed on the server's old copy of a file and applied to the new one, corrupting it, and
 * queries answer about lines that have moved. Reading the open files costs well under a
 * millisecond each; a file now gone is closed.
 */
export async function refreshOpenDocuments(client: LanguageServerClient, workdir: string, except?: string): Promise<void> {
  await Promise.all(
    [...client.documents.keys()].map(async (uri) => {
      if (uri === except) return;
      const path = pathOfUri(uri);
      const open = client.documents.get(uri);
      let text: string;
      try {
        text = (await readFileInsideAsync(workdir, path)).toString("utf8");
      } catch {
        if (client.documents.get(uri) === open) closeDocument(client, path);
        return;
      }
      const now = client.documents.get(uri);
      if (!now || now !== open || now.text === text) return; // another sync got there first
      sendChange(client, uri, now, text);
    }),
  );
}

/** The server's open copy replaced by `text`, with the next version. */
function sendChange(client: LanguageServerClient, uri: string, open: { version: number; text: string }, text: string): void {
  open.version += 1;
  open.text = text;
  // A change without a range replaces the whole text; every sync kind accepts it.
  client.notify("textDocument/didChange", { textDocument: { uri, version: open.version }, contentChanges: [{ text }] });
}

/** Tells the server a file is gone or renamed away, so it stops reporting on a stale copy. */
export function closeDocument(client: LanguageServerClient, path: string): void {
  const uri = uriOf(path);
  if (!client.documents.delete(uri)) return;
  client.notify("textDocument/didClose", { textDocument: { uri } });
}
