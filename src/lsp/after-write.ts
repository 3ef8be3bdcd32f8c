// Diagnostics on write: sync each changed file through its server and report only what the ledger has not seen.
import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { ToolFailure } from "../answer/failure.ts";
import { isInside, relativeToWorkdir, resolveInWorkdir } from "../workspace/paths.ts";
import type { LanguageServerClient, PublishedDiagnostics } from "./client.ts";
import { answersWhenAsked, collectDiagnostics, type Freshness } from "./diagnostics.ts";
import { closeDocument, syncDocument, type SyncedDocument } from "./documents.ts";
import type { DiagnosticLedger } from "./ledger.ts";
import { diagnosticRow, isErrorOrWarning, pathOfUri, type DiagnosticRow, type SourceLines } from "./present.ts";
import { diagnosticsUnavailable } from "./launch.ts";
import { ServerDown, type LanguageServerSupervisor, type ServerHandle } from "./supervisor.ts";
import { shownPath } from "../workspace/shown-path.ts";

export interface FileOutcome {
  path: string;
  status: Freshness;
  /** Why the status is not `fresh`. */
  reason?: string;
  new: DiagnosticRow[];
}

export interface WriteOutcome {
  /** The least fresh of the files: `fresh` only when every file's diagnostics arrived. */
  status: Freshness;
  new: DiagnosticRow[];
  files: FileOutcome[];
}

const ORDER: Freshness[] = ["fresh", "unsupported", "timed_out"];

export async function diagnosticsAfterWrite(
  supervisor: LanguageServerSupervisor,
  ledger: DiagnosticLedger,
  paths: readonly string[],
  signal?: AbortSignal,
): Promise<WriteOutcome> {
  const lines = supervisor.lines();
  // Every file reaches its server before any is diagnosed: an importer checked before the file it
  // imports was synced reports the old names as errors (a correct rename said "calc is unknown").
  const before = new Map<LanguageServerClient, PublishedSnapshot>();
  const synced = await Promise.all(paths.map((path) => syncWritten(supervisor, ledger, path, before)));
  await Promise.all([...before.keys()].map((client) => supervisor.current(client)));
  const files = await Promise.all(synced.map((file) => ("status" in file ? file : diagnose(file, ledger, lines, signal))));
  const written = new Set(synced.flatMap((file) => ("document" in file ? [file.document.uri] : [])));
  const elsewhere = (await Promise.all([...before].map(([client, snapshot]) => brokenElsewhere(client, snapshot, written, supervisor.workdir, ledger, lines, signal)))).flat();
  const status = files.reduce<Freshness>((worst, f) => (ORDER.indexOf(f.status) > ORDER.indexOf(worst) ? f.status : worst), "fresh");
  return { status: files.length ? status : "unsupported", new: [...files.flatMap((f) => f.new), ...elsewhere], files };
}

/** What a server had published when a write began: every file's diagnostics, and the publish count. */
interface PublishedSnapshot {
  sequence: number;
  published: Map<string, PublishedDiagnostics>;
}

/** At most this many other open files are asked for their diagnostics after a write. */
const DEPENDENTS_ASKED = 20;

/**
 * New errors the write caused in files it did not touch: a renamed function leaves its callers
 * undeclared, and the build is broken there. Only files the server had diagnostics for before the
 * write count, compared with those, so an old error in a file seen for the first time is not
 * blamed on this write. A push server's new publishes are taken as they came; a server that answers
 * when asked (pyright, tsserver) is asked about the other open files that name a written one (its
 * importers, by a cheap textual test), since it would not tell unasked.
 */
async function brokenElsewhere(
  client: LanguageServerClient,
  snapshot: PublishedSnapshot,
  written: ReadonlySet<string>,
  workdir: string,
  ledger: DiagnosticLedger,
  lines: SourceLines,
  signal?: AbortSignal,
): Promise<DiagnosticRow[]> {
  const current = new Map<string, readonly Diagnostic[]>();
  for (const [uri, now] of client.published) if (now.sequence > snapshot.sequence) current.set(uri, now.diagnostics);
  if (answersWhenAsked(client) && written.size > 0) {
    const names = [...written].map((uri) => basename(pathOfUri(uri)).replace(/\.[^.]+$/, "")).filter((name) => name.length > 0);
    const mentions = new RegExp(`\\b(${names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})\\b`);
    const importers = [...client.documents].filter(([uri, open]) => !written.has(uri) && snapshot.published.has(uri) && mentions.test(open.text)).slice(0, DEPENDENTS_ASKED);
    await Promise.all(
      importers.map(async ([uri, open]) => {
        const asked = await collectDiagnostics(client, { uri, version: open.version, text: open.text, changed: false }, signal).catch(() => undefined);
        if (asked?.status === "fresh") current.set(uri, asked.diagnostics);
      }),
    );
  }
  return [...current].flatMap(([uri, diagnostics]) => {
    const was = snapshot.published.get(uri);
    if (written.has(uri) || !was) return [];
    const path = pathOfUri(uri);
    if (!isInside(workdir, path)) return [];
    const rows = (list: readonly Diagnostic[]) => list.filter(isErrorOrWarning).map((d) => diagnosticRow(path, d, lines));
    if (ledger.heldFor(path) === 0) ledger.admit(path, rows(was.diagnostics));
    return ledger.admit(path, rows(diagnostics));
  });
}

interface SyncedFile {
  path: string;
  shown: string;
  handle: ServerHandle;
  document: SyncedDocument;
}

/** Syncs one written file to its server, or says at once why it has no diagnostics. */
async function syncWritten(
  supervisor: LanguageServerSupervisor,
  ledger: DiagnosticLedger,
  given: string,
  before: Map<LanguageServerClient, PublishedSnapshot>,
): Promise<SyncedFile | FileOutcome> {
  let path: string;
  try {
    path = resolveInWorkdir(supervisor.workdir, given);
  } catch (error) {
    return { path: given, status: "unsupported", reason: (error as Error).message, new: [] };
  }
  const shown = relativeToWorkdir(supervisor.workdir, path);
  let handle;
  try {
    handle = await supervisor.serverFor(path);
  } catch (error) {
    // A server that is down says nothing about the file: that is "timed_out", as for one that exited.
    const status = error instanceof ServerDown ? "timed_out" : "unsupported";
    return { path: shown, status, reason: error instanceof ToolFailure ? error.message : String(error), new: [] };
  }
  const unavailable = diagnosticsUnavailable(handle.spec, supervisor.launchContext());
  if (unavailable) return { path: shown, status: "unsupported", reason: unavailable, new: [] };
  const { client } = handle;
  // Taken before any change reaches the server, a deletion included: its importers break too.
  if (!before.has(client)) before.set(client, { sequence: client.latestSequence, published: new Map(client.published) });
  if (!existsSync(path)) {
    // A deleted file: the server drops it, and so does the ledger.
    closeDocument(client, path);
    ledger.admit(path, []);
    return { path: shown, status: "fresh", new: [] };
  }
  try {
    return { path, shown, handle, document: await syncDocument(client, supervisor.workdir, path, { save: true }) };
  } catch (error) {
    return { path: shown, status: "timed_out", reason: (error as Error).message, new: [] };
  }
}

async function diagnose(file: SyncedFile, ledger: DiagnosticLedger, lines: SourceLines, signal?: AbortSignal): Promise<FileOutcome> {
  const { path, shown, handle } = file;
  try {
    const collected = await collectDiagnostics(handle.client, file.document, signal);
    if (collected.status !== "fresh") {
      return { path: shown, status: collected.status, reason: `the ${handle.spec.id} server sent no diagnostics for this version in time`, new: [] };
    }
    const rows = collected.diagnostics.filter(isErrorOrWarning).map((d) => diagnosticRow(path, d, lines));
    return { path: shown, status: "fresh", new: ledger.admit(path, rows) };
  } catch (error) {
    return { path: shown, status: "timed_out", reason: (error as Error).message, new: [] };
  }
}

/** The few lines a harness appends to its write result. */
export function describeWriteOutcome(outcome: WriteOutcome): string {
  const lines: string[] = [];
  if (outcome.new.length) {
    lines.push(`${outcome.new.length} new diagnostic${outcome.new.length === 1 ? "" : "s"} after this write:`);
    // A message's own later lines (clangd's and pyright's notes) stay indented under it.
    for (const d of outcome.new) lines.push(`  ${shownPath(d.path)}:${d.line}: ${d.severity}${d.code ? ` ${d.code}` : ""}: ${d.message.replace(/\n/g, "\n    ")}`);
  }
  for (const f of outcome.files) if (f.status !== "fresh") lines.push(`${shownPath(f.path)}: diagnostics ${f.status === "timed_out" ? "timed out" : "unavailable"}: ${f.reason}`);
  return lines.join("\n");
}
