// Diagnostics on write: each written file compared with its text before the write, and only what the write caused called new.
import { existsSync } from "node:fs";
import { readFileInsideAsync, relativeToWorkdir, resolveInWorkdir } from "../workspace/paths.ts";
import type { CheckoutRecord } from "./checkout.ts";
import { withinMs } from "../platform/within-ms.ts";
import { uriOf } from "./documents.ts";
import type { DiagnosticLedger } from "./ledger.ts";
import type { OutsideChanges } from "./outside-changes.ts";
import type { WorkdirWatcher } from "./workdir-watch.ts";
import type { LanguageServerSupervisor } from "./supervisor.ts";
import { checkChange, type FileOutcome, type TextChange, type WriteOutcome } from "./write-check.ts";

export type { WriteOutcome } from "./write-check.ts";

/** A write made while the workdir watcher's first walk runs waits this long for it. */
const FIRST_WALK_WAIT_MS = 10_000;

interface WriteContext {
  supervisor: LanguageServerSupervisor;
  checkout: CheckoutRecord;
  outside: OutsideChanges;
  watcher: WorkdirWatcher;
  /** Told each checked file's diagnostics after the write. */
  ledger?: DiagnosticLedger;
}

/**
 * The harness wrote `paths` (deleted ones included); each is compared with its text before the
 * write: the server's copy (the latest it held that differs from what was written: a query may
 * have synced the write already, or the file was reverted outside and written again), else, for a
 * file no server held and nothing changed since the run began, its text then: from git, or none
 * when the workdir watcher's first walk did not find it. Else unknown — its diagnostics are then
 * listed as such, never as new.
 */
export async function diagnosticsAfterWrite(context: WriteContext, paths: readonly string[], signal?: AbortSignal): Promise<WriteOutcome> {
  const { supervisor } = context;
  // The first walk tells which files were there at the start; past the bound, that is unknown.
  await withinMs(context.watcher.ready(), FIRST_WALK_WAIT_MS);
  // The write's own file events first, so they are not taken for a change made before it.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await supervisor.watch?.settled();
  const changes: TextChange[] = [];
  const refused: FileOutcome[] = [];
  for (const given of paths) {
    let path: string;
    try {
      path = resolveInWorkdir(supervisor.workdir, given);
    } catch (error) {
      refused.push({ path: given, status: "unsupported", reason: (error as Error).message, new: [], already: 0, fixed: 0 });
      continue;
    }
    let after: string | null = null;
    if (existsSync(path)) {
      try {
        after = (await readFileInsideAsync(supervisor.workdir, path)).toString("utf8");
      } catch (error) {
        refused.push({ path: relativeToWorkdir(supervisor.workdir, path), status: "timed_out", reason: `cannot read it: ${(error as Error).message}`, new: [], already: 0, fixed: 0 });
        continue;
      }
    }
    changes.push({ path, after, before: await textBefore(context, path, after) });
  }
  const outcome = changes.length ? await checkChange(supervisor, changes, { signal, ledger: context.ledger }) : { status: "unsupported" as const, new: [], files: [], uncompared: 0 };
  for (const change of changes) context.outside.accounted(change.path);
  if (refused.length === 0) return outcome;
  const files = [...refused, ...outcome.files];
  return { ...outcome, files, status: changes.length === 0 ? (refused.some((f) => f.status === "timed_out") ? "timed_out" : "unsupported") : worst(outcome.status, refused) };
}

async function textBefore({ supervisor, checkout, outside, watcher }: WriteContext, path: string, after: string | null): Promise<string | null | undefined> {
  // Only a running server can hold it; none is started here (one that fails would fail twice).
  const uri = uriOf(path);
  const open = supervisor.running().find(({ client }) => client.documents.has(uri))?.client.documents.get(uri);
  if (open) {
    for (let i = open.history.length - 1; i >= 0; i--) if (open.history[i]!.text !== after) return open.history[i]!.text;
    return open.text;
  }
  if (outside.changedBefore(path)) return undefined;
  const atStart = await checkout.textAtStart(path);
  if (atStart !== undefined) return atStart;
  return watcher.existedAtStart(path) === false ? null : undefined;
}

function worst(status: WriteOutcome["status"], files: readonly FileOutcome[]): WriteOutcome["status"] {
  const order = ["fresh", "unsupported", "timed_out"];
  return files.reduce((w, f) => (order.indexOf(f.status) > order.indexOf(w) ? f.status : w), status);
}
