// Keeping the server's copy of a file in step with the disk: didOpen, then didChange/didSave with rising versions.
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { pathToFileURL } from "node:url";
import { ToolFailure } from "../tool/define.ts";
import { languageIdFor } from "./catalog.ts";
import type { LanguageServerClient } from "./client.ts";

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

/** Sends the file's current disk content to the server; `save` also sends didSave (what a write does). */
export async function syncDocument(client: LanguageServerClient, path: string, options: { save?: boolean } = {}): Promise<SyncedDocument> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ToolFailure(`Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Check the file exists.`);
  }
  const uri = uriOf(path);
  const open = client.documents.get(uri);
  let changed = true;
  if (!open) {
    client.documents.set(uri, { version: 1, text });
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: languageIdFor(client.spec, extname(path)), version: 1, text } });
  } else if (open.text !== text) {
    open.version += 1;
    open.text = text;
    // A change without a range replaces the whole text; every sync kind accepts it.
    client.notify("textDocument/didChange", { textDocument: { uri, version: open.version }, contentChanges: [{ text }] });
  } else {
    changed = false;
  }
  if (options.save && changed) client.notify("textDocument/didSave", { textDocument: { uri }, text });
  const current = client.documents.get(uri)!;
  return { uri, version: current.version, text, changed };
}

/** Tells the server a file is gone or renamed away, so it stops reporting on a stale copy. */
export function closeDocument(client: LanguageServerClient, path: string): void {
  const uri = uriOf(path);
  if (!client.documents.delete(uri)) return;
  client.notify("textDocument/didClose", { textDocument: { uri } });
}
