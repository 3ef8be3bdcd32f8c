// `sidecar serve`: one server for one agent run, until SIGINT/SIGTERM/SIGHUP or its harness exits;
// with --stdio, one MCP session over stdin/stdout, until end of input too.
import { homedir } from "node:os";
import { resolveWorkdir, type RunSettings } from "../config/load.ts";
import { openLinkChannel } from "../console/link-channel.ts";
import { RootsFirstSession } from "../http/roots-first.ts";
import { StdioTransport } from "../http/stdio-transport.ts";
import { sessionServer } from "../http/surface-server.ts";
import { ignoreClosedPipes, writeQuietly } from "../log/log-sinks.ts";
import { closeMemoryToOtherProcesses } from "../platform/non-dumpable.ts";
import { ownRunsFolder } from "../platform/own-runs.ts";
import { watchParent } from "../platform/parent-watch.ts";
import { keepHelperThreadsLow } from "../platform/priority.ts";
import type { RuntimePrimitives } from "../host/runtime.ts";
import { readyLine, startRun } from "../run/start.ts";
import type { Surface } from "../tool/registry.ts";
import { VERSION } from "../version.ts";
import { UsageError, type CliFlags } from "./args.ts";
import { settingsFromFlags } from "./load-settings.ts";
import { logFromFlags } from "./log-flags.ts";
import { noToolWarning } from "./run-tools.ts";
import { workdirFromRoots } from "./stdio-workdir.ts";

export async function serveCommand(flags: CliFlags, runtime: RuntimePrimitives): Promise<number> {
  await closeMemoryToOtherProcesses(); // before the tokens exist: no child can read them from /proc/<pid>/mem
  // Read before start-up, so that a harness dying while the run starts is noticed too.
  const parent = process.ppid;
  if (flags.surface !== undefined && !flags.stdio) {
    throw new UsageError("--surface picks the surface of the --stdio session; over HTTP each client's token picks its surface. Add --stdio, or drop --surface.");
  }
  // Before anything can log: in stdio mode stdout carries MCP messages and nothing else.
  if (flags.stdio) sendConsoleToStderr();
  // A harness that closed its end of stdout or stderr must not make a write fail the run, least
  // of all its shutdown: workers and temp state would be left behind.
  ignoreClosedPipes(process.stdout, process.stderr);
  const { log, close: closeLog } = logFromFlags(flags);
  let settings = settingsFromFlags(flags);
  const stdioSurface = flags.stdio ? surfaceNamed(settings, flags.surface ?? "default") : undefined;
  const stdio = stdioSurface ? new StdioTransport(process.stdin, process.stdout) : undefined;
  // Started by a client with nothing saying which checkout: the client's open folder (its MCP roots).
  // Without a config nothing else depends on the workdir, so only it waits for the client.
  const rootsFirst = stdio && flags.workdir === undefined && flags.config === undefined ? new RootsFirstSession(stdio, () => rootsChanged()) : undefined;
  const rootsChanged = () =>
    log.info("roots.changed", `the client's roots changed; this run keeps serving ${settings.workdir} (one checkout per process: start another sidecar for another folder)`);
  if (rootsFirst) {
    const answer = await rootsFirst.askRoots(sessionServer({ name: "sidecar", version: VERSION }, true));
    if (answer.kind === "ended") return 0;
    settings = { ...settings, workdir: resolveWorkdir(workdirFromRoots(answer, process.cwd(), homedir(), log), process.cwd()) };
  }
  const run = await startRun(settings, runtime, { allowRemote: flags["allow-remote"], log });
  // `sidecar console` asks here for a fresh page link; a run that cannot offer one still serves.
  // Not waited for before the ready line, which carries a page link of its own: the socket's
  // listen callback came 10-25 ms later, behind the workers' start, and a harness's first call
  // waited on it (a cold ast_grep over a TypeScript checkout, median of 20: 395 -> 380 ms).
  const channel = openLinkChannel(ownRunsFolder(), { pid: process.pid, workdir: settings.workdir, since: run.since }, run.pageLink).catch((error: Error) => {
    log.warn("console.unreachable", `sidecar console cannot reach this run: ${error.message}`);
    return undefined;
  });
  // Under load the runtime's JIT, GC and allocator threads took turns ahead of the main thread.
  const stopLoweringHelpers = keepHelperThreadsLow();

  // The handlers are in place before the ready line: a harness may send SIGTERM the moment it reads
  // it, and without a handler that signal ends the process with no shutdown at all.
  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    let stopWatchingParent = () => {};
    const stop = (reason: string) => {
      if (stopping) return;
      stopping = true;
      log.info("run.stopping", `${reason}, shutting down`, { reason });
      stopLoweringHelpers();
      stopWatchingParent();
      channel
        .then((open) => open?.close())
        .then(() => run.close())
        .then(() => log.info("run.stopped", "stopped"))
        .then(closeLog)
        .then(() => resolve(0));
    };
    process.on("SIGINT", () => stop("SIGINT received"));
    process.on("SIGTERM", () => stop("SIGTERM received"));
    // The terminal it ran in closed: by default that kills the process with no shutdown at all.
    process.on("SIGHUP", () => stop("SIGHUP received"));
    // The client closed its end (or went away): the session, and with it the run, is over.
    stdio?.done.then(() => stop("stdin ended"));
    if (!flags["outlive-parent"]) stopWatchingParent = watchParent(parent, () => stop(`the process that started it (pid ${parent}) exited`));
  });
  if (stdio && stdioSurface) {
    await run.sessions.attach(stdioSurface, rootsFirst?.transport ?? stdio);
    log.info("run.serving", `serving ${settings.workdir} over stdio with the tools of surface "${stdioSurface.name}"; operator page: ${run.page}`, {
      workdir: settings.workdir,
      surface: stdioSurface.name,
      page: run.page,
      record: run.record.path,
    });
  } else {
    writeQuietly(process.stdout, `${readyLine(run)}\n`);
    log.info("run.serving", `serving ${settings.workdir} at ${run.url}`, { workdir: settings.workdir, url: run.url, record: run.record.path });
  }
  const warning = noToolWarning(run.registry);
  if (warning) log.warn("run.no_tools", warning);
  return stopped;
}

function surfaceNamed(settings: RunSettings, name: string): Surface {
  const surface = settings.surfaces.find((s) => s.name === name);
  if (!surface) throw new UsageError(`No surface named ${name}; this config has: ${settings.surfaces.map((s) => s.name).join(", ")}.`);
  return surface;
}

/**
 * In stdio mode a stray console.log from any module would corrupt the MCP stream, so the console's
 * stdout methods write to stderr. (Every child the sidecar starts has its stdout piped or ignored.)
 */
function sendConsoleToStderr(): void {
  const toStderr = console.error.bind(console);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.trace = toStderr;
}
