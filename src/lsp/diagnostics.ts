// Collecting a file's diagnostics after a sync: pull when the server offers it, else a version-matched push.
import type { Diagnostic, DiagnosticSeverity, DocumentDiagnosticReport } from "vscode-languageserver-protocol";
import { withinMs } from "../platform/within-ms.ts";
import { INDEXING_WAIT_MS, type LanguageServerClient } from "./client.ts";
import { ServerGone } from "./server-errors.ts";
import type { SyncedDocument } from "./documents.ts";

/** After a matching push, further pushes within this window replace it (gopls publishes clean first, the error ~90 ms later). */
const PUSH_SETTLE_MS = 250;
/** The longest a write waits for a server's push (after its project loaded) before answering `timed_out`. */
const PUSH_HARD_CAP_MS = 15_000;
/** The longest a pull request may take before answering `timed_out` (pyright's first, on a cold start, analyses the builtins: over 20 s on a loaded box). */
const PULL_TIMEOUT_MS = 60_000;

export type Freshness = "fresh" | "timed_out" | "unsupported";

interface CollectedDiagnostics {
  status: Freshness;
  diagnostics: Diagnostic[];
  /** "pull" or "push": how they arrived. */
  via: "pull" | "push";
}

/** A document's diagnostics for the version synced, kept with that text in the document's history. */
export async function collectDiagnostics(client: LanguageServerClient, document: SyncedDocument, signal?: AbortSignal): Promise<CollectedDiagnostics> {
  const collected = await collectOnce(client, document, signal);
  if (collected.status === "fresh") {
    const entry = client.documents.get(document.uri)?.history.find((version) => version.version === document.version);
    if (entry) entry.diagnostics = collected.diagnostics;
  }
  return collected;
}

async function collectOnce(client: LanguageServerClient, document: SyncedDocument, signal?: AbortSignal): Promise<CollectedDiagnostics> {
  if (client.supportsPull) return pull(client, document, signal);
  if (offersTsserverRequests(client)) {
    try {
      return await pullFromTsserver(client, document, signal);
    } catch (error) {
      if (error instanceof ServerGone || signal?.aborted) throw error;
      // An older server without the command: its pushes still tell.
    }
  }
  return awaitPush(client, document, signal);
}

async function pull(client: LanguageServerClient, document: SyncedDocument, signal?: AbortSignal): Promise<CollectedDiagnostics> {
  const cached = client.published.get(document.uri);
  const report = await withinMs(client.request<DocumentDiagnosticReport>("textDocument/diagnostic", { textDocument: { uri: document.uri } }, signal), PULL_TIMEOUT_MS);
  if (report === "timeout") return { status: "timed_out", diagnostics: [], via: "pull" };
  return pulled(client, document, report.kind === "full" ? report.items : (cached?.diagnostics ?? []));
}

/** Diagnostics asked for this version: kept as the file's latest, like a matching push. */
function pulled(client: LanguageServerClient, document: SyncedDocument, diagnostics: Diagnostic[]): CollectedDiagnostics {
  const cached = client.published.get(document.uri);
  client.published.set(document.uri, { version: document.version, diagnostics, sequence: cached?.sequence ?? 0 });
  return { status: "fresh", diagnostics, via: "pull" };
}

/**
 * Waits for a publish that belongs to this version: one carrying the version, or (for servers that
 * omit it) any publish after the sync. Later publishes within the settle window win.
 */
function awaitPush(client: LanguageServerClient, document: SyncedDocument, signal?: AbortSignal): Promise<CollectedDiagnostics> {
  const before = client.published.get(document.uri);
  const startSequence = document.changed ? client.latestSequence : -1;
  const matches = () => {
    const current = client.published.get(document.uri);
    if (!current) return undefined;
    if (current.version !== undefined) return current.version === document.version ? current : undefined;
    // A server that versions its publishes sends an unversioned one only for a closed file (clangd's empty list on close).
    if (client.versionsPublishes) return undefined;
    return current.sequence > startSequence ? current : undefined;
  };
  if (!document.changed && before && matches()) return Promise.resolve({ status: "fresh", diagnostics: before.diagnostics, via: "push" });
  return new Promise((resolve) => {
    let settleTimer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const cleanup = () => {
      settled = true;
      clearTimeout(settleTimer);
      clearTimeout(capTimer);
      clearTimeout(absoluteTimer);
      client.events.off("progress", onProgress);
      client.events.off("exited", onExited);
      client.events.off("published", onPublish);
      client.events.off("registered", onRegistered);
      signal?.removeEventListener("abort", onAbort);
    };
    const finish = (status: Freshness) => {
      if (settled) return;
      cleanup();
      resolve({ status, diagnostics: status === "fresh" ? (matches()?.diagnostics ?? []) : [], via: "push" });
    };
    const onPublish = (uri: string) => {
      if (uri !== document.uri || !matches()) return;
      clearTimeout(settleTimer);
      settleTimer = setTimeout(() => finish("fresh"), PUSH_SETTLE_MS);
    };
    const onAbort = () => finish("timed_out");
    // pyright registers pull only after initialize, and then never pushes: switch over when it does.
    const onRegistered = () => {
      if (!client.supportsPull) return;
      cleanup();
      resolve(pull(client, document, signal));
    };
    client.events.on("registered", onRegistered);
    // The cap is paused while the server reports progress (tsserver publishes nothing until its
    // project has loaded, which took 14 s on a loaded CI box); an absolute bound still applies.
    let capTimer: ReturnType<typeof setTimeout> | undefined;
    const startCap = () => {
      clearTimeout(capTimer);
      if (client.activeProgress.size === 0) capTimer = setTimeout(() => finish(matches() ? "fresh" : "timed_out"), PUSH_HARD_CAP_MS);
    };
    const onProgress = () => startCap();
    const absoluteTimer = setTimeout(() => finish(matches() ? "fresh" : "timed_out"), PUSH_HARD_CAP_MS + INDEXING_WAIT_MS);
    client.events.on("progress", onProgress);
    startCap();
    const onExited = () => finish("timed_out");
    client.events.once("exited", onExited);
    client.events.on("published", onPublish);
    signal?.addEventListener("abort", onAbort, { once: true });
    if (matches()) onPublish(document.uri);
  });
}

const TSSERVER_REQUEST = "typescript.tsserverRequest";
/** Suggestions (unused names, "may be converted") are hints, which diagnostics leave out anyway. */
const TSSERVER_DIAGNOSTIC_COMMANDS = ["syntacticDiagnosticsSync", "semanticDiagnosticsSync"] as const;

/** Whether the server answers a file's diagnostics when asked (pull, or tsserver), not only by push. */
export function answersWhenAsked(client: LanguageServerClient): boolean {
  return client.supportsPull || offersTsserverRequests(client);
}

function offersTsserverRequests(client: LanguageServerClient): boolean {
  return client.capabilities.executeCommandProvider?.commands.includes(TSSERVER_REQUEST) ?? false;
}

interface TsserverDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category?: string;
}

const TSSERVER_SEVERITY: Record<string, DiagnosticSeverity> = { error: 1, warning: 2, message: 3, suggestion: 4 };

/**
 * typescript-language-server's pushes carry no version, so a late push for the previous text
 * passed as this version's ("fresh, nothing new" over a new type error), and it pushes nothing when
 * a clean file stays clean (every such write waited out the cap). tsserver answers requests in
 * order, after the change just synced, so asking it directly is exact for this version.
 */
async function pullFromTsserver(client: LanguageServerClient, document: SyncedDocument, signal?: AbortSignal): Promise<CollectedDiagnostics> {
  // A project still loading answers once loaded (it took 14 s on a loaded CI box): the push path's bound.
  const requests = Promise.all(
    TSSERVER_DIAGNOSTIC_COMMANDS.map((command) =>
      client.request<{ success?: boolean; body?: TsserverDiagnostic[] }>("workspace/executeCommand", { command: TSSERVER_REQUEST, arguments: [command, { file: document.uri }] }, signal),
    ),
  );
  const answers = await withinMs(requests, PUSH_HARD_CAP_MS + INDEXING_WAIT_MS);
  if (answers === "timeout") return { status: "timed_out", diagnostics: [], via: "pull" };
  if (!answers.every((answer) => answer?.success === true && Array.isArray(answer.body))) throw new Error("tsserver did not answer the diagnostics request");
  const diagnostics: Diagnostic[] = answers.flatMap((answer) =>
    answer.body!.map((d) => ({
      range: { start: { line: d.start.line - 1, character: d.start.offset - 1 }, end: { line: d.end.line - 1, character: d.end.offset - 1 } },
      message: d.text,
      severity: TSSERVER_SEVERITY[d.category ?? "error"] ?? 1,
      ...(d.code !== undefined ? { code: d.code } : {}),
      source: "typescript",
    })),
  );
  return pulled(client, document, diagnostics);
}
