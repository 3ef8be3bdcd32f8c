// A code action's effect as whole-file texts, nothing written: its edit (resolved first when the
// server defers it) and the edits its command sends back through workspace/applyEdit.
import type { CodeAction, Command, TextDocumentEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import { rmSync, statSync, type Stats } from "node:fs";
import { ToolFailure } from "../answer/failure.ts";
import { isInside, readFileInside, relativeToWorkdir } from "../workspace/paths.ts";
import { shownPath } from "../workspace/shown-path.ts";
import { locateAddress, type Address } from "./addressing.ts";
import { pathOfUri } from "./present.ts";
import { codeActionList, listedCodeActions } from "./queries.ts";
import type { LanguageServerSupervisor } from "./supervisor.ts";
import { planWorkspaceEdit } from "./workspace-edit.ts";

interface ActionChange {
  /** Absolute. */
  path: string;
  original: string;
  updated: string;
}

interface ActionEffect {
  title: string;
  changes: ActionChange[];
  /** The command it ran, when it was one (or carried one). */
  command?: string;
}

/** Picks the action by its number in `lsp code_actions`' list or its exact title, and works out what it would change. */
export async function codeActionEffect(supervisor: LanguageServerSupervisor, address: Address, wanted: number | string, signal?: AbortSignal): Promise<ActionEffect> {
  const target = await locateAddress(supervisor, address, "code_action", signal);
  const { client } = target.handle;
  const offered = listedCodeActions(target) ?? (await codeActionList(target, signal));
  const listing = offered.map((a, i) => `${i + 1}. ${a.title}`).join("; ");
  let action = typeof wanted === "number" ? offered[wanted - 1] : offered.find((a) => a.title === wanted);
  if (!action) {
    const what = typeof wanted === "number" ? `no action number ${wanted}` : `no action titled ${JSON.stringify(wanted)}`;
    throw new ToolFailure(
      offered.length ? `The ${client.spec.id} server offers ${what} at ${target.label}. It offers: ${listing}. Pass action as one of those numbers or titles.` : `The ${client.spec.id} server offers no code actions at ${target.label}.`,
      { code: "invalid_arguments", offered: offered.map((a) => a.title) },
    );
  }
  const provider = client.capabilities.codeActionProvider;
  if (isCodeAction(action) && !action.edit && typeof provider === "object" && provider.resolveProvider) {
    action = (await client.query<CodeAction>("codeAction/resolve", action, signal)) ?? action;
  }
  const edits: WorkspaceEdit[] = [];
  if (isCodeAction(action) && action.edit) edits.push(action.edit);
  const command = isCodeAction(action) ? action.command : (action as Command);
  if (command) {
    const since = Date.now();
    const ran = await client.capturingEdits(() => client.query<unknown>("workspace/executeCommand", { command: command.command, arguments: command.arguments ?? [] }, signal));
    refuseFilesMadeDuring(supervisor.workdir, ran.edits, since, client.spec.id);
    edits.push(...ran.edits);
  }
  return { title: action.title, changes: changesOf(supervisor.workdir, edits), ...(command ? { command: command.command } : {}) };
}

/** Timestamps of a new file come from the kernel's coarse clock, a few ms behind Date.now(). */
const COARSE_CLOCK_MS = 20;

/**
 * typescript-language-server creates the new file of "Move to a new file" on disk, empty, before it
 * sends the edit filling it: a file the action creates, which code_action refuses. The empty file
 * it left is removed, so that refusing leaves the workspace as it was.
 */
function refuseFilesMadeDuring(workdir: string, edits: readonly WorkspaceEdit[], since: number, server: string): void {
  const uris = edits.flatMap((edit) => [...(edit.documentChanges ?? []).flatMap((change) => ("textDocument" in change ? [change.textDocument.uri] : [])), ...Object.keys(edit.changes ?? {})]);
  for (const uri of new Set(uris)) {
    const path = pathOfUri(uri);
    const made = statIfAny(path);
    if (!made || made.size !== 0 || made.mtimeMs < since - COARSE_CLOCK_MS || !isInside(workdir, path)) continue;
    rmSync(path, { force: true });
    throw new ToolFailure(
      `The action would create a file (${shownPath(relativeToWorkdir(workdir, path))}; the ${server} server made it empty while working out the edit, and it was removed again); code_action stages edits of existing files only, so nothing was staged.`,
      { code: "unsupported" },
    );
  }
}

function statIfAny(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function isCodeAction(action: Command | CodeAction): action is CodeAction {
  return typeof (action as Command).command !== "string";
}

/**
 * The edits one after the other, as whole files: each applies to what the ones before left. A
 * staged edit rewrites existing files; one that creates, renames or deletes files is refused.
 */
function changesOf(workdir: string, edits: readonly WorkspaceEdit[]): ActionChange[] {
  const steps: TextDocumentEdit[] = [];
  for (const edit of edits) {
    for (const change of edit.documentChanges ?? []) {
      if (!("textDocument" in change)) {
        throw new ToolFailure(`The action would ${change.kind} a file (${shownPath(pathOfUri(change.kind === "rename" ? change.oldUri : change.uri))}); code_action stages edits of existing files only, so nothing was staged.`, { code: "unsupported" });
      }
      steps.push(change);
    }
    for (const [uri, textEdits] of Object.entries(edit.changes ?? {})) steps.push({ textDocument: { uri, version: null }, edits: textEdits });
  }
  const plan = planWorkspaceEdit(workdir, { documentChanges: steps });
  return [...plan.writes].map(([path, updated]) => ({ path, original: readFileInside(workdir, path).toString("utf8"), updated })).filter((c) => c.updated !== c.original);
}
