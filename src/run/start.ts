// Starts one run: its resources connected, the tool registry, the HTTP app, the listener.
import { CallsInFlight } from "./calls-in-flight.ts";
import { CallRecord } from "../activity/call-record.ts";
import { PageAccess } from "../console/page-access.ts";
import { createApp } from "../http/app.ts";
import type { McpSessions } from "../http/session-table.ts";
import type { CallActivity } from "../http/tool-call.ts";
import { RunLog } from "../log/log.ts";
import { isLoopbackHost } from "../http/guard.ts";
import type { RunSettings } from "../config/load.ts";
import { ConfigError } from "../config/load.ts";
import type { RuntimePrimitives } from "../host/runtime.ts";
import type { Tool } from "../tool/define.ts";
import { ToolRegistry } from "../tool/registry.ts";
import { VERSION } from "../version.ts";
import { collectGarbage, shrinkFootprint } from "../platform/gc.ts";
import { mintSecret } from "../platform/secrets.ts";
import { toolCatalog } from "./catalog.ts";
import { connectResources } from "./connect.ts";
import { IdleReclaim } from "./idle-reclaim.ts";
import { Lifecycle } from "../host/lifecycle.ts";
import { harnessRoutes } from "./routes.ts";
import { connected, type RunResources } from "./resources.ts";

/**
 * How long the run must have had no call working before the background work services keep for
 * later (the debugger's python probe) starts. Such work ran at the ready line, beside the agent's
 * first call: on 2 cores a pyenv shim's chain of shells made a cold ast_grep 1.5x slower.
 */
const BACKGROUND_QUIET_MS = 500;

export interface StartOptions {
  allowRemote?: boolean;
  /** Tools added beside the catalog's; tests use this to exercise the registry. */
  extraTools?: readonly Tool[];
  /** The run's log (serve's: stderr, --log-file); without one, events go nowhere. */
  log?: RunLog;
}

export interface RunningSidecar {
  /** The MCP endpoint, e.g. http://127.0.0.1:41234/mcp. */
  url: string;
  /** A fresh link to the console, with a ticket of its own (`sidecar console` asks for them). */
  pageLink(): string;
  /** When the run started (ISO time). */
  since: string;
  /** The console's (the operator page's) link, with a one-time ticket. */
  page: string;
  port: number;
  surfaces: Record<string, string>;
  registry: ToolRegistry;
  resources: RunResources;
  /** The run's MCP sessions; `serve --stdio` attaches its one session here. */
  sessions: McpSessions;
  /** Every call of the run: calls.jsonl in the stateDir, and the recent calls the operator page shows. */
  record: CallRecord;
  log: RunLog;
  close(): Promise<void>;
}

/** The JSON line `serve` prints when ready. */
export function readyLine(run: RunningSidecar): string {
  return JSON.stringify({ url: run.url, page: run.page, surfaces: run.surfaces, pid: process.pid, version: VERSION });
}

export async function startRun(
  settings: RunSettings,
  runtime: RuntimePrimitives,
  options: StartOptions = {},
): Promise<RunningSidecar> {
  const { host, port } = settings.listen;
  if (!options.allowRemote && !isLoopbackHost(host)) {
    throw new ConfigError(`listen: ${host} is not a loopback address; pass --allow-remote to serve beyond this machine.`);
  }
  const log = options.log ?? new RunLog();
  const lifecycle = new Lifecycle();
  // Closed last (closers run newest first): every call has ended and been recorded by then.
  const record = new CallRecord(settings.stateDir, log);
  lifecycle.add("call record", () => record.close());
  const shutdown = new AbortController();
  const resources = connectResources(settings, runtime, lifecycle);
  const catalog = toolCatalog(resources);
  const registry = new ToolRegistry(() => [...catalog(), ...(options.extraTools ?? [])]);
  const reclaim = new IdleReclaim({
    reclaim: (deep) => {
      if (deep) shrinkFootprint();
      else collectGarbage(true);
      for (const { resource, service } of connected(resources)) resource.reclaim?.(service);
    },
  });
  lifecycle.add("idle reclaim", async () => reclaim.close());
  // The console's own secret, minted per run: no MCP route accepts it, and the page accepts no MCP token.
  const page = new PageAccess(mintSecret());
  const surfaces = settings.surfaces.map(({ name, tiers }) => ({ name, tiers }));
  const since = new Date().toISOString();
  const routes = harnessRoutes(resources, { registry, surfaces, record, page, runSignal: shutdown.signal, since });
  const inFlight = new CallsInFlight();
  const { app, sessions } = createApp({
    registry,
    surfaces: settings.surfaces,
    identity: { name: "sidecar", version: VERSION },
    runSignal: shutdown.signal,
    activity: everyOf(reclaim, record, inFlight),
    log,
    allowRemote: options.allowRemote,
    routes,
  });
  const listening = await runtime.listen(app.fetch, host, port).catch(async (error: Error) => {
    await lifecycle.close(shutdownLog(log));
    throw new ConfigError(listenFailure(host, port, error));
  });
  lifecycle.add("mcp sessions", () => sessions.closeAll());
  lifecycle.add("listener", () => listening.close());
  lifecycle.serving((start) => inFlight.whenQuiet(BACKGROUND_QUIET_MS, start));
  for (const { resource, service } of connected(resources)) resource.serving?.(service);
  const shownHost = host.includes(":") ? `[${host}]` : host;
  const origin = `http://${shownHost}:${listening.port}`;
  return {
    url: `${origin}/mcp`,
    // In the fragment, which no browser sends to a server; spent once the page has opened.
    page: `${origin}/#k=${page.issueTicket()}`,
    pageLink: () => `${origin}/#k=${page.issueTicket()}`,
    since,
    port: listening.port,
    surfaces: Object.fromEntries(settings.surfaces.map((s) => [s.name, s.token])),
    registry,
    resources,
    sessions,
    record,
    log,
    close: async () => {
      shutdown.abort(); // in-flight calls end first, so nothing waits on a service being stopped
      await inFlight.answered(); // and their answers (cancelled) leave before the listener closes
      return lifecycle.close(shutdownLog(log));
    },
  };
}

/** One listener told of every call by each of several. */
function everyOf(...activities: CallActivity[]): CallActivity {
  return {
    callStarted: (start) => activities.forEach((activity) => activity.callStarted(start)),
    callEnded: (report) => activities.forEach((activity) => activity.callEnded(report)),
    requestHeard: () => activities.forEach((activity) => activity.requestHeard?.()),
  };
}

function shutdownLog(log: RunLog): (line: string) => void {
  return (line) => log.warn("shutdown.failed", line);
}

/** Why serving at host:port failed, in a sentence with what to do: almost always the address. */
function listenFailure(host: string, port: number, error: Error & { code?: string }): string {
  // Bun and Node set code EADDRINUSE; Deno names the error AddrInUse (and sets the code on newer versions).
  if (error.code === "EADDRINUSE" || error.name === "AddrInUse") {
    return `listen: port ${port} on ${host} is already in use by another process (another sidecar, perhaps). Stop that one, or pick another port with --listen ${host}:PORT (0 picks any free port).`;
  }
  return `listen: could not serve at ${host}:${port} (${error.message.replace(/^Error: /, "")}). Pick another --listen address, or port 0 for any free one.`;
}
