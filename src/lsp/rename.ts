// Project-wide rename: prepareRename, rename, then the WorkspaceEdit written atomically and diagnosed.
import { existsSync } from "node:fs";
import type { Range, WorkspaceEdit } from "vscode-languageserver-protocol";
import { ToolFailure } from "../answer/failure.ts";
import { FolderSwapped, writeFilesAtomically } from "../workspace/atomic-write.ts";
import { isInside, relativeToWorkdir } from "../workspace/paths.ts";
import type { WriteOutcome } from "./after-write.ts";
import { ServerGone } from "./client.ts";
import { closeDocument, syncDocument, uriOf } from "./documents.ts";
import { pathOfUri } from "./present.ts";
import { locate } from "./queries.ts";
import type { LanguageServices } from "./service.ts";
import { planWorkspaceEdit } from "./workspace-edit.ts";
import { shownPath } from "../workspace/shown-path.ts";

export interface RenameOutcome {
  files: string[];
  edits: number;
  diagnostics: WriteOutcome;
}

export async function renameSymbol(
  services: LanguageServices,
  input: { file: string; line: number; symbol: string; new_name: string },
  signal?: AbortSignal,
): Promise<RenameOutcome> {
  const target = await locate(services.supervisor, input.file, input.line, input.symbol, "rename");
  const { client } = target.handle;
  refuseForeignName(client.spec.id, input.new_name);
  const at = { textDocument: { uri: target.document.uri }, position: target.position };
  const provider = client.capabilities.renameProvider;
  if (!provider) throw new ToolFailure(`The ${client.spec.id} server does not offer rename.`);
  if (typeof provider === "object" && provider.prepareProvider) {
    const prepared = await client.query<Range | { range: Range } | { defaultBehavior: boolean } | null>("textDocument/prepareRename", at, signal).catch((error: Error) => {
      if (error instanceof ServerGone) throw error;
      throw new ToolFailure(`${JSON.stringify(input.symbol)} on line ${input.line} cannot be renamed: ${error.message.replace(/^.*? with an error: /, "")}`);
    });
    if (!prepared) throw new ToolFailure(`${JSON.stringify(input.symbol)} on line ${input.line} cannot be renamed (the ${client.spec.id} server refused it). Point at a declared name.`);
  }
  const requestRename = async (): Promise<WorkspaceEdit> => {
    let answer: WorkspaceEdit | null;
    try {
      answer = await client.query<WorkspaceEdit | null>("textDocument/rename", { ...at, newName: input.new_name }, signal);
    } catch (error) {
      if (error instanceof ToolFailure) throw error;
      throw new ToolFailure(`The ${client.spec.id} server refused the rename: ${(error as Error).message}`);
    }
    if (!answer || (!answer.changes && !answer.documentChanges)) throw new ToolFailure(`The ${client.spec.id} server found nothing to rename for ${JSON.stringify(input.symbol)} on line ${input.line}.`);
    return answer;
  };
  let edit = await requestRename();
  // The server computed edits for files it never opened from its own copy of them, which can be
  // older than the disk (gopls and pyright do not see a plain write): applied to today's text the
  // ranges land wrong ("Cutfunc Extra3("). Every file the edit touches is opened with its disk text
  // and the rename asked again, until the files it touches are all ones the server holds current.
  for (let round = 0; round < RENAME_SYNC_ROUNDS; round++) {
    const unopened = editedUris(edit).filter((uri) => !client.documents.has(uri));
    if (unopened.length === 0) break;
    for (const uri of unopened) {
      const path = pathOfUri(uri);
      if (isInside(services.workdir, path) && existsSync(path)) await syncDocument(client, services.workdir, path);
    }
    edit = await requestRename();
  }
  const plan = planWorkspaceEdit(services.workdir, edit);
  try {
    await writeFilesAtomically([...plan.writes].map(([path, content]) => ({ path, content })), plan.removals);
  } catch (error) {
    if (error instanceof FolderSwapped) {
      const moved = error.paths.map((p) => relativeToWorkdir(services.workdir, p));
      throw new ToolFailure(
        `The rename was not applied and nothing was written: a folder on the way to ${moved.map(shownPath).join(", ")} was replaced by a symlink while the rename ran. Check the tree and run lsp_rename again.`,
        { moved },
      );
    }
    throw new ToolFailure(`${(error as Error).message} Check the files are writable and retry.`);
  }
  for (const { from, to } of plan.renames) {
    closeDocument(client, from);
    client.notify("workspace/didRenameFiles", { files: [{ oldUri: uriOf(from), newUri: uriOf(to) }] });
  }
  const changed = [...plan.writes.keys(), ...plan.removals];
  const diagnostics = await services.afterWrite(changed, signal);
  return {
    files: changed.map((p) => relativeToWorkdir(services.workdir, p)).sort(),
    edits: countEdits(edit),
    diagnostics,
  };
}

/**
 * `$` and a leading `#` (a private field) belong to TypeScript and JavaScript names only: pyright
 * wrote `def add$2(`, 13 new errors.
 */
function refuseForeignName(server: string, name: string): void {
  if (server === "typescript" || !/[$#]/.test(name)) return;
  throw new ToolFailure(`new_name ${JSON.stringify(name)} is not a ${server} identifier: $ and # belong to JavaScript and TypeScript names. Use letters, digits and _.`);
}

/** Renames asked again at most this many times, each after opening the files the last one touched. */
const RENAME_SYNC_ROUNDS = 2;

/** The documents whose text an edit changes. */
function editedUris(edit: WorkspaceEdit): string[] {
  if (edit.documentChanges) return edit.documentChanges.flatMap((change) => ("textDocument" in change ? [change.textDocument.uri] : []));
  return Object.keys(edit.changes ?? {});
}

function countEdits(edit: WorkspaceEdit): number {
  if (edit.documentChanges) return edit.documentChanges.reduce((n, c) => n + ("edits" in c ? c.edits.length : 1), 0);
  return Object.values(edit.changes ?? {}).reduce((n, edits) => n + edits.length, 0);
}
