// How a language server's failures read to the agent: the process gone mid-request, or a request
// dropped because the text changed under it.
import { ToolFailure } from "../answer/failure.ts";

/** The server process went away while a request was waiting. */
export class ServerGone extends ToolFailure {
  constructor(readonly label: string, readonly exit: string) {
    super(`The ${label} language server exited (${exit}) before answering. The next call restarts it.`, { code: "server_unavailable" });
    this.name = "ServerGone";
  }
}

/**
 * The server dropped the request because the text or project changed while it worked on it
 * (`ContentModified`, -32801: rust-analyzer answers every request in flight so when a change
 * arrives). The LSP spec lets a client ask again; a query does, a bounded number of times.
 */
export class ContentModified extends ToolFailure {
  constructor(label: string, method: string, said: string) {
    super(`The ${label} server answered ${method} with "${said}": the files or the project changed while it worked. Retry in a few seconds, once edits and indexing have settled.`, { code: "not_ready" });
    this.name = "ContentModified";
  }
}

/** The JSON-RPC error code of ContentModified. */
export const CONTENT_MODIFIED = -32801;
