// Project-wide rename: prepareRename, rename, the edit checked through the servers in memory, then written atomically.
import { existsSync } from "node:fs";
import type { Range, WorkspaceEdit } from "vscode-languageserver-protocol";
import { ToolFailure } from "../answer/failure.ts";
import { FolderSwapped, writeFilesAtomically } from "../workspace/atomic-write.ts";
import { isInside, readFileInside, relativeToWorkdir } from "../workspace/paths.ts";
import type { LanguageServerClient } from "./client.ts";
import { ServerGone } from "./server-errors.ts";
import { collectDiagnostics } from "./diagnostics.ts";
import { closeDocument, syncDocument, uriOf } from "./documents.ts";
import { refuseBadName } from "./identifiers.ts";
import { bareSymbol } from "./position.ts";
import { pathOfUri, type DiagnosticRow } from "./present.ts";
import { locateAddress, type Address } from "./addressing.ts";
import { editedPaths, missedUses, readsIncludesFromDisk, reparse, staleIndexFailure, USES_ASKED, usesOutsideEdit } from "./rename-coverage.ts";
import type { LanguageServerSupervisor, ServerHandle } from "./supervisor.ts";
import { planWorkspaceEdit, type PlannedEdit } from "./workspace-edit.ts";
import { checkChange, type TextChange, type WriteOutcome } from "./write-check.ts";
import { shownPath } from "../workspace/shown-path.ts";

interface RenameOutcome {
  files: string[];
  edits: number;
  diagnostics: WriteOutcome;
  /** What the answer must say it did not check. */
  notes: string[];
  /** The name renamed, as the answer quotes it. */
  renamed: string;
}

interface RenameRequest extends Address {
  new_name: string;
  /** Write it even if the check finds errors it would bring. */
  force?: boolean;
}

/** Errors a refused rename lists. */
const ERRORS_LISTED = 20;

export async function renameSymbol(supervisor: LanguageServerSupervisor, input: RenameRequest, signal?: AbortSignal): Promise<RenameOutcome> {
  const target = await locateAddress(supervisor, input, "rename", signal);
  const { client } = target.handle;
  const name = target.definition ? target.definition.segments.at(-1)! : bareSymbol(input.symbol!);
  const named = target.definition ? target.label : `${JSON.stringify(input.symbol)} on line ${input.line}`;
  refuseBadName(client.spec.id, input.new_name);
  const at = { textDocument: { uri: target.document.uri }, position: target.position };
  const provider = client.capabilities.renameProvider;
  if (!provider) throw new ToolFailure(`The ${client.spec.id} server does not offer rename.`, { code: "unsupported" });
  if (typeof provider === "object" && provider.prepareProvider) {
    const prepared = await client.query<Range | { range: Range } | { defaultBehavior: boolean } | null>("textDocument/prepareRename", at, signal).catch((error: Error) => {
      if (error instanceof ServerGone) throw error;
      throw new ToolFailure(`${named} cannot be renamed: ${error.message.replace(/^.*? with an error: /, "")}`, { code: "server_error" });
    });
    if (!prepared) throw new ToolFailure(`${named} cannot be renamed (the ${client.spec.id} server refused it). Point at a declared name.`);
  }
  const requestRename = async (): Promise<WorkspaceEdit> => {
    let answer: WorkspaceEdit | null;
    try {
      answer = await client.query<WorkspaceEdit | null>("textDocument/rename", { ...at, newName: input.new_name }, signal);
    } catch (error) {
      if (error instanceof ToolFailure) throw error;
      throw new ToolFailure(`The ${client.spec.id} server refused the rename: ${(error as Error).message}`, { code: "server_error" });
    }
    if (!answer || (!answer.changes && !answer.documentChanges)) throw new ToolFailure(`The ${client.spec.id} server found nothing to rename for ${named}.`);
    refuseOutside(supervisor, answer, name);
    return answer;
  };
  let edit = await requestRename();
  // The server computed edits for files it never opened from its own copy of them, which can be
  // older than the disk (gopls and pyright do not see a plain write): applied to today's text the
  // ranges land wrong ("Cutfunc Extra3("). Every file the edit touches is opened with its disk text
  // and the rename asked again, until the files it touches are all ones the server holds current.
  for (let round = 0; round < RENAME_SYNC_ROUNDS; round++) {
    const unopened = editedUris(edit, "text").filter((uri) => !client.documents.has(uri));
    if (unopened.length === 0) break;
    for (const uri of unopened) {
      const path = pathOfUri(uri);
      if (isInside(supervisor.workdir, path) && existsSync(path)) await syncDocument(client, supervisor.workdir, path);
    }
    edit = await requestRename();
  }
  const notes: string[] = [];
  const onDisk = readsIncludesFromDisk(client.spec);
  if (onDisk) edit = await completeEdit(supervisor.workdir, target.handle, edit, name, requestRename, notes, signal);
  const plan = planWorkspaceEdit(supervisor.workdir, edit);
  const changes = textChanges(supervisor.workdir, plan);
  const write = async () => {
    try {
      await writeFilesAtomically([...plan.writes].map(([path, content]) => ({ path, content })), plan.removals);
    } catch (error) {
      await restore(supervisor, client, changes);
      if (error instanceof FolderSwapped) {
        const moved = error.paths.map((p) => relativeToWorkdir(supervisor.workdir, p));
        throw new ToolFailure(
          `The rename was not applied and nothing was written: a folder on the way to ${moved.map(shownPath).join(", ")} was replaced by a symlink while the rename ran. Check the tree and run lsp_rename again.`,
          { code: "file_changed", moved },
        );
      }
      throw new ToolFailure(`${(error as Error).message} Check the files are writable and retry.`, { code: "write_failed" });
    }
  };
  // Checked before anything is written: the servers get the renamed texts in memory. clangd reads
  // the header a caller includes from disk, so in memory every caller of a renamed function looked
  // broken (30 false "new" warnings): through it the rename is written, checked, and put back if
  // it brings errors.
  const diagnostics = await checkChange(supervisor, changes, onDisk ? { write, signal } : { inMemory: true, signal });
  const errors = diagnostics.new.filter((d) => d.severity === "error");
  if (errors.length && !input.force) {
    if (onDisk) {
      try {
        await putBack(changes);
      } catch (error) {
        throw new ToolFailure(
          `The rename of ${name} to ${input.new_name} brings ${errors.length} error(s) that were not there, and putting its files back failed (${(error as Error).message}): ${changes.map((c) => shownPath(relativeToWorkdir(supervisor.workdir, c.path))).join(", ")} may hold the rename. Check them, then run lsp_rename back or restore them from git.`,
          { errors },
        );
      }
    }
    await restore(supervisor, client, changes);
    // clangd's index of the files follows their parse: the next query must not find the callers missing.
    if (onDisk) await reparsed(client, changes, signal);
    const how = onDisk
      ? `was undone: written and checked through the ${client.spec.id} server (which reads the headers a file includes from disk), every file it wrote was put back as it was, since it brings`
      : `was not written: checked through the ${client.spec.id} server before writing, it would bring`;
    throw new ToolFailure(
      `The rename of ${name} to ${input.new_name} ${how} ${errors.length} error(s) that were not there:\n` +
        errors.slice(0, ERRORS_LISTED).map((d) => `  ${errorLine(d)}`).join("\n") +
        `${errors.length > ERRORS_LISTED ? `\n  (${ERRORS_LISTED} of ${errors.length} shown)` : ""}\nPick another name, or pass force: true to write it anyway.`,
      { errors },
    );
  }
  if (!onDisk) await write();
  for (const { from, to } of plan.renames) {
    closeDocument(client, from);
    client.notify("workspace/didRenameFiles", { files: [{ oldUri: uriOf(from), newUri: uriOf(to) }] });
  }
  // The servers hold the new texts already; this records the disk's stamps (and re-sends a file a
  // query reverted to its disk text between the check and the write).
  for (const path of plan.writes.keys()) await syncDocument(client, supervisor.workdir, path, { save: true }).catch(() => undefined);
  const changed = [...plan.writes.keys(), ...plan.removals];
  return { files: changed.map((p) => relativeToWorkdir(supervisor.workdir, p)).sort(), edits: countEdits(edit), diagnostics, notes, renamed: name };
}

/**
 * clangd finds a rename's other files through its index, which can be behind the disk (after a
 * write it had not reparsed, the second of three renames edited core.h and core.c and left 30
 * callers broken). The files that include an edited one are read: where one uses the name and the
 * edit leaves it out, those files are reparsed and the rename asked again; a use still left out
 * whose definition is the renamed symbol refuses the rename.
 */
async function completeEdit(
  workdir: string,
  handle: ServerHandle,
  edit: WorkspaceEdit,
  name: string,
  requestRename: () => Promise<WorkspaceEdit>,
  notes: string[],
  signal?: AbortSignal,
): Promise<WorkspaceEdit> {
  const scan = async (current: WorkspaceEdit) => {
    const found = await usesOutsideEdit(handle.root, handle.spec, editedPaths(current), name);
    if (found.capped && notes.length === 0) notes.push(`Uses of ${name} outside the server's edit were looked for in the first ${found.scanned} source files of ${shownPath(handle.root)} only.`);
    return found.uses;
  };
  let uses = await scan(edit);
  if (uses.length === 0) return edit;
  await reparse(handle.client, [...new Set(uses.slice(0, USES_ASKED).map((use) => use.path))], signal);
  edit = await requestRename();
  uses = await scan(edit);
  if (uses.length === 0) return edit;
  const { missed, unasked } = await missedUses(handle.client, uses, edit, signal);
  if (missed.length || unasked) throw staleIndexFailure(workdir, handle.spec, name, missed, unasked);
  return edit;
}

/** Waits until the server published for each changed file's current version (it has parsed them again). */
async function reparsed(client: LanguageServerClient, changes: readonly TextChange[], signal?: AbortSignal): Promise<void> {
  await Promise.all(
    changes.map(async ({ path }) => {
      const uri = uriOf(path);
      const open = client.documents.get(uri);
      if (open) await collectDiagnostics(client, { uri, version: open.version, text: open.text, changed: true }, signal).catch(() => undefined);
    }),
  );
}

/** A rename checked on disk and refused: each file gets its text before back (a created one is removed). */
async function putBack(changes: readonly TextChange[]): Promise<void> {
  const writes = changes.flatMap((change) => (typeof change.before === "string" ? [{ path: change.path, content: change.before }] : []));
  const removals = changes.flatMap((change) => (change.before === null ? [change.path] : []));
  await writeFilesAtomically(writes, removals);
}

/** Each file the plan writes or removes, with its text now (the disk's) and after. */
function textChanges(workdir: string, plan: PlannedEdit): TextChange[] {
  const onDisk = (path: string) => (existsSync(path) ? readFileInside(workdir, path).toString("utf8") : null);
  return [...[...plan.writes].map(([path, after]) => ({ path, before: onDisk(path), after })), ...plan.removals.map((path) => ({ path, before: onDisk(path), after: null }))];
}

/** A refused (or failed) rename: the servers get the disk's texts back. */
async function restore(supervisor: LanguageServerSupervisor, client: LanguageServerClient, changes: readonly TextChange[]): Promise<void> {
  const back = [];
  for (const change of changes) {
    if (change.before === null) {
      closeDocument(client, change.path);
      back.push({ path: change.path, kind: "deleted" as const });
      continue;
    }
    const open = client.documents.get(uriOf(change.path));
    if (open) open.stamp = ""; // read again from disk
    await syncDocument(client, supervisor.workdir, change.path).catch(() => closeDocument(client, change.path));
    if (change.after === null) back.push({ path: change.path, kind: "created" as const });
  }
  if (back.length) client.notifyFileChanges(back);
}

/**
 * An edit that reaches a file outside the workdir renames a symbol declared there (the standard
 * library, a dependency): refused in those words, not as a path outside the workspace.
 */
function refuseOutside(supervisor: LanguageServerSupervisor, edit: WorkspaceEdit, name: string): void {
  const lines = supervisor.lines();
  const outside = editedUris(edit).map((uri) => lines.whereabouts(pathOfUri(uri))).filter((where) => !where.inside);
  if (outside.length === 0) return;
  throw new ToolFailure(
    `${name} is defined outside the workspace (${outside[0]!.shown}${outside.length > 1 ? ` and ${outside.length - 1} other file(s)` : ""}); rename it where it is declared. Nothing was changed.`,
    { code: "not_in_workspace" },
  );
}

function errorLine(d: DiagnosticRow): string {
  return `${d.path}:${d.line}: ${d.severity}${d.code ? ` ${d.code}` : ""}: ${d.message.split("\n")[0]}`;
}

/** Renames asked again at most this many times, each after opening the files the last one touched. */
const RENAME_SYNC_ROUNDS = 2;

/** The documents whose text an edit changes, and (unless only `text`) those it creates, renames or deletes. */
function editedUris(edit: WorkspaceEdit, only?: "text"): string[] {
  if (edit.documentChanges) {
    return edit.documentChanges.flatMap((change) => {
      if ("textDocument" in change) return [change.textDocument.uri];
      if (only) return [];
      return change.kind === "rename" ? [change.oldUri, change.newUri] : [change.uri];
    });
  }
  return Object.keys(edit.changes ?? {});
}

function countEdits(edit: WorkspaceEdit): number {
  if (edit.documentChanges) return edit.documentChanges.reduce((n, c) => n + ("edits" in c ? c.edits.length : 1), 0);
  return Object.values(edit.changes ?? {}).reduce((n, edits) => n + edits.length, 0);
}
