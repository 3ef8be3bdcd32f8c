// Frame ids and variable references handed to the model, minted by us and tied to one stop.
import { ToolFailure } from "../answer/failure.ts";

type ReferenceKind = "frame" | "variables";

export interface Handle {
  kind: ReferenceKind;
  /** The adapter's own id (frameId or variablesReference). */
  dapId: number;
  threadId?: number;
  /** For a scope's variables: the scope's name ("Locals", "Globals") and its frame's adapter id. */
  scope?: { name: string; frameDapId: number };
}

/**
 * Adapters reuse their ids after a resume (lldb's frame ids are the same numbers at every stop),
 * so an old id could silently name a different frame. We mint our own, never reused, and refuse
 * one from an earlier stop instead of answering about something else.
 */
export class ReferenceTable {
  private next = 1;
  private readonly handles = new Map<number, Handle>();
  /** Every id below this was minted before the last resume. */
  private staleBelow = 0;

  /** The program ran: everything minted so far describes a state that is gone. */
  moveOn(): void {
    this.handles.clear();
    this.staleBelow = this.next;
  }

  mint(kind: ReferenceKind, dapId: number, threadId?: number, scope?: Handle["scope"]): number {
    const id = this.next++;
    this.handles.set(id, { kind, dapId, ...(threadId !== undefined ? { threadId } : {}), ...(scope ? { scope } : {}) });
    return id;
  }

  /** Whether `id` names a live reference of this kind (minted since the last resume). */
  has(kind: ReferenceKind, id: number): boolean {
    return this.handles.get(id)?.kind === kind;
  }

  resolve(kind: ReferenceKind, id: number): Handle {
    const handle = this.handles.get(id);
    if (handle?.kind === kind) return handle;
    if (handle) {
      throw new ToolFailure(`${id} is a ${handle.kind === "frame" ? "frame id" : "variables reference"}, not a ${describe(kind)}.`, { code: "unknown_reference" });
    }
    if (id > 0 && id < this.staleBelow) {
      throw new ToolFailure(`The ${describe(kind)} ${id} is stale: the program moved on — call stack again for current ids.`, { code: "stale_reference" });
    }
    throw new ToolFailure(`There is no ${describe(kind)} ${id}; take ids from the latest stack, scopes or variables answer.`, { code: "unknown_reference" });
  }
}

function describe(kind: ReferenceKind): string {
  return kind === "frame" ? "frame id" : "variables reference";
}
