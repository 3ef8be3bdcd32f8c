// One running language server: its process group, the JSON-RPC connection over stdio, and what it told us.
import type { ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { pathToFileURL } from "node:url";
import type { ApplyWorkspaceEditParams, ApplyWorkspaceEditResult, Diagnostic, ProtocolConnection, ServerCapabilities, WorkspaceEdit } from "vscode-languageserver-protocol/node";
import { exited, hasExited, spawnGroup, stopGroup } from "../process/group.ts";
import { ToolFailure } from "../answer/failure.ts";
import type { ServerSpec } from "./catalog.ts";
import { CLIENT_CAPABILITIES } from "./client-capabilities.ts";
import type { OpenDocument, PublishedDiagnostics } from "./document-state.ts";
import { RegisteredWatchers } from "./file-watchers.ts";
import type { ServerLaunch } from "./launch.ts";
import { CONTENT_MODIFIED, ContentModified, ServerGone } from "./server-errors.ts";
import type { WatchedChange as FileChange } from "./workdir-watch.ts";
import { WorkProgress } from "./work-progress.ts";

/** How long a polite `shutdown` may take before the group is signalled. */
const SHUTDOWN_REQUEST_TIMEOUT_MS = 2_000;
/**
 * A query waits this long for the server's work-done progress (project loading, indexing) to end.
 * tsserver's first diagnostics took 33–50 s on a CI box running several suites at once.
 */
export const INDEXING_WAIT_MS = 60_000;
/** The progress token standing for a server's start-up analysis until it says it is done (ServerSpec.startupAnalysis). */
const STARTUP_ANALYSIS_TOKEN = "sidecar:startup-analysis";
/** How much of the server's stderr is kept to explain an early exit. */
const STDERR_KEPT_BYTES = 4_096;

type ProtocolLibrary = typeof import("vscode-languageserver-protocol/node");
/**
 * The protocol library loads with the first server, not with the sidecar: evaluating it cost
 * start-up 15–30 ms that a run making no lsp call never needs. Every client method runs after
 * `start`, which has loaded it.
 */
let protocol: ProtocolLibrary | undefined;
async function loadProtocol(): Promise<ProtocolLibrary> {
  protocol ??= await import("vscode-languageserver-protocol/node");
  return protocol;
}

/** Times a query answered "content modified" is asked again, after waiting for progress to end and a pause that doubles. */
const CONTENT_MODIFIED_RETRIES = 3;
const CONTENT_MODIFIED_PAUSE_MS = 50;

export interface StartOptions {
  spec: ServerSpec;
  root: string;
  /** The program, its arguments, environment and initialization options (launch.ts). */
  launch: ServerLaunch;
  initializeTimeoutMs: number;
}

export class LanguageServerClient {
  readonly label: string;
  capabilities: ServerCapabilities = {};
  /** Dynamic registrations (client/registerCapability): id → method. Servers re-register under new ids. */
  readonly registered = new Map<string, string>();
  /** The file watchers it registered (workspace/didChangeWatchedFiles). */
  private readonly fileWatchers = new RegisteredWatchers();
  /** Work-done progress: while any runs, the server is busy (often indexing). */
  private readonly progress = new WorkProgress(() => this.events.emit("progress"));
  readonly published = new Map<string, PublishedDiagnostics>();
  readonly events = new EventEmitter();
  /** Documents a change being checked holds at its own text: syncs from disk leave them alone. */
  readonly held = new Set<string>();
  /** Open documents: uri → the version and text the server has. */
  readonly documents = new Map<string, OpenDocument>();
  /** Requests in flight, and when the last one started or ended: idle shutdown must not cut one off. */
  inFlight = 0;
  /** Set once a publish carried a version: the server's unversioned ones are then about closed files (clangd's on close). */
  versionsPublishes = false;
  /** How many times a query was asked again after "content modified" (status and tests read it). */
  contentModifiedRetries = 0;
  lastActivity = Date.now();
  /** While a command runs for code_action: the edits the server asks to apply, kept instead. */
  private editCapture: WorkspaceEdit[] | undefined;
  private capturing: Promise<unknown> = Promise.resolve();
  private sequence = 0;
  private stderr = "";
  /** Set when the server sent something unreadable; the stream is then out of step for good. */
  private protocolError: string | undefined;
  private stopping = false;
  /** The launch's, with its module paths resolved (launch.ts). */
  private initializationOptions: Record<string, unknown> | undefined;
  private stopped: Promise<void> | undefined;
  private killed: Promise<void> | undefined;
  private readonly gone: Promise<never>;

  private constructor(
    readonly spec: ServerSpec,
    readonly root: string,
    readonly child: ChildProcess,
    readonly connection: ProtocolConnection,
  ) {
    this.label = `${spec.id} (${root})`;
    this.events.setMaxListeners(0);
    child.stderr?.on("data", (chunk: Buffer) => {
      if (this.stderr.length < STDERR_KEPT_BYTES) this.stderr += chunk.toString("utf8");
    });
    const ended = exited(child);
    this.whenExited = () => ended;
    void ended.then(() => this.events.emit("exited"));
    this.gone = ended.then(() => {
      throw new ServerGone(spec.id, this.exitDescription());
    });
    this.gone.catch(() => {});
  }

  /**
   * Runs `work` (a workspace/executeCommand) taking every workspace/applyEdit the server sends
   * meanwhile instead of refusing it: answered applied, kept for the caller to stage. One at a
   * time per server, so two commands' edits never mix.
   */
  async capturingEdits<T>(work: () => Promise<T>): Promise<{ result: T; edits: WorkspaceEdit[] }> {
    const turn = this.capturing.then(async () => {
      const edits: WorkspaceEdit[] = [];
      this.editCapture = edits;
      try {
        return { result: await work(), edits };
      } finally {
        this.editCapture = undefined;
      }
    });
    this.capturing = turn.catch(() => undefined);
    return turn;
  }

  static async start(options: StartOptions): Promise<LanguageServerClient> {
    const { spec, root, launch } = options;
    const { createProtocolConnection, StreamMessageReader, StreamMessageWriter } = await loadProtocol();
    const child = spawnGroup(launch.command, launch.args, { cwd: root, stdio: ["pipe", "pipe", "pipe"], env: launch.env });
    const spawned = new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
    try {
      await spawned;
    } catch (error) {
      throw new Error(`could not start ${launch.command}: ${(error as Error).message}`);
    }
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const client = new LanguageServerClient(spec, root, child, connection);
    client.listen();
    client.initializationOptions = launch.initializationOptions;
    const timeout = new Promise<never>((_, reject) => {
      const timer = setTimeout(() => reject(new Error(`initialize timed out after ${options.initializeTimeoutMs / 1000} s`)), options.initializeTimeoutMs);
      timer.unref?.();
      client.gone.catch(() => clearTimeout(timer));
    });
    try {
      await Promise.race([client.initialize(), timeout, client.gone]);
    } catch (error) {
      const reason = hasExited(child) ? client.exitDescription() : (error as Error).message;
      await client.kill();
      throw new Error(reason);
    }
    return client;
  }

  get alive(): boolean {
    return !hasExited(this.child);
  }

  /** Resolves when the process has exited, whatever the cause (one listener on the child, shared). */
  readonly whenExited: () => Promise<void>;

  /** "exit code 1: error: Unknown binary 'rust-analyzer'…" — the first stderr line says why. */
  exitDescription(): string {
    const { exitCode, signalCode } = this.child;
    if (this.protocolError !== undefined) return `stopped after it sent a malformed message (${this.protocolError})`;
    const how = signalCode ? `killed by ${signalCode}` : `exit code ${exitCode}`;
    const firstLine = this.stderr.split("\n").map((l) => l.trim()).find(Boolean);
    return firstLine ? `${how}: ${firstLine}` : how;
  }

  /** A request that fails with ServerGone if the process dies first, and is cancelled with `signal`. */
  async request<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R> {
    if (!this.alive) throw new ServerGone(this.spec.id, this.exitDescription());
    const source = new protocol!.CancellationTokenSource();
    const onAbort = () => source.cancel();
    signal?.addEventListener("abort", onAbort, { once: true });
    this.inFlight += 1;
    this.lastActivity = Date.now();
    try {
      return await this.unlessGone(this.connection.sendRequest(method, params, source.token) as Promise<R>);
    } catch (error) {
      if (error instanceof ToolFailure) throw error;
      // A ResponseError is the server's own refusal: pass its words on.
      const said = (error as Error).message.replace(/^Request \S+ failed with message: /, "");
      if ((error as { code?: unknown }).code === CONTENT_MODIFIED) throw new ContentModified(this.spec.id, method, said);
      throw new ToolFailure(`The ${this.spec.id} server answered ${method} with an error: ${said}`, { code: "server_error" });
    } finally {
      this.inFlight -= 1;
      this.lastActivity = Date.now();
      signal?.removeEventListener("abort", onAbort);
      source.dispose();
    }
  }

  /**
   * `work`, or ServerGone if the process exits first. Not Promise.race with `gone`: every race
   * leaves a reaction on the promise it races, and `gone` lives as long as the server, so each
   * request's race was kept until the server exited (about 8 500 of them after a minute of load).
   */
  private unlessGone<R>(work: Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const onExit = () => reject(new ServerGone(this.spec.id, this.exitDescription()));
      // Exited already: "exited" was emitted, or is about to be; either way the answer is the same.
      if (!this.alive) return onExit();
      this.events.once("exited", onExit);
      work.then(resolve, reject).finally(() => this.events.off("exited", onExit));
    });
  }

  /**
   * A query whose answer is only right once the project is loaded: it waits for running progress
   * to end first, and asks again if progress began while it was in flight, even if it has ended
   * since: such an answer may come from a partial view of the project. (typescript-language-server
   * with its syntax server on answers references with the declaration alone while loading.)
   */
  async query<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R> {
    // The whole query counts as in flight, its waits for indexing too: idle shutdown (1 s in a test,
    // on a loaded box) stopped a restarted server while its first query waited for its project.
    this.inFlight += 1;
    try {
      await this.progressDrained(signal);
      const startsBefore = this.progress.starts;
      const answer = await this.unmodified<R>(method, params, signal);
      // Progress during the query may be the server answering it (pyright: references), not only
      // indexing; asked again either way. That costs pyright's references about 6 ms, and its first
      // answer after start lists only the declaration (test/lsp/query-progress.test.ts).
      if (this.activeProgress.size === 0 && this.progress.starts === startsBefore) return answer;
      await this.progressDrained(signal);
      return await this.unmodified<R>(method, params, signal);
    } finally {
      this.inFlight -= 1;
      this.lastActivity = Date.now();
    }
  }

  /** The request, asked again (at most CONTENT_MODIFIED_RETRIES times) while the server answers "content modified". */
  private async unmodified<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.request<R>(method, params, signal);
      } catch (error) {
        if (!(error instanceof ContentModified) || signal?.aborted) throw error;
        if (attempt >= CONTENT_MODIFIED_RETRIES) throw new ToolFailure(error.message.replace(/: the files/, ` ${attempt + 1} times in a row: the files`), { code: "not_ready" });
        this.contentModifiedRetries += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, CONTENT_MODIFIED_PAUSE_MS * 2 ** attempt));
      await this.progressDrained(signal);
    }
  }

  /** Resolves once no work-done progress is running, or after INDEXING_WAIT_MS (whichever is first). */
  progressDrained(signal?: AbortSignal): Promise<void> {
    if (this.activeProgress.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.events.off("progress", check);
        this.events.off("exited", done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const check = () => {
        if (this.activeProgress.size === 0 || !this.alive) done();
      };
      const timer = setTimeout(done, INDEXING_WAIT_MS);
      this.events.on("progress", check);
      signal?.addEventListener("abort", done, { once: true });
      this.events.once("exited", done);
    });
  }

  notify(method: string, params: unknown): void {
    if (this.alive) void this.connection.sendNotification(method, params).catch(() => {});
  }

  /**
   * Tells the server about files created, changed or deleted outside its view (a shell, git, a
   * formatter), those matching a watcher it registered; gopls and pyright see nothing else (a new
   * file using a renamed function was missed by the rename). Servers that watch for themselves
   * (tsserver) register none and are told nothing. Returns how many changes were sent.
   */
  notifyFileChanges(changes: readonly FileChange[]): number {
    const wanted = this.fileWatchers.wanted(changes, this.root);
    if (wanted.length > 0) this.notify("workspace/didChangeWatchedFiles", { changes: wanted });
    return wanted.length;
  }

  /** Whether the server answers `textDocument/diagnostic` (statically or after registering it). */
  get supportsPull(): boolean {
    return this.capabilities.diagnosticProvider !== undefined || [...this.registered.values()].includes("textDocument/diagnostic") || this.spec.pullsUnannounced === true;
  }

  /**
   * Polite stop: shutdown + exit, then the group gets SIGTERM and SIGKILL, then reaped. Every
   * caller waits for the same stop, so none returns while the group is still dying.
   */
  stop(): Promise<void> {
    this.stopped ??= this.stopOnce();
    return this.stopped;
  }

  private async stopOnce(): Promise<void> {
    this.stopping = true;
    if (this.alive) {
      const bound = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_REQUEST_TIMEOUT_MS).unref?.());
      await Promise.race([this.connection.sendRequest("shutdown").catch(() => {}), bound, this.gone.catch(() => {})]);
      this.notify("exit", undefined);
    }
    await this.kill();
  }

  /** The sequence number of the latest publish, for telling a new push from an old one. */
  get latestSequence(): number {
    return this.sequence;
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  /** Work-done progress tokens running (created or begun, not ended, not fallen silent), with what they said. */
  get activeProgress(): ReadonlyMap<string | number, string> {
    return this.progress.active;
  }

  /** What the server says it is doing, for `lsp status`; empty when it reports nothing. */
  get progressWords(): string {
    return this.progress.words();
  }

  /** Signals whatever is left of the group (a crashed server's own children) and closes the connection. */
  kill(): Promise<void> {
    this.stopping = true;
    this.killed ??= stopGroup(this.child).then(() => this.connection.dispose());
    return this.killed;
  }

  private async initialize(): Promise<void> {
    const rootUri = pathToFileURL(this.root).href;
    const result = await this.connection.sendRequest("initialize", {
      processId: process.pid,
      clientInfo: { name: "sidecar" },
      rootUri,
      rootPath: this.root,
      workspaceFolders: [{ uri: rootUri, name: this.root.split("/").pop() ?? "root" }],
      capabilities: CLIENT_CAPABILITIES,
      initializationOptions: this.initializationOptions,
    });
    this.capabilities = (result as { capabilities?: ServerCapabilities }).capabilities ?? {};
    // A server that analyses the workspace after `initialized` (ServerSpec.startupAnalysis) counts as
    // busy until it says it is done, so a first query is not answered from half an index.
    if (this.spec.startupAnalysis) {
      this.progress.began(STARTUP_ANALYSIS_TOKEN, "analysing the workspace");
      setTimeout(() => this.startupAnalysisEnded(), INDEXING_WAIT_MS).unref?.();
    }
    await this.connection.sendNotification("initialized", {});
    // Servers that read their settings from this notification rather than asking (sql-language-server).
    if (this.spec.settings) await this.connection.sendNotification("workspace/didChangeConfiguration", { settings: this.spec.settings });
  }

  private startupAnalysisEnded(): void {
    if (!this.activeProgress.has(STARTUP_ANALYSIS_TOKEN)) return;
    this.progress.ended(STARTUP_ANALYSIS_TOKEN);
    this.events.emit("progress");
  }

  private listen(): void {
    const c = this.connection;
    c.onNotification("textDocument/publishDiagnostics", (params: { uri: string; version?: number; diagnostics: Diagnostic[] }) => {
      this.sequence += 1;
      if (params.version !== undefined && params.version !== null) this.versionsPublishes = true;
      this.published.set(params.uri, { version: params.version ?? undefined, diagnostics: params.diagnostics, sequence: this.sequence });
      this.events.emit("published", params.uri);
    });
    c.onNotification("$/progress", (params: { token: string | number; value?: { kind?: string; title?: string; message?: string } }) => {
      if (params.value?.kind === "begin") this.progress.began(params.token, params.value.title ?? "working");
      if (params.value?.kind === "report") this.progress.reported(params.token, params.value.message);
      if (params.value?.kind === "end") {
        this.progress.ended(params.token);
        if (this.spec.startupAnalysis?.endsWith === "progress") this.startupAnalysisEnded();
      }
      this.events.emit("progress");
    });
    c.onRequest("window/workDoneProgress/create", (params: { token: string | number }) => {
      this.progress.created(params.token);
      this.events.emit("progress");
      return null;
    });
    c.onRequest("workspace/configuration", (params: { items: { section?: string }[] }) => params.items.map((item) => settingsSection(this.spec.settings, item.section)));
    c.onRequest("workspace/workspaceFolders", () => [{ uri: pathToFileURL(this.root).href, name: "root" }]);
    c.onRequest("client/registerCapability", (params: { registrations: { id: string; method: string; registerOptions?: unknown }[] }) => {
      for (const registration of params.registrations) {
        this.registered.set(registration.id, registration.method);
        if (registration.method === "workspace/didChangeWatchedFiles") this.fileWatchers.register(registration.id, registration.registerOptions);
      }
      this.events.emit("registered");
      return null;
    });
    c.onRequest("client/unregisterCapability", (params: { unregisterations: { id: string }[] }) => {
      for (const registration of params.unregisterations ?? []) {
        this.registered.delete(registration.id);
        this.fileWatchers.unregister(registration.id);
      }
      return null;
    });
    // The sidecar applies edits itself, atomically: a server's edit is taken only while a command
    // code_action runs (into its stage, written by resolve); any other is refused.
    c.onRequest("workspace/applyEdit", (params: ApplyWorkspaceEditParams): ApplyWorkspaceEditResult => {
      if (!this.editCapture) return { applied: false, failureReason: "sidecar applies edits itself" };
      this.editCapture.push(params.edit);
      return { applied: true };
    });
    c.onRequest("workspace/diagnostic/refresh", () => null);
    c.onNotification("window/logMessage", (params: { message?: string }) => {
      const analysis = this.spec.startupAnalysis;
      if (analysis?.endsWith === "log" && new RegExp(analysis.pattern).test(params.message ?? "")) this.startupAnalysisEnded();
    });
    c.onNotification("window/showMessage", () => {});
    c.onNotification("telemetry/event", () => {});
    c.onError(([error]) => {
      // After a frame that cannot be read nothing that follows can be trusted: stop the server, so
      // the pending requests fail now (ServerGone) and the next call starts a fresh one.
      if (this.protocolError !== undefined) return;
      this.protocolError = error.message;
      void this.kill();
    });
    c.listen();
  }
}

/** The catalog's answer for one `workspace/configuration` item ("yaml", "css.lint"): null where it has none. */
function settingsSection(settings: Record<string, unknown> | undefined, section: string | undefined): unknown {
  if (!settings || !section) return null;
  let value: unknown = settings;
  for (const key of section.split(".")) {
    if (!value || typeof value !== "object") return null;
    value = (value as Record<string, unknown>)[key];
  }
  return value ?? null;
}

