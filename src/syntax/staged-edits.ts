// Staged structural edits: what ast_edit proposed, the hash of every file it was computed from,
// and accepting (all files or none, after checking none changed since) or discarding it.
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { ToolFailure } from "../answer/failure.ts";
import { AtomicWriteError, FolderSwapped, writeFilesAtomically } from "../workspace/atomic-write.ts";
import { NoLongerInside, readFileInsideAsync } from "../workspace/paths.ts";
import { readOnlyMode } from "../workspace/read-only.ts";
import { shownPath } from "../workspace/shown-path.ts";

export interface StagedFile {
  path: string;
  /** Workspace-relative, for answers. */
  rel: string;
  hash: string;
  updated: string;
  replacements: number;
}

type EditState = "staged" | "accepted" | "discarded" | "rejected" | "expired";

/**
 * How much rewritten content (characters of the files' new text) staged edits may hold at once. A
 * model that stages edits and never resolves them would otherwise grow the sidecar for the whole
 * run; past this the oldest staged edits expire, and resolving one says so.
 */
const MAX_STAGED_CHARS = 128 * 1024 * 1024;

interface StagedEdit {
  id: string;
  /** The surface that staged it: only that surface may resolve it, or learn that it exists. */
  surface: string;
  files: StagedFile[];
  state: EditState;
  /** The tool that staged it: a rejection says to run that one again. */
  tool: string;
  /** An accept is checking or writing it: neither a second resolve nor expiry may touch it. */
  accepting?: boolean;
}

export interface Accepted {
  files: StagedFile[];
  /** Notes from after-write hooks (new diagnostics). */
  notes: string[];
}

export function contentHash(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

export class StagedEdits {
  private readonly edits = new Map<string, StagedEdit>();
  private counter = 0;
  /** Characters of new content the staged edits hold. */
  private stagedChars = 0;
  /** The accept now checking and writing; the next one waits for it. */
  private writing: Promise<unknown> = Promise.resolve();

  /**
   * `root`: the workspace's real path; a staged file that no longer resolves inside it counts as changed.
   * `maxStagedChars`: the bound on staged content (MAX_STAGED_CHARS).
   */
  constructor(
    private readonly root: string,
    private readonly maxStagedChars = MAX_STAGED_CHARS,
  ) {}

  stage(files: StagedFile[], surface: string, tool = "ast_edit"): string {
    const id = `edit_${++this.counter}`;
    this.edits.set(id, { id, surface, files, state: "staged", tool });
    this.stagedChars += charsOf(files);
    this.expireOldest(id);
    return id;
  }

  discard(id: string, surface: string): StagedFile[] {
    this.settle(this.staged(id, surface), "discarded");
    return [];
  }

  /** Rejects the whole edit when any file changed since staging; otherwise writes all atomically. */
  async accept(id: string, surface: string, afterWrite: (paths: string[]) => Promise<string[]>): Promise<Accepted> {
    const edit = this.staged(id, surface);
    edit.accepting = true;
    // One accept checks and writes at a time: two edits of the same file accepted in parallel
    // would both pass the check against the old content, and the second write would undo the first.
    const turn = this.writing.then(() => this.write(edit));
    this.writing = turn.catch(() => undefined);
    try {
      await turn;
    } finally {
      edit.accepting = false;
    }
    const files = edit.files;
    this.settle(edit, "accepted"); // the written content lives on disk now
    const notes = await afterWrite(files.map((f) => f.path));
    return { files, notes };
  }

  /** Checks every file against its staged hash, then writes them all or none. */
  private async write(edit: StagedEdit): Promise<void> {
    const { id } = edit;
    const changed: string[] = [];
    const leadingOut: string[] = [];
    for (const file of edit.files) {
      try {
        if (contentHash(await readFileInsideAsync(this.root, file.path)) !== file.hash) changed.push(file.rel);
      } catch (error) {
        (error instanceof NoLongerInside ? leadingOut : changed).push(file.rel);
      }
    }
    if (leadingOut.length > 0) throw this.rejectedAsMoved(edit, leadingOut);
    if (changed.length > 0) {
      this.settle(edit, "rejected");
      throw new ToolFailure(
        `Edit ${id} was rejected and nothing was written: ${changed.length} file(s) changed since it was staged (${changed.map(shownPath).join(", ")}). ` +
          `Run ${edit.tool} again to stage the rewrite against the current content.`,
        { code: "file_changed", changed },
      );
    }
    const readOnly = edit.files.flatMap((f) => {
      const mode = readOnlyModeOf(f.path);
      return mode === undefined ? [] : [`${f.rel} (mode ${mode})`];
    });
    if (readOnly.length > 0) {
      // The writer renames a temp file over the original, which needs only the folder's write
      // permission: without this check a read-only file is replaced, as root or not.
      throw new ToolFailure(
        `Edit ${id} was not applied and nothing was written: ${readOnly.join(", ")} ${readOnly.length === 1 ? "is" : "are"} read-only for the sidecar's user, ` +
          "and a file marked read-only is never rewritten. The edit stays staged: make the file(s) writable (chmod u+w) and accept again, or discard it.",
        { code: "write_failed", readOnly },
      );
    }
    try {
      await writeFilesAtomically(edit.files.map((f) => ({ path: f.path, content: f.updated })));
    } catch (error) {
      // The check above can be raced: the writer refuses too when a folder on the way was swapped for
      // a symlink since. A file swapped for one is safe there: the rename replaces the link.
      if (error instanceof FolderSwapped) throw this.rejectedAsMoved(edit, edit.files.filter((f) => error.paths.includes(f.path)).map((f) => f.rel));
      if (error instanceof AtomicWriteError) {
        throw new ToolFailure(`Edit ${id} could not be applied: ${error.message} The edit stays staged; fix the cause and accept it again.`, { code: "write_failed" });
      }
      throw error;
    }
  }

  /** The edit leaves the staged state; the store keeps only its id and what became of it. */
  private settle(edit: StagedEdit, state: Exclude<EditState, "staged">): void {
    this.stagedChars -= charsOf(edit.files);
    edit.files = [];
    edit.state = state;
  }

  /** Expires the oldest staged edits until the content fits the bound; never `keep` (the one just staged) nor one being accepted. */
  private expireOldest(keep: string): void {
    for (const edit of this.edits.values()) {
      if (this.stagedChars <= this.maxStagedChars) return;
      if (edit.state === "staged" && !edit.accepting && edit.id !== keep) this.settle(edit, "expired");
    }
  }

  /** Staged files sit inside the workspace (the walk never follows a link out); these now lead out of it. */
  private rejectedAsMoved(edit: StagedEdit, moved: string[]): ToolFailure {
    this.settle(edit, "rejected");
    return new ToolFailure(
      `Edit ${edit.id} was rejected and nothing was written: ${moved.map(shownPath).join(", ")} no longer lead(s) to the file that was staged (it or a folder on the way was replaced by a symlink). ` +
        `Run ${edit.tool} again to stage the rewrite against the current tree.`,
      { code: "file_changed", moved },
    );
  }

  /** The edit `surface` staged under `id`; another surface's edit is answered as unknown. */
  private staged(id: string, surface: string): StagedEdit {
    const found = this.edits.get(id);
    const edit = found?.surface === surface ? found : undefined;
    if (!edit) {
      const known = [...this.edits.values()].filter((e) => e.state === "staged" && e.surface === surface).map((e) => e.id);
      throw new ToolFailure(`There is no staged edit ${JSON.stringify(id)}. ${known.length > 0 ? `Staged now: ${known.join(", ")}.` : "Nothing is staged; call ast_edit, symbol_edit or code_action first."}`, {
        code: "unknown_edit",
        staged: known,
      });
    }
    if (edit.state === "expired") {
      throw new ToolFailure(
        `Edit ${id} expired: edits staged after it needed the room (staged edits hold at most ${Math.round(this.maxStagedChars / 2 ** 20)} MB of rewritten files, and the oldest unresolved ones go first). ` +
          `Nothing was written. Run ${edit.tool} again to stage it, and resolve edits as you go.`,
        { code: "edit_not_pending" },
      );
    }
    if (edit.accepting) throw new ToolFailure(`Edit ${id} is being accepted by another call; its answer says how that went.`, { code: "edit_not_pending" });
    if (edit.state !== "staged") {
      throw new ToolFailure(`Edit ${id} was already ${edit.state}; it cannot be resolved again. Call ${edit.tool} to stage a new one.`, { code: "edit_not_pending" });
    }
    return edit;
  }
}

/** readOnlyMode of the file now; undefined when it is gone (the writer then says so). */
function readOnlyModeOf(path: string): string | undefined {
  const info = statSync(path, { throwIfNoEntry: false });
  return info && readOnlyMode(path, info);
}

function charsOf(files: StagedFile[]): number {
  return files.reduce((sum, file) => sum + file.updated.length, 0);
}
