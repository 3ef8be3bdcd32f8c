// Checking a change through the servers: the diagnostics of the text before it and after it, for the changed files and their open dependents.
import { statSync } from "node:fs";
import { basename } from "node:path";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { ToolFailure } from "../answer/failure.ts";
import { isInside, relativeToWorkdir } from "../workspace/paths.ts";
import type { LanguageServerClient } from "./client.ts";
import type { OpenDocument } from "./document-state.ts";
import { answersWhenAsked, collectDiagnostics, type Freshness } from "./diagnostics.ts";
import { closeDocument, openDocument, reopenDocument, sendChange, stampOf, syncDocument, uriOf, type SyncedDocument } from "./documents.ts";
import { diagnosticsUnavailable } from "./launch.ts";
import { compareDiagnostics, type DiagnosticLedger } from "./ledger.ts";
import { diagnosticRow, isErrorOrWarning, pathOfUri, type DiagnosticRow, type SourceLines } from "./present.ts";
import { includersOf, isHeader, readsIncludesFromDisk } from "./rename-coverage.ts";
import { ServerDown, type LanguageServerSupervisor, type ServerHandle } from "./supervisor.ts";

/** One file a change touches. */
export interface TextChange {
  /** Absolute, inside the workdir. */
  path: string;
  /** The text before the change; `null` when the file did not exist; `undefined` when nobody knows. */
  before: string | null | undefined;
  /** The text after it; `null` for a deletion. */
  after: string | null;
}

/** Where the text a file is compared with came from. */
type Baseline = "server" | "checkout" | "created" | "unknown";

export interface FileOutcome {
  path: string;
  status: Freshness;
  /** Why the status is not `fresh`. */
  reason?: string;
  baseline?: Baseline;
  /** Errors and warnings the change brought. */
  new: DiagnosticRow[];
  /** How many were there before it too (not new). */
  already: number;
  /** How many it fixed. */
  fixed: number;
  /** With no text before the change known: its diagnostics, of which nobody can say which are new. */
  unverified?: DiagnosticRow[];
}

export interface WriteOutcome {
  /** The least fresh of the files: `fresh` only when every file's diagnostics arrived. */
  status: Freshness;
  /** New errors and warnings: in the changed files, then in the other files the change broke. */
  new: DiagnosticRow[];
  files: FileOutcome[];
  /** Other files (dependents) whose diagnostics changed with no earlier record to compare with: not reported. */
  uncompared: number;
  /**
   * clangd: files that include a written header and were not open before the write, opened after
   * it: their errors and warnings, of which nobody can say which are new.
   */
  includers?: { path: string; unverified: DiagnosticRow[] }[];
}

/** At most this many other open files are asked for their diagnostics before and after a change. */
const DEPENDENTS_ASKED = 20;

const ORDER: Freshness[] = ["fresh", "unsupported", "timed_out"];

/**
 * Checks a change through the servers in four steps, each done for every file before the next
 * begins: the text before the change is given to the server where it does not have it (a first
 * write of a file: its text from git), the diagnostics of that text are collected (for the
 * changed files and their open dependents), the text after the change is synced, and the
 * diagnostics are collected again. Only the difference is new: every error already in a file the
 * first time it was written had been reported as new. With `inMemory`, the text after the change is
 * not on disk (a rename checked before it is written); the caller writes it, or undoes it. With
 * `write`, the change is written to disk after the diagnostics before it were collected and before
 * the servers get the text after it (a rename through clangd, whose other files read the headers
 * they include from disk, is checked on disk).
 */
export async function checkChange(
  supervisor: LanguageServerSupervisor,
  changes: readonly TextChange[],
  options: { inMemory?: boolean; signal?: AbortSignal; ledger?: DiagnosticLedger; write?: () => Promise<void> } = {},
): Promise<WriteOutcome> {
  const lines = supervisor.lines();
  const { signal } = options;
  const refused: FileOutcome[] = [];
  const byClient = new Map<LanguageServerClient, { handle: ServerHandle; changes: TextChange[] }>();
  for (const change of changes) {
    const shown = relativeToWorkdir(supervisor.workdir, change.path);
    try {
      const handle = await supervisor.serverFor(change.path);
      // A server whose diagnostics come from a missing program (bash without shellcheck) checks nothing.
      const unavailable = diagnosticsUnavailable(handle.spec, supervisor.launchContext());
      if (unavailable) {
        refused.push({ path: shown, status: "unsupported", reason: unavailable, new: [], already: 0, fixed: 0 });
        continue;
      }
      const group = byClient.get(handle.client) ?? { handle, changes: [] };
      group.changes.push(change);
      byClient.set(handle.client, group);
    } catch (error) {
      // A server that is down says nothing about the file: that is "timed_out", as for one that exited.
      const status = error instanceof ServerDown ? "timed_out" : "unsupported";
      refused.push({ path: shown, status, reason: error instanceof ToolFailure ? error.message : String(error), new: [], already: 0, fixed: 0 });
    }
  }
  const checks = [...byClient.values()].map(({ handle, changes }) => new ServerCheck(supervisor, handle, changes, lines, options.inMemory ?? false, options.write !== undefined, signal));
  const held = [...byClient.values()].flatMap(({ handle, changes }) => changes.map((change) => ({ client: handle.client, uri: uriOf(change.path) })));
  for (const { client, uri } of held) client.held.add(uri);
  try {
    for (const step of ["before", "collectBefore"] as const) await Promise.all(checks.map((check) => check[step]()));
    // Written between the diagnostics before and the texts after: what the servers read from disk is then the new text.
    await options.write?.();
    for (const step of ["after", "collectAfter"] as const) await Promise.all(checks.map((check) => check[step]()));
  } finally {
    for (const { client, uri } of held) client.held.delete(uri);
  }
  const files = [...refused, ...checks.flatMap((check) => check.files)];
  for (const check of checks) for (const [path, rows] of check.current) options.ledger?.record(path, rows);
  const status = files.reduce<Freshness>((worst, f) => (ORDER.indexOf(f.status) > ORDER.indexOf(worst) ? f.status : worst), "fresh");
  const includers = checks.flatMap((check) => check.includers).sort((a, b) => a.path.localeCompare(b.path));
  return {
    status: files.length ? status : "unsupported",
    new: [...files.flatMap((f) => f.new), ...checks.flatMap((check) => check.elsewhere)],
    files,
    uncompared: checks.reduce((n, check) => n + check.uncompared, 0),
    ...(includers.length ? { includers } : {}),
  };
}

/** The change as one server sees it. */
class ServerCheck {
  readonly files: FileOutcome[] = [];
  readonly elsewhere: DiagnosticRow[] = [];
  readonly includers: { path: string; unverified: DiagnosticRow[] }[] = [];
  /** clangd: files that include a changed header and that no server held open, to be opened and checked. */
  private unopenedIncluders: string[] = [];
  /** Each file's errors and warnings after the change, where they arrived (for the ledger). */
  readonly current = new Map<string, DiagnosticRow[]>();
  uncompared = 0;
  private readonly client: LanguageServerClient;
  private readonly baselines = new Map<string, { kind: Baseline; diagnostics?: Diagnostic[]; status: Freshness; reason?: string }>();
  /** Open files that name a changed one (its importers, by a textual test), with their diagnostics before. */
  private dependents = new Map<string, Diagnostic[] | undefined>();
  private published = new Map<string, { version: number | undefined; diagnostics: Diagnostic[] }>();
  private sequence = 0;
  /**
   * Files whose text the last step did not change on the server: what it already published is
   * about this text (a server that leaves the version out would otherwise be waited for in vain).
   */
  private readonly unsent = new Set<string>();

  constructor(
    private readonly supervisor: LanguageServerSupervisor,
    private readonly handle: ServerHandle,
    private readonly changes: TextChange[],
    private readonly lines: SourceLines,
    private readonly inMemory: boolean,
    /** The change is written between the diagnostics before and after (the disk holds the text before until then). */
    private readonly writesLater: boolean,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.client = handle.client;
  }

  /** Step 1: the server holds every changed file's text before the change (where it is known). */
  async before(): Promise<void> {
    await this.supervisor.current(this.client);
    for (const change of this.changes) {
      const uri = uriOf(change.path);
      const open = this.client.documents.get(uri);
      if (change.before === undefined) {
        this.baselines.set(uri, { kind: "unknown", status: "fresh" });
      } else if (change.before === null) {
        this.baselines.set(uri, { kind: "created", diagnostics: [], status: "fresh" });
      } else if (!open) {
        openDocument(this.client, change.path, change.before);
        this.baselines.set(uri, { kind: "checkout", status: "fresh" });
      } else {
        if (open.text !== change.before) sendChange(this.client, uri, open, change.before);
        else this.unsent.add(uri);
        this.baselines.set(uri, { kind: "server", status: "fresh" });
      }
    }
    const written = new Set(this.changes.map((change) => uriOf(change.path)));
    const names = this.changes.map((change) => basename(change.path).replace(/\.[^.]+$/, "")).filter((name) => name.length > 0);
    if (names.length > 0) {
      const mentions = new RegExp(`\\b(${names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})\\b`);
      for (const [uri, open] of this.client.documents) {
        if (this.dependents.size >= DEPENDENTS_ASKED) break;
        if (!written.has(uri) && mentions.test(open.text)) this.dependents.set(uri, undefined);
      }
    }
    await this.findIncluders();
  }

  /**
   * clangd parses a file against the headers it includes as they are on disk, and only open files:
   * a header write that broke files nobody had opened was answered "nothing new". The files that
   * include a changed header (by their #include lines) are opened too, within the same bound.
   */
  private async findIncluders(): Promise<void> {
    if (this.inMemory || !readsIncludesFromDisk(this.handle.spec) || !this.changes.some((change) => isHeader(change.path))) return;
    const { includers } = await includersOf(this.handle.root, this.handle.spec, new Set(this.changes.map((change) => change.path)));
    for (const path of includers) {
      if (this.dependents.size + this.unopenedIncluders.length >= DEPENDENTS_ASKED) break;
      if (!this.client.documents.has(uriOf(path))) this.unopenedIncluders.push(path);
    }
  }

  /**
   * Opens the unopened includers and collects their diagnostics: before the write (when it comes
   * later) as dependents with a baseline, else after it, as diagnostics nobody can call new or old.
   */
  private async openIncluders(when: "before" | "after"): Promise<void> {
    if (when === "before" && !this.writesLater) return;
    const paths = this.unopenedIncluders;
    this.unopenedIncluders = [];
    await Promise.all(
      paths.map(async (path) => {
        const document = await syncDocument(this.client, this.supervisor.workdir, path).catch(() => undefined);
        const open = document && this.client.documents.get(document.uri);
        if (!document || !open) return;
        const asked = await this.diagnose(document.uri, open, true);
        if (asked.status !== "fresh") return;
        if (when === "before") return void this.dependents.set(document.uri, asked.diagnostics);
        const rows = this.rows(path, asked.diagnostics);
        this.current.set(relativeToWorkdir(this.supervisor.workdir, path), rows);
        if (rows.length) this.includers.push({ path: relativeToWorkdir(this.supervisor.workdir, path), unverified: rows });
      }),
    );
  }

  /** Step 2: the diagnostics of the text before the change, of the changed files and their dependents. */
  async collectBefore(): Promise<void> {
    await this.openIncluders("before");
    await Promise.all(
      this.changes.map(async (change) => {
        const uri = uriOf(change.path);
        const baseline = this.baselines.get(uri)!;
        const open = this.client.documents.get(uri);
        if (baseline.diagnostics || !open) return;
        const asked = await this.diagnose(uri, open);
        if (asked.status === "fresh") baseline.diagnostics = asked.diagnostics;
        else baseline.kind = "unknown"; // compared with nothing, rather than with a guess
      }),
    );
    // A changed file whose text before is unknown was not given to the server: it reads the file
    // from disk, the change included, so asking a dependent now would give no baseline at all.
    const readsChangeFromDisk = this.changes.some((change) => change.before === undefined && !this.client.documents.has(uriOf(change.path)));
    await Promise.all(
      [...this.dependents.keys()].map(async (uri) => {
        const open = this.client.documents.get(uri);
        if (!open) return;
        // What was recorded before first: asked now, a server that reads an unopened written file
        // from disk (tsserver) would already answer about the change.
        const recorded = open.history.find((version) => version.version === open.version)?.diagnostics;
        const current = this.client.published.get(uri);
        if (recorded) this.dependents.set(uri, recorded);
        else if (current && current.version === open.version) this.dependents.set(uri, current.diagnostics);
        else if (answersWhenAsked(this.client) && !readsChangeFromDisk) {
          const asked = await this.diagnose(uri, open);
          if (asked.status === "fresh") this.dependents.set(uri, asked.diagnostics);
        }
      }),
    );
    // What a push server had published for every file: its other files' news arrive as new publishes.
    this.sequence = this.client.latestSequence;
    this.published = new Map([...this.client.published].map(([uri, p]) => [uri, { version: p.version, diagnostics: p.diagnostics }]));
  }

  /** Step 3: the text after the change reaches the server (deletions closed, creations announced). */
  async after(): Promise<void> {
    this.unsent.clear();
    const announced = [];
    for (const change of this.changes) {
      const uri = uriOf(change.path);
      const open = this.client.documents.get(uri);
      if (change.after === null) {
        closeDocument(this.client, change.path);
        announced.push({ path: change.path, kind: "deleted" as const });
        continue;
      }
      let doc: OpenDocument;
      if (!open) {
        doc = openDocument(this.client, change.path, change.after);
        if (change.before === null) announced.push({ path: change.path, kind: "created" as const });
      } else {
        if (open.text !== change.after) sendChange(this.client, uri, open, change.after);
        else this.unsent.add(uri);
        doc = open;
      }
      doc.stamp = this.inMemory ? "" : diskStamp(change.path);
      if (!this.inMemory) this.client.notify("textDocument/didSave", { textDocument: { uri }, text: change.after });
    }
    // gopls and pyright learn of a deleted or new file only this way (the watcher may not have told them yet).
    if (announced.length) this.client.notifyFileChanges(announced);
  }

  /** Step 4: the diagnostics after the change, compared with those before. */
  async collectAfter(): Promise<void> {
    await Promise.all(
      this.changes.map(async (change) => {
        const uri = uriOf(change.path);
        const shown = relativeToWorkdir(this.supervisor.workdir, change.path);
        const baseline = this.baselines.get(uri)!;
        const open = this.client.documents.get(uri);
        if (change.after === null || !open) {
          if (change.after === null) this.current.set(shown, []);
          this.files.push({ path: shown, status: "fresh", baseline: baseline.kind, new: [], already: 0, fixed: 0 });
          return;
        }
        const asked = await this.diagnose(uri, open);
        if (asked.status !== "fresh") {
          this.files.push({ path: shown, status: asked.status, reason: asked.reason ?? `the ${this.handle.spec.id} server sent no diagnostics for this version in time`, new: [], already: 0, fixed: 0 });
          return;
        }
        const after = this.rows(change.path, asked.diagnostics);
        this.current.set(shown, after);
        if (baseline.kind === "unknown" || !baseline.diagnostics) {
          this.files.push({ path: shown, status: "fresh", baseline: "unknown", new: [], already: 0, fixed: 0, unverified: after });
          return;
        }
        const compared = compareDiagnostics(this.rows(change.path, baseline.diagnostics), after);
        this.files.push({ path: shown, status: "fresh", baseline: baseline.kind, new: compared.new, already: compared.already.length, fixed: compared.fixed.length });
      }),
    );
    await this.collectDependents();
    await this.openIncluders("after");
  }

  /**
   * New errors the change caused in files it did not touch: a renamed function leaves its callers
   * undeclared. A push server's new publishes are taken as they came; a server that answers when
   * asked (pyright, tsserver) is asked about the open dependents, and on clangd, which re-checks
   * an open file only when that file changes, each is closed and opened again (its text unchanged)
   * so that it parses it against the new header. Only files with diagnostics from before the change
   * are compared.
   */
  private async collectDependents(): Promise<void> {
    const current = new Map<string, readonly Diagnostic[]>();
    const reparses = this.handle.spec.command.endsWith("clangd");
    await Promise.all(
      [...this.dependents.keys()].map(async (uri) => {
        const open = this.client.documents.get(uri);
        if (!open) return;
        if (reparses) reopenDocument(this.client, uri, open);
        else if (!answersWhenAsked(this.client)) return;
        const asked = await this.diagnose(uri, open, true);
        if (asked.status === "fresh") current.set(uri, asked.diagnostics);
      }),
    );
    for (const [uri, now] of this.client.published) {
      // An unversioned publish from a server that versions them is about a closed file (clangd's on a reopen).
      if (now.version === undefined && this.client.versionsPublishes) continue;
      if ((now.sequence > this.sequence || !this.published.has(uri)) && !current.has(uri)) current.set(uri, now.diagnostics);
    }
    const written = new Set(this.changes.map((change) => uriOf(change.path)));
    for (const [uri, diagnostics] of current) {
      if (written.has(uri)) continue;
      const path = pathOfUri(uri);
      if (!isInside(this.supervisor.workdir, path)) continue;
      const before = this.dependents.get(uri) ?? this.published.get(uri)?.diagnostics;
      if (!before) {
        if (diagnostics.some(isErrorOrWarning)) this.uncompared++;
        continue;
      }
      const now = this.rows(path, diagnostics);
      this.current.set(relativeToWorkdir(this.supervisor.workdir, path), now);
      this.elsewhere.push(...compareDiagnostics(this.rows(path, before), now).new);
    }
  }

  /**
   * The diagnostics of the document's current version. Those collected earlier for the same version
   * are the baseline's (the last known, from before this change); `fresh` asks anyway, as a file's
   * diagnostics change with the files it imports.
   */
  private async diagnose(uri: string, open: OpenDocument, fresh = false): Promise<{ status: Freshness; diagnostics: Diagnostic[]; reason?: string }> {
    const cached = fresh ? undefined : open.history.find((version) => version.version === open.version)?.diagnostics;
    if (cached) return { status: "fresh", diagnostics: cached };
    const document: SyncedDocument = { uri, version: open.version, text: open.text, changed: fresh || !this.unsent.has(uri) };
    try {
      return await collectDiagnostics(this.client, document, this.signal);
    } catch (error) {
      return { status: "timed_out", diagnostics: [], reason: (error as Error).message };
    }
  }

  private rows(path: string, diagnostics: readonly Diagnostic[]): DiagnosticRow[] {
    return diagnostics.filter(isErrorOrWarning).map((d) => diagnosticRow(path, d, this.lines));
  }
}

function diskStamp(path: string): string {
  try {
    return stampOf(statSync(path));
  } catch {
    return "";
  }
}
