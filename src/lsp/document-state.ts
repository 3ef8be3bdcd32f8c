// What the sidecar keeps per language server about documents: the texts it gave the server, and
// the diagnostics the server published for them.
import type { Diagnostic } from "vscode-languageserver-protocol/node";

/** What the server holds for an open file, and the disk stamp of the text it was last given from disk. */
export interface OpenDocument {
  version: number;
  text: string;
  /** "" once the server was given a text that is not the disk's (a rename checked in memory). */
  stamp: string;
  /**
   * The last texts the server was given, the current one last, each with its diagnostics once they
   * were collected: a write is compared with the text before it, which may be older than the
   * current one (the write was already synced by a query, or reverted outside and written again).
   */
  history: TextVersion[];
}

interface TextVersion {
  version: number;
  text: string;
  diagnostics?: Diagnostic[];
}

/** Texts kept per open document. */
export const TEXT_HISTORY_KEPT = 4;

export interface PublishedDiagnostics {
  version: number | undefined;
  diagnostics: Diagnostic[];
  /** Increases with every publish for any document, so waiters can tell new from old. */
  sequence: number;
}
