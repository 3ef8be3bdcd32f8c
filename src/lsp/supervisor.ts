// Language-server supervisor: one server per (server, root), started lazily once, restarted with backoff, stopped when idle.
import { extname } from "node:path";
import type { ServerCapabilities } from "vscode-languageserver-protocol";
import type { LanguageServerSettings } from "../config/resources/language-servers.ts";
import { ToolFailure } from "../answer/failure.ts";
import { relativeToWorkdir } from "../workspace/paths.ts";
import { buildCatalog, serversForFile, type ServerSpec } from "./catalog.ts";
import { LanguageServerClient } from "./client.ts";
import { diagnosticsCaveat, type LaunchContext, type Trust } from "./launch.ts";
import { defaultCacheDir } from "./provision/cache.ts";
import { programTrust } from "../platform/executables.ts";
import { sidecarBun } from "./provision/bun.ts";
import { ServerProvisioner } from "./provision/provisioner.ts";
import { scanRoots } from "../workspace/project-roots.ts";
import { syncOpenDocuments } from "./documents.ts";
import { commandFor, rootOf, sampleFileFor } from "./roots.ts";
import { shownPath } from "../workspace/shown-path.ts";
import { describeSource, InstallFailed, installFailedText, launchFor, skippedText } from "./server-source.ts";
import { SourceLines, type LinkMap } from "./present.ts";

/** A server that serves the file exists but is down (failed to start, or backing off after crashes): nothing is known, not "unsupported". */
export class ServerDown extends ToolFailure {}

/** How long a server gets to spawn and answer `initialize` (pyright and tsserver are slow on a loaded box). */
const INITIALIZE_TIMEOUT_MS = 45_000;
/** Servers unused this long are stopped; the next use starts them again. */
const IDLE_SHUTDOWN_MS = 10 * 60_000;
/** Backoff after the n-th failure: BASE·2^(n-1), capped. The first crash of a running server restarts at once. */
const RESTART_BACKOFF_BASE_MS = 2_000;
const RESTART_BACKOFF_MAX_MS = 5 * 60_000;

/** A probe (`sidecar doctor`, a first workspace search) starts at most this many roots per server; the others start on use. */
export const STATUS_PROBE_ROOTS = 4;

type ServerState = "running" | "idle" | "installing" | "unavailable";

/** What the supervisor needs of the workdir watcher. */
interface WorkdirView extends LinkMap {
  settled(): Promise<void>;
}

interface ServerStatus {
  server: string;
  /** Workspace-relative root, or null when no root marker was found anywhere. */
  root: string | null;
  state: ServerState;
  /** Why it is not running (or "" when it is); also which workspace binaries were skipped as untrusted. */
  reason: string;
  command: string;
  /** Where the binary comes from: a path, or the install in the sidecar's cache. */
  source?: string;
  /** For a running server: the actions it does not offer (call hierarchy, implementation, …). */
  lacks?: string[];
  /** With no root: a file of its languages the workspace has all the same (so a marker is missing, not the language). */
  unrootedFile?: string;
}

/** The optional actions a server's capabilities leave out, named as the tool names them. */
const OPTIONAL_ACTIONS = [
  ["calls", "callHierarchyProvider"],
  ["implementation", "implementationProvider"],
  ["type_definition", "typeDefinitionProvider"],
  ["code_actions", "codeActionProvider"],
  ["rename", "renameProvider"],
] as const;

function lacking(capabilities: ServerCapabilities): { lacks?: string[] } {
  const lacks = OPTIONAL_ACTIONS.filter(([, provider]) => !capabilities[provider]).map(([action]) => action);
  return lacks.length ? { lacks } : {};
}

/** A server this run started or tried, as the operator page shows it. */
interface StartedServer {
  server: string;
  /** Workspace-relative root. */
  root: string;
  state: "running" | "starting" | "idle" | "unavailable" | "stopped";
  pid?: number;
  lastError?: string;
}

interface Entry {
  spec: ServerSpec;
  root: string;
  client?: LanguageServerClient;
  starting?: Promise<LanguageServerClient>;
  failures: number;
  crashes: number;
  lastError?: string;
  retryAt?: number;
  idleTimer?: ReturnType<typeof setTimeout>;
  /** Stopped after going unused; restarts on the next real use, not on status. */
  idled?: boolean;
}

export interface ServerHandle {
  client: LanguageServerClient;
  spec: ServerSpec;
  root: string;
}

export interface SupervisorOptions {
  /** "none" (the default): no server, checker or setting comes from the workspace (docs/lsp.md, Workspace trust). */
  trust?: Trust;
}

export class LanguageServerSupervisor {
  readonly catalog: ServerSpec[];
  readonly provisioner: ServerProvisioner;
  readonly trust: Trust;
  private readonly entries = new Map<string, Entry>();
  private readonly initializeTimeoutMs: number;
  private readonly idleShutdownMs: number;
  private closed = false;
  /** The workdir watcher: which outside files the workspace reaches through symlinks, and changes not yet delivered. */
  watch: WorkdirView | undefined;

  constructor(
    readonly workdir: string,
    settings: LanguageServerSettings = {},
    options: SupervisorOptions = {},
  ) {
    this.catalog = buildCatalog(settings);
    this.trust = options.trust ?? "none";
    this.provisioner = new ServerProvisioner(settings.cacheDir ?? defaultCacheDir(), settings.install ?? "auto", this.catalog, sidecarBun(programTrust(this.trust, workdir)));
    this.initializeTimeoutMs = (settings.initializeTimeoutSeconds ?? INITIALIZE_TIMEOUT_MS / 1000) * 1000;
    this.idleShutdownMs = (settings.idleShutdownSeconds ?? IDLE_SHUTDOWN_MS / 1000) * 1000;
  }

  /**
   * The server for a file (absolute path inside the workdir), started if needed; a ToolFailure says
   * why not: ServerDown when a server serves the file but failed to start or is waiting after crashes.
   */
  async serverFor(file: string): Promise<ServerHandle> {
    const extension = extname(file);
    const specs = serversForFile(this.catalog, file);
    if (specs.length === 0) {
      const known = [...new Set(this.catalog.flatMap((s) => s.extensions))].join(" ");
      throw new ToolFailure(`No language server in the catalog handles ${extension || "files without an extension"}. Handled extensions: ${known}.`, { code: "server_unavailable" });
    }
    const misses: string[] = [];
    for (const spec of specs) {
      const root = rootOf(this.workdir, file, spec);
      if (!root) {
        misses.push(`${spec.id}: no root marker (${spec.rootMarkers.join(", ")}) in ${shownPath(relativeToWorkdir(this.workdir, file))}'s folder or above it inside the workspace`);
        continue;
      }
      return { client: await this.ensure(spec, root), spec, root };
    }
    throw new ToolFailure(`No language server can serve ${shownPath(relativeToWorkdir(this.workdir, file))}: ${misses.join("; ")}. Add the marker at the project's root.`, { code: "server_unavailable" });
  }

  /** The roots the file belongs to, one per server handling its extension (none started). */
  rootsFor(file: string): string[] {
    const roots = serversForFile(this.catalog, file).flatMap((spec) => rootOf(this.workdir, file, spec) ?? []);
    return [...new Set(roots)];
  }

  /** A reader of source lines for one answer, which tells library files from linked ones. */
  lines(): SourceLines {
    return new SourceLines(this.workdir, this.watch);
  }

  /**
   * Before a request: the changes the workdir watcher has seen reach the servers, and every file
   * this server holds open is brought up to date with the disk (only those whose stamp changed).
   */
  async current(client: LanguageServerClient): Promise<void> {
    await this.watch?.settled();
    await syncOpenDocuments(client, this.workdir);
  }

  /** The running servers, for actions that span the run (workspace symbols). */
  running(): ServerHandle[] {
    return [...this.entries.values()].filter((e) => e.client?.alive).map((e) => ({ client: e.client!, spec: e.spec, root: e.root }));
  }

  /** Starts (or reuses) the server for (spec, root): concurrent callers share one start. */
  async ensure(spec: ServerSpec, root: string): Promise<LanguageServerClient> {
    if (this.closed) throw new ToolFailure("The run is shutting down; language servers are no longer started.", { code: "cancelled" });
    const entry = this.entry(spec, root);
    if (entry.client?.alive && !entry.client.isStopping) {
      this.touch(entry);
      return entry.client;
    }
    if (entry.starting) return entry.starting;
    const rel = shownPath(relativeToWorkdir(this.workdir, root)); // for messages only
    if (entry.retryAt !== undefined && Date.now() < entry.retryAt) {
      throw new ServerDown(`The ${spec.id} server for ${rel} is unavailable: ${this.reasonOf(entry)}. Fix the cause, or call lsp reload to retry now.`, { code: "server_unavailable" });
    }
    // Not found, untrusted, or install "never": a ToolFailure passed on as it is, not remembered as a failure.
    const launching = launchFor(spec, root, this.launchContext());
    entry.starting = launching
      .then((launch) => LanguageServerClient.start({ spec, root, launch, initializeTimeoutMs: this.initializeTimeoutMs }))
      .then((client) => {
        entry.client = client;
        entry.idled = false;
        entry.failures = 0;
        entry.retryAt = undefined;
        void client.whenExited().then(() => this.onExit(entry, client));
        this.touch(entry);
        return client;
      })
      .catch((error: Error) => {
        if (error instanceof ToolFailure && !(error instanceof ServerDown)) throw error;
        entry.failures += 1;
        entry.lastError = error instanceof InstallFailed ? `install failed: ${error.message}` : error.message;
        entry.retryAt = Date.now() + backoff(entry.failures);
        if (error instanceof InstallFailed) throw new ServerDown(installFailedText(spec, rel, error), { code: "server_unavailable" });
        throw new ServerDown(`The ${spec.id} server for ${rel} failed to start: ${error.message}. Check \`${commandFor(spec)}\` runs in ${rel}; lsp reload retries.`, { code: "server_unavailable" });
      })
      .finally(() => {
        entry.starting = undefined;
      });
    return entry.starting;
  }

  /**
   * Per (server, root): running, idle, installing, or why not. It reports and never starts or installs
   * anything: status once started up to four servers per call, and pyright processes of roots never
   * queried stayed.
   */
  status(): ServerStatus[] {
    const rows: ServerStatus[] = [];
    const ctx = this.launchContext();
    for (const spec of this.catalog) {
      const roots = this.statusRoots(spec);
      if (roots.length === 0) {
        rows.push(this.unrooted(spec));
        continue;
      }
      for (const root of roots) {
        const base = { server: spec.id, root: relativeToWorkdir(this.workdir, root), command: commandFor(spec) };
        const entry = this.entries.get(`${spec.id}\0${root}`);
        const source = describeSource(spec, root, ctx);
        const skipped = source.lookup.kind === "found" ? skippedText(source.lookup.skipped) : "";
        const found = source.source ? { ...base, source: source.source } : base;
        if (entry?.client?.alive && !entry.client.isStopping) rows.push({ ...found, state: "running", reason: [skipped.slice(2), diagnosticsCaveat(spec, ctx), entry.client.progressWords].filter(Boolean).join("; "), ...lacking(entry.client.capabilities) });
        else if (entry?.starting) rows.push({ ...found, state: source.state === "installing" ? "installing" : "idle", reason: source.state === "installing" ? source.reason : "starting" });
        else if (entry && entry.retryAt !== undefined && entry.retryAt > Date.now()) rows.push({ ...found, state: "unavailable", reason: this.reasonOf(entry) });
        else if (source.state === "installable" && entry?.lastError) rows.push({ ...found, state: "unavailable", reason: this.reasonOf(entry) });
        else if (source.state !== "found") rows.push({ ...found, state: source.state === "installable" ? "idle" : source.state, reason: source.reason });
        else if (entry?.idled) rows.push({ ...found, state: "idle", reason: `stopped after ${this.idleShutdownMs / 1000} s unused; starts on next use${skipped}` });
        else if (entry?.lastError) rows.push({ ...found, state: "idle", reason: `${this.reasonOf(entry)}; starts again on next use` });
        else rows.push({ ...found, state: "idle", reason: `found (${source.source}); not started (starts on first use)${skipped}` });
      }
    }
    return rows.sort((a, b) => a.server.localeCompare(b.server) || (a.root ?? "").localeCompare(b.root ?? ""));
  }

  /** What `sidecar doctor` checks: usable means it ran, so up to four found roots per server are started (none installed), then reported. */
  async probe(): Promise<ServerStatus[]> {
    const ctx = this.launchContext();
    await Promise.all(
      this.catalog.map(async (spec) => {
        const roots = this.statusRoots(spec).filter((root) => describeSource(spec, root, ctx).state === "found").slice(0, STATUS_PROBE_ROOTS);
        await Promise.all(roots.map((root) => this.ensure(spec, root).catch(() => undefined)));
      }),
    );
    return this.status();
  }

  /** What a server's binary, install and trust are judged by. */
  launchContext(): LaunchContext {
    return { workdir: this.workdir, trust: this.trust, provisioner: this.provisioner };
  }

  /** Restarts the running servers (of one root); one not running is only cleared to start on next use. Says which was which. */
  async reload(root?: string): Promise<string[]> {
    const chosen = [...this.entries.values()].filter((e) => root === undefined || e.root === root);
    return Promise.all(
      chosen.map(async (entry) => {
        const name = `${entry.spec.id} (${shownPath(relativeToWorkdir(this.workdir, entry.root))})`;
        const wasRunning = entry.client?.alive ?? false;
        const client = entry.client;
        entry.client = undefined;
        entry.failures = 0;
        entry.crashes = 0;
        entry.retryAt = undefined;
        entry.lastError = undefined;
        clearTimeout(entry.idleTimer);
        await client?.stop();
        if (!wasRunning) return `${name}: was not running; its failures are cleared and it starts on next use`;
        try {
          await this.ensure(entry.spec, entry.root);
          return `${name}: restarted`;
        } catch (error) {
          return `${name}: stopped, but did not start again: ${(error as Error).message}`;
        }
      }),
    );
  }

  /**
   * The servers this run has started or tried, as they are now: nothing is probed or started (the
   * operator page reads this every few seconds).
   */
  started(): StartedServer[] {
    return [...this.entries.values()].map((entry) => ({
      server: entry.spec.id,
      root: relativeToWorkdir(this.workdir, entry.root),
      state: entry.client?.alive ? "running" : entry.starting ? "starting" : entry.retryAt ? "unavailable" : entry.idled ? "idle" : "stopped",
      ...(entry.client?.alive && entry.client.child.pid !== undefined ? { pid: entry.client.child.pid } : {}),
      ...(entry.lastError ? { lastError: entry.lastError } : {}),
    }));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.provisioner.close();
    const pending = [...this.entries.values()];
    for (const entry of pending) clearTimeout(entry.idleTimer);
    await Promise.all(pending.map(async (entry) => (await entry.starting?.catch(() => undefined))?.stop()));
    await Promise.all(pending.map((entry) => entry.client?.stop()));
  }

  private entry(spec: ServerSpec, root: string): Entry {
    const key = `${spec.id}\0${root}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { spec, root, failures: 0, crashes: 0 };
      this.entries.set(key, entry);
    }
    return entry;
  }

  /**
   * A server with no root: no files of its own here, or files but no root marker. The marker is still
   * required (pyright takes its settings and import roots from it), so the row names the files and the markers.
   */
  private unrooted(spec: ServerSpec): ServerStatus {
    const row = { server: spec.id, root: null, state: "unavailable" as const, command: commandFor(spec) };
    if (spec.workdirRoot || spec.statusNeedsFiles) return { ...row, reason: `no ${[...spec.extensions, ...(spec.fileNames ?? [])].join(" ")} files in the workspace` };
    const sample = sampleFileFor(this.workdir, spec);
    if (!sample) return { ...row, reason: `no root marker (${spec.rootMarkers.join(", ")}) in the workspace` };
    const file = shownPath(relativeToWorkdir(this.workdir, sample));
    const reason = `${file} (and any other ${spec.extensions.join(" ")} files) not served: no root marker (${spec.rootMarkers.join(", ")}) in its folder or above it. Add one of them (a ${spec.rootMarkers[0]}, say) in the folder the project starts from, then lsp reload`;
    return { ...row, reason, unrootedFile: file };
  }

  /** Roots status reports for a server: those a bounded scan finds, and those in use. A workdir-rooted server only where its files are. */
  private statusRoots(spec: ServerSpec): string[] {
    const scanned = scanRoots(this.workdir, spec.rootMarkers);
    const withFiles = (roots: string[]) => roots.filter((root) => sampleFileFor(root, spec) !== undefined);
    // A workdir-rooted server's files belong to a marker's root when there is one, else to the workdir.
    const markedWithFiles = withFiles(scanned);
    const candidates = spec.workdirRoot ? (markedWithFiles.length ? markedWithFiles : withFiles([this.workdir])) : spec.statusNeedsFiles ? markedWithFiles : scanned;
    return [...new Set([...candidates, ...this.rootsOf(spec)])];
  }

  private rootsOf(spec: ServerSpec): string[] {
    return [...this.entries.values()].filter((e) => e.spec.id === spec.id).map((e) => e.root);
  }

  private onExit(entry: Entry, client: LanguageServerClient): void {
    clearTimeout(entry.idleTimer);
    if (entry.client === client) entry.client = undefined;
    if (client.isStopping) return;
    // The leader died; its children (tsserver, a watcher) may still run in the group.
    void client.kill();
    entry.crashes += 1;
    entry.lastError = client.exitDescription();
    entry.retryAt = entry.crashes === 1 ? undefined : Date.now() + backoff(entry.crashes - 1);
  }

  private touch(entry: Entry, delayMs = this.idleShutdownMs): void {
    clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => {
      const client = entry.client;
      const quietFor = Date.now() - (client?.lastActivity ?? 0);
      // A server still loading its project (work-done progress running) is not idle: it is working.
      if (client && (client.inFlight > 0 || client.activeProgress.size > 0 || quietFor < this.idleShutdownMs)) {
        this.touch(entry, Math.max(this.idleShutdownMs - quietFor, 100));
        return;
      }
      entry.client = undefined;
      entry.idled = true;
      void client?.stop();
    }, delayMs);
    entry.idleTimer.unref?.();
  }

  private reasonOf(entry: Entry): string {
    if (entry.client?.alive) return "";
    const parts: string[] = [];
    if (entry.crashes > 0) parts.push(`crashed ${entry.crashes} time${entry.crashes === 1 ? "" : "s"} (last: ${entry.lastError})`);
    else if (entry.lastError) parts.push(/^(initialize timed out|install failed)/.test(entry.lastError) ? entry.lastError : `exited during start-up with ${entry.lastError}`);
    if (entry.retryAt !== undefined && entry.retryAt > Date.now()) parts.push(`retrying at ${new Date(entry.retryAt).toISOString().slice(11, 19)} UTC`);
    return parts.join("; ") || "not started (starts on first use)";
  }
}

function backoff(failures: number): number {
  return Math.min(RESTART_BACKOFF_BASE_MS * 2 ** (failures - 1), RESTART_BACKOFF_MAX_MS);
}
