// The stable codes of error results: what a harness (or a model) can branch on without parsing
// English. Each code says what happened; the message says it in words, with what to do.

/** Every code an error result may carry, with its meaning (docs/harness.md lists them, checked by a test). */
export const ERROR_CODES = {
  // Any tool
  invalid_arguments: "The arguments do not fit the tool: a wrong type, a missing or unknown argument, or a combination it does not take. `details.problems` lists each with its path when the schema caught it.",
  cancelled: "The call was cancelled by the client, or the run shut down while it worked.",
  internal_error: "A sidecar bug: the call failed in a way it does not expect. It may be retried.",
  failed: "A failure with no more specific code; the message says what happened and what to do.",
  // Paths and files
  not_in_workspace: "A path leads outside the workdir (absolute elsewhere, `..`, or a symlink out). `details.path` is the path given.",
  not_a_regular_file: "A path names a FIFO, socket or device, which no tool opens. `details.path` is the path given.",
  file_not_found: "A path, program or file the call names does not exist.",
  file_changed: "A file changed on disk since the tool read it (a staged edit, a rename's targets); nothing was written.",
  write_failed: "Writing the files failed (permissions, disk); nothing was changed.",
  // Language servers, debug adapters, kernels
  server_unavailable: "No server, adapter or kernel can serve this: not installed, failed to start, exited, or no project root.",
  not_ready: "The server is still loading or indexing, so an empty answer would mean nothing yet; retry in a few seconds.",
  unsupported: "The server, adapter or grammar does not offer what was asked.",
  server_error: "The server, adapter or kernel answered the request with an error of its own (quoted in the message).",
  symbol_not_found: "The symbol does not occur on that line, or the line does not exist (the message shows the line); or no definition has that name path (the message lists the nearest names).",
  ambiguous_symbol: "The symbol occurs more than once on the line, or the name path matches several definitions; the message lists how to pick one.",
  // Structural search and staged edits
  invalid_pattern: "The ast_grep pattern does not parse, or uses a metavariable wrongly; or a rule config has an unknown key, a wrong type, a kind or field its grammar lacks, or is no valid YAML.",
  unknown_language: "No grammar is known for the language or file given.",
  syntax_error: "The staged edit's result would not parse where the file did (the message says where it breaks); nothing was staged.",
  unknown_edit: "There is no staged edit with that id (the message lists the staged ones).",
  edit_not_pending: "The staged edit was already accepted or rejected, or another call is accepting it.",
  // The debugger
  no_session: "No debug session is running (or it expired); launch or attach first.",
  session_ended: "The debug session or its program has ended; launch again.",
  program_running: "The program is running, not stopped; pause it first.",
  program_stopped: "The program is already stopped; inspect it or continue.",
  stale_reference: "A frame id or variables reference from an earlier stop: the program moved on; take ids from the latest answer.",
  unknown_reference: "There is no frame id or variables reference like that.",
  // Kernels
  cell_error: "The eval cell raised an error; the answer holds its output and traceback.",
  cell_interrupted: "The eval cell was interrupted, timed out or its kernel died; the answer holds what it printed.",
  // Questions
  no_human: "Nobody is attached to answer the question; it was not asked.",
  timeout: "Nobody answered within the question's time limit.",
  port_failed: "The harness's question port failed; no answer can come back.",
  busy: "Another question is already open in this space, or 100 cells already wait for the eval kernel; one at a time.",
  // Workers
  unknown_worker: "There is no worker with that id (the message lists the run's workers).",
  spawn_limit: "The run may spawn no more workers (`maxSpawns` reached; a tier's concurrency queues a worker, it never refuses one).",
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The structured part of every error result: `structuredContent.error`. */
export interface ErrorShape {
  code: ErrorCode;
  message: string;
  /** Facts the failure names (a path, the known ids, a count), when it names any. */
  details?: Record<string, unknown>;
}
